"""Built-in CLI commands; importing this package registers them all."""

import importlib
import pkgutil

from engine.commands.registry import COMMANDS

__all__ = ["COMMANDS"]

for _module in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_module.name}")

"""Built-in CLI commands; importing this package registers them all."""

import importlib
import pkgutil

from engine.commands.command_registry import COMMANDS

__all__ = ["COMMANDS"]

# The cluster modules register no command: they load only when a run asks for `--cluster`.
for _module in pkgutil.iter_modules(__path__):
    if not _module.name.startswith("cluster"):
        importlib.import_module(f"{__name__}.{_module.name}")

"""The registry of CLI commands: each built-in module registers its commands here."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass

from engine.core.registry import PLUGIN_GROUPS, Registry

Configure = Callable[[argparse.ArgumentParser], None]
Handler = Callable[[argparse.Namespace], int]


@dataclass(frozen=True)
class Command:
    """One subcommand: how to configure its parser and what runs it."""

    help: str
    configure: Configure
    handler: Handler


COMMANDS: Registry[Command] = Registry("command", callables=False, plugins=PLUGIN_GROUPS["command"])


def register(name: str, command: Command) -> None:
    """Add or replace a subcommand; the built-ins register the same way.

    A two-word name such as `"eval scifact"` becomes a subcommand of a `eval` group.
    """
    COMMANDS.register(name, command)

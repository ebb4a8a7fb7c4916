"""Command-line entry: `python -m engine <command> ...`, built from a registry of commands."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass

from engine.errors import EngineError

Configure = Callable[[argparse.ArgumentParser], None]
Handler = Callable[[argparse.Namespace], int]


@dataclass(frozen=True)
class Command:
    """One subcommand: how to configure its parser and what runs it."""

    help: str
    configure: Configure
    handler: Handler


COMMANDS: dict[str, Command] = {}


def register(name: str, command: Command) -> None:
    """Add or replace a subcommand; the built-ins register the same way.

    A two-word name such as `"eval scifact"` becomes a subcommand of a `eval` group.
    """
    COMMANDS[name] = command


def build_parser() -> argparse.ArgumentParser:
    """The argparse tree for every registered command."""
    parser = argparse.ArgumentParser(prog="python -m engine", description="Synapse Review engine")
    sub = parser.add_subparsers(dest="command", required=True)
    groups: dict[str, argparse._SubParsersAction] = {}
    for name in sorted(COMMANDS):
        command = COMMANDS[name]
        group, _, leaf = name.partition(" ")
        if leaf:
            if group not in groups:
                holder = sub.add_parser(group, help=f"{group} commands")
                groups[group] = holder.add_subparsers(dest=f"{group}_command", required=True)
            child = groups[group].add_parser(leaf, help=command.help, description=command.help)
        else:
            child = sub.add_parser(name, help=command.help, description=command.help)
        command.configure(child)
        child.set_defaults(_handler=command.handler)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one command; engine errors become a one-line message and exit status 2."""
    from engine import commands  # noqa: F401  (registers the built-in commands)

    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args._handler(args) or 0)
    except EngineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0

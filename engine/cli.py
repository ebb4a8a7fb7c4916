"""Command-line entry: `python -m engine <command> ...`, built from a registry of commands."""

from __future__ import annotations

import argparse
import sys

# Importing the commands package registers the built-in commands.
from engine.commands import COMMANDS
from engine.commands.command_registry import Command
from engine.core.errors import EngineError
from engine.core.registry import Registry


def build_parser(
    commands: Registry[Command] = COMMANDS,
    *,
    prog: str = "python -m engine",
    plugins: bool = True,
) -> argparse.ArgumentParser:
    """The argparse tree for every command in `commands` (without `plugins`, the built-ins)."""
    parser = argparse.ArgumentParser(prog=prog, description="Synapse Review engine")
    sub = parser.add_subparsers(dest="command", required=True)
    groups: dict[str, argparse._SubParsersAction[argparse.ArgumentParser]] = {}
    for name in commands.names(plugins=plugins):
        command = commands[name]
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


def _built_in(words: list[str]) -> bool:
    """Whether `words` start with a built-in command, so no installed plugin need be looked
    for (scanning the installed packages costs more than the rest of starting up)."""
    named = [" ".join(words[:2]), words[0]] if words else []
    return any(COMMANDS.registered(name) for name in named)


def run() -> None:
    """The `synapse` console script: `synapse ask …` is `python -m engine ask …`."""
    sys.exit(main(prog="synapse"))


def main(argv: list[str] | None = None, *, prog: str = "python -m engine") -> int:
    """Run one command; engine errors become a one-line message and exit status 2."""
    words = sys.argv[1:] if argv is None else argv
    parser = build_parser(prog=prog, plugins=not _built_in(words))
    args = parser.parse_args(argv)
    try:
        return int(args._handler(args) or 0)
    except EngineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # a full disk, a read-only folder: the disk refused, not a bug
        where = f" ({exc.filename})" if exc.filename else ""
        print(f"error: {exc.strerror or exc}{where}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0

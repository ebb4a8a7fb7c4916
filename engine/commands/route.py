"""`python -m engine route FILE|-`: route a wire payload and print the decision as JSON."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from engine.commands.registry import Command, register
from engine.core.errors import PayloadError


def _configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="payload JSON file, or - for standard input")
    parser.add_argument("--workspace", type=Path, help="folder that verifier file paths live in")


def _run(args: argparse.Namespace) -> int:
    from engine.core.router import route
    from engine.core.wire import dumps, parse_json

    if args.file == "-":
        text = sys.stdin.buffer.read()
    else:
        try:
            text = Path(args.file).read_bytes()
        except OSError as exc:
            raise PayloadError(f"cannot read {args.file}: {exc.strerror}") from None
    decision = route(parse_json(text), workspace=args.workspace)
    print(dumps(decision.to_dict()))
    return 0


register(
    "route", Command("Route a reasoning-DAG payload to answer / hedged / abstain", _configure, _run)
)

"""`python -m engine route FILE|-`: route a wire payload and print the decision as JSON.

`route --batch FILE.jsonl` routes one payload a line and prints one decision a line, in
input order, each with its `line`; a malformed line becomes an error record for that line.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from engine.commands.cluster_args import add_cluster_argument, add_out_argument
from engine.commands.command_registry import Command, register
from engine.core.errors import ConfigError, PayloadError


def _configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", nargs="?", help="payload JSON file, or - for standard input")
    parser.add_argument("--workspace", type=Path, help="folder that verifier file paths live in")
    parser.add_argument("--batch", type=Path, help="JSONL file of one payload a line")
    add_cluster_argument(parser)
    add_out_argument(parser)


def _run(args: argparse.Namespace) -> int:
    if (args.file is None) == (args.batch is None):
        raise ConfigError("give either a payload FILE (or -) or --batch FILE.jsonl")
    if args.batch is not None:
        from engine.commands.cluster_batch import route_batch

        return route_batch(args)
    if args.cluster is not None or args.out is not None:
        raise ConfigError("--cluster and --out run a batch: give --batch FILE.jsonl")
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

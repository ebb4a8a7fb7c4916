"""`python -m engine eval scifact`: ask every SciFact claim and report the figures."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from engine.api import open_workspace
from engine.commands.registry import Command, register
from engine.core.wire import dumps
from engine.datasets.evaluation import load_gold, run_claims, score


def _configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--workspace", required=True, type=Path, help="the SciFact workspace")
    parser.add_argument("--claims", required=True, type=Path, help="claims_train.jsonl (gold)")
    parser.add_argument("--reasoner", default="offline")
    parser.add_argument("--limit", type=int, default=None, help="only the first N claims")


def _run(args: argparse.Namespace) -> int:
    claims = load_gold(args.claims)[: args.limit]
    opened = open_workspace(args.workspace)
    total = len(claims)

    def progress(done: int) -> None:
        if done % 50 == 0 or done == total:
            print(f"\rasked {done}/{total}", end="", file=sys.stderr, flush=True)

    try:
        outcomes = run_claims(opened, claims, reasoner=args.reasoner, progress=progress)
    finally:
        opened.close()
    print(file=sys.stderr)
    print(dumps(score(outcomes)))
    return 0


register("eval scifact", Command("Evaluate navigation on SciFact claims", _configure, _run))

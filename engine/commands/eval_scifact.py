"""`python -m engine eval scifact`: ask every SciFact claim and report the figures."""

from __future__ import annotations

import argparse
from pathlib import Path

from engine.commands.cluster_args import add_cluster_argument
from engine.commands.progress import Progress
from engine.commands.registry import Command, register


def _configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--workspace", required=True, type=Path, help="the SciFact workspace")
    parser.add_argument("--claims", required=True, type=Path, help="claims_train.jsonl (gold)")
    parser.add_argument("--reasoner", default="offline")
    parser.add_argument("--limit", type=int, default=None, help="only the first N claims")
    add_cluster_argument(parser)


def _run(args: argparse.Namespace) -> int:
    from engine.api import open_workspace
    from engine.core.wire import dumps
    from engine.evaluation.scifact import load_gold, run_claims, score

    claims = load_gold(args.claims)[: args.limit]
    opened = open_workspace(args.workspace)
    line = Progress("asking claims")
    total = len(claims)
    try:
        if args.cluster is not None:
            from engine.commands.cluster_review import eval_on_cluster

            return eval_on_cluster(opened, claims, args, line)
        outcomes = run_claims(
            opened, claims, reasoner=args.reasoner, progress=lambda done: line(done, total)
        )
    finally:
        opened.close()
    print(dumps(score(outcomes)))
    return 0


register("eval scifact", Command("Evaluate navigation on SciFact claims", _configure, _run))

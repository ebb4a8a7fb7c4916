"""`python -m engine eval scifact`: ask every SciFact claim and report the figures.

With a sentence encoder the claims are asked twice, with meaning (hybrid retrieval and the
relevance gate) and on words alone, and both sets of figures print side by side, with
retrieval's nDCG@10 and recall@10 for BM25 alone and for the fusion.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from engine.commands.cluster_args import add_cluster_argument
from engine.commands.command_registry import Command, register
from engine.commands.progress import Progress


def _configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--workspace", required=True, type=Path, help="the SciFact workspace")
    parser.add_argument("--claims", required=True, type=Path, help="claims_train.jsonl (gold)")
    parser.add_argument("--reasoner", default="offline")
    parser.add_argument("--limit", type=int, default=None, help="only the first N claims")
    add_cluster_argument(parser)


def _run(args: argparse.Namespace) -> int:
    """Exit 1 when a claim was skipped on the cluster as poison (named on stderr)."""
    from engine.api import open_workspace
    from engine.core.wire import dumps
    from engine.evaluation.navigation_scores import load_gold, run_claims, score
    from engine.evaluation.retrieval_scores import retrieval_figures
    from engine.workspace.opened import words_alone

    claims = load_gold(args.claims)[: args.limit]
    opened = open_workspace(args.workspace)
    if opened.meaning_notice:
        print(f"notice: {opened.meaning_notice}", file=sys.stderr)
    total = len(claims)
    hybrid = opened.meaning.semantic is not None
    runs = ("hybrid", "lexical") if hybrid else ("lexical",)
    encoder = opened.meaning.semantic.encoder.name if opened.meaning.semantic else None
    out: dict[str, object] = {"encoder": encoder}
    skipped = 0
    try:
        for name in runs:
            line = Progress(f"asking claims ({name})")
            if args.cluster is not None:
                from engine.commands.cluster_review import score_on_cluster

                figures, missed = score_on_cluster(opened, claims, args, line, name == "lexical")
                out[name] = figures
                skipped += missed
                continue
            view = words_alone(opened) if name == "lexical" else opened
            outcomes = run_claims(
                view, claims, reasoner=args.reasoner, progress=_counted(line, total)
            )
            out[name] = score(outcomes)
        out["retrieval"] = retrieval_figures(opened, claims)
    finally:
        opened.close()
    print(dumps(out))
    return 1 if skipped else 0


def _counted(line: Progress, total: int) -> Callable[[int], None]:
    return lambda done: line(done, total)


register("eval scifact", Command("Evaluate navigation on SciFact claims", _configure, _run))

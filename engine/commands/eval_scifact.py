"""`python -m engine eval scifact`: ask every SciFact claim and report the figures.

With a sentence encoder the claims are asked with meaning (hybrid retrieval and the
relevance gate: `hybrid`) and on words alone (`lexical`), and, when the trained reader's
paraphrase bands apply to that encoder, a third time with the reader as a judge of
paraphrase (`reader`: hedged answers on sentences words alone leave). The figures print
side by side, with retrieval's nDCG@10 and recall@10 for BM25 alone and for the fusion.
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
    from engine.models.paraphraser import load_paraphraser
    from engine.workspace.opened import Reading, read_with

    claims = load_gold(args.claims)[: args.limit]
    opened = open_workspace(args.workspace)
    if opened.meaning_notice:
        print(f"notice: {opened.meaning_notice}", file=sys.stderr)
    total = len(claims)
    semantic = opened.meaning.semantic
    readings = [Reading.WORDS]
    if semantic is not None:
        readings.insert(0, Reading.MEANING)
        judge = load_paraphraser()
        if judge is not None and judge.applies_to(semantic.encoder.fingerprint):
            readings.insert(0, Reading.READER)
        else:
            print("notice: no reader band may answer here: no reader column", file=sys.stderr)
    out: dict[str, object] = {"encoder": semantic.encoder.name if semantic else None}
    skipped = 0
    try:
        for reading in readings:
            name = reading.value
            line = Progress(f"asking claims ({name})")
            if args.cluster is not None:
                from engine.commands.cluster_review import score_on_cluster

                figures, missed = score_on_cluster(opened, claims, args, line, reading)
                out[name] = figures
                skipped += missed
                continue
            outcomes = run_claims(
                read_with(opened, reading),
                claims,
                reasoner=args.reasoner,
                progress=_counted(line, total),
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

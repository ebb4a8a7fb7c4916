"""`python -m engine eval scifact`: ask every SciFact claim and report the figures.

With a sentence encoder the claims are asked twice, with meaning (hybrid retrieval and the
relevance gate) and on words alone, and both sets of figures print side by side, with
retrieval's nDCG@10 and recall@10 for BM25 alone and for the fusion.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

from engine.api import open_workspace
from engine.commands.progress import Progress
from engine.commands.registry import Command, register
from engine.core.wire import dumps
from engine.datasets.evaluation import load_gold, run_claims, score
from engine.datasets.retrieval_eval import retrieval_figures
from engine.workspace.semantic import Meaning


def _configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--workspace", required=True, type=Path, help="the SciFact workspace")
    parser.add_argument("--claims", required=True, type=Path, help="claims_train.jsonl (gold)")
    parser.add_argument("--reasoner", default="offline")
    parser.add_argument("--limit", type=int, default=None, help="only the first N claims")


def _run(args: argparse.Namespace) -> int:
    claims = load_gold(args.claims)[: args.limit]
    opened = open_workspace(args.workspace)
    if opened.meaning_notice:
        print(f"notice: {opened.meaning_notice}", file=sys.stderr)
    total = len(claims)
    runs = {"lexical": replace(opened, meaning=Meaning(None, "words alone"))}
    if opened.meaning.semantic is not None:
        runs = {"hybrid": opened, **runs}
    out: dict = {"encoder": opened.meaning.semantic.encoder.name if "hybrid" in runs else None}
    try:
        for name, view in runs.items():
            line = Progress(f"asking claims ({name})")
            outcomes = run_claims(
                view, claims, reasoner=args.reasoner, progress=lambda done, ln=line: ln(done, total)
            )
            out[name] = score(outcomes)
        out["retrieval"] = retrieval_figures(opened, claims)
    finally:
        opened.close()
    print(dumps(out))
    return 0


register("eval scifact", Command("Evaluate navigation on SciFact claims", _configure, _run))

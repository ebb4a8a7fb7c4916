"""`python -m engine eval questions`: SciFact claims asked as natural yes/no questions.

Each claim is rewritten into the question a researcher would type and asked with its gold
abstract in the workspace (recall, the yes/no reading per label, beside the same claims
asked in claim form) and again, fold by fold, in workspaces its gold abstracts were taken
out of, where any green ANSWER answers another question.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from engine.commands.command_registry import Command, register
from engine.commands.progress import Progress


def _configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--workspace", required=True, type=Path, help="the SciFact workspace")
    parser.add_argument("--corpus", required=True, type=Path, help="corpus.jsonl(.gz)")
    parser.add_argument("--claims", required=True, type=Path, help="claims_train.jsonl (gold)")
    parser.add_argument("--limit", type=int, default=None, help="only the first N claims")
    parser.add_argument("--folds", type=int, default=5, help="folds for the removed runs")
    parser.add_argument(
        "--skip-removed", action="store_true", help="only the runs with the evidence present"
    )
    parser.add_argument("--work", type=Path, default=None, help="where fold workspaces go")


def _run(args: argparse.Namespace) -> int:
    from engine.api import open_workspace
    from engine.core.wire import dumps
    from engine.evaluation.natural_questions import as_questions, present_figures, removed_run
    from engine.evaluation.navigation_scores import load_gold, run_claims, score
    from engine.workspace.opened import words_alone

    claims = load_gold(args.claims)[: args.limit]
    questions = as_questions(claims)
    out: dict[str, object] = {}
    opened = open_workspace(args.workspace)
    if opened.meaning_notice:
        print(f"notice: {opened.meaning_notice}", file=sys.stderr)
    hybrid = opened.meaning.semantic is not None
    try:
        for name in ("hybrid", "lexical") if hybrid else ("lexical",):
            view = words_alone(opened) if name == "lexical" else opened
            asked = run_claims(view, questions, progress=_counted(f"questions ({name})", questions))
            stated = run_claims(view, claims, progress=_counted(f"claims ({name})", claims))
            out[name] = {
                "questions": {**score(asked), **present_figures(asked)},
                "claims": {**score(stated), **present_figures(stated)},
            }
    finally:
        opened.close()
    if not args.skip_removed:
        line = Progress("asking with the evidence removed")
        total, greens = removed_run(
            args.corpus,
            args.claims,
            questions,
            folds=args.folds,
            work=args.work,
            progress=lambda done, of: line(done, of),
        )
        out["removed"] = {
            "questions": total,
            "off_question_greens": len(greens),
            "off_question_rate": round(len(greens) / total, 4) if total else None,
            "greens": [g.to_dict() for g in greens],
        }
    print(dumps(out))
    return 0


def _counted(what: str, items: Sequence[object]) -> Callable[[int], None]:
    line = Progress(f"asking {what}")
    return lambda done: line(done, len(items))


register(
    "eval questions",
    Command(
        "Evaluate natural yes/no questions on SciFact (evidence present and removed)",
        _configure,
        _run,
    ),
)

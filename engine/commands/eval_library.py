"""`python -m engine eval library --workspace W`: the held-out check on a library of your own.

Sentences of the library's passages, picked with a seed, are asked as they stand and again
mutated by the soundness families that apply to any sentence; it prints one JSON object:
how many stated sentences answered citing their paper, how many mutants answered green (each
one a false ANSWER: the exit status is then 1), and this process's open, first question and
p50 / p95. Nothing is written but the caches an open writes anyway.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from engine.commands.command_registry import Command, register
from engine.core.errors import ConfigError

MAX_SAMPLE = 2_000


def _configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--workspace", required=True, type=Path, help="the library's workspace")
    parser.add_argument("--sample", type=int, default=50, help="sentences to ask (default 50)")
    parser.add_argument("--seed", type=int, default=0)


def _run(args: argparse.Namespace) -> int:
    from engine.api import ask, open_workspace
    from engine.evaluation.library_check import check_library

    if not 1 <= args.sample <= MAX_SAMPLE:
        raise ConfigError(f"--sample must be between 1 and {MAX_SAMPLE:,}, got {args.sample}")
    started = time.perf_counter()
    opened = open_workspace(args.workspace)
    try:
        opened_s = time.perf_counter() - started
        if not opened.workspace.notes.passages:
            raise ConfigError(f"{args.workspace} holds no passages: add papers with `sources add`")
        found = check_library(opened, ask, sample=args.sample, seed=args.seed)
    finally:
        opened.close()
    report = {"open_s": round(opened_s, 3), **found.to_dict()}
    print(json.dumps(report, sort_keys=True))
    return 1 if report["false_answers"] else 0


register(
    "eval library",
    Command("Ask a library's own sentences, as they stand and mutated", _configure, _run),
)

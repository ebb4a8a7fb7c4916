"""`python -m engine eval soundness`: mutate SciFact train sentences and count grounded leaks.

Prints the table (family, mutants, leaks), the verbatim control answer rates and the quote
check figures on the train claims' rationale sentences. `--sample N` routes a seeded sample
of N sentences instead of all of them; `--pdf-sample N` sets how many sentences each PDF
family builds papers from; `--json` prints the figures as JSON.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from engine.commands.command_registry import Command, register
from engine.core.errors import ConfigError, EngineError


def _configure(parser: argparse.ArgumentParser) -> None:
    from engine.datasets import DATA

    parser.add_argument("--corpus", type=Path, default=DATA / "corpus.jsonl.gz")
    parser.add_argument("--claims", type=Path, default=DATA / "claims_train.jsonl")
    parser.add_argument("--sample", type=int, default=None, help="a seeded sample of N sentences")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--pdf-sample",
        type=int,
        default=12,
        metavar="N",
        help="sentences each PDF family builds papers from (0 leaves them out)",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")


def _run(args: argparse.Namespace) -> int:
    from engine.core.wire import dumps
    from engine.datasets.scifact_text import rationales, train_abstracts, train_sentences
    from engine.evaluation.soundness import by_abstract, evaluate, quote_figures

    if args.sample is not None and args.sample < 1:
        raise ConfigError(f"--sample must be at least 1, got {args.sample}")
    try:
        abstracts = train_abstracts(args.corpus, args.claims)
        everything = train_sentences(abstracts)
        quotes = rationales(abstracts, args.claims)
    except (ValueError, KeyError, TypeError) as exc:
        raise EngineError(f"SciFact data unreadable: {exc}") from None
    items = everything
    if args.sample is not None and args.sample < len(everything):
        items = random.Random(args.seed).sample(everything, args.sample)
    chosen = {item.doc_id for item in items}
    groups = [g for g in by_abstract(everything) if g[0].doc_id in chosen]
    print(f"routing mutants of {len(items):,} SciFact train sentences …", file=sys.stderr)
    report = evaluate(items, seed=args.seed, abstracts=groups, pdf_sample=args.pdf_sample)
    figures = quote_figures(quotes, seed=args.seed)
    if args.json:
        print(dumps({"soundness": report.to_dict(), "quote_check": figures.to_dict()}))
    else:
        print(report.table())
        print(figures.table())
    return 0


register(
    "eval soundness",
    Command("Count grounded answers to mutated SciFact train sentences", _configure, _run),
)

"""Held-out check of the full-text path: SciFact abstracts as PDFs, asked as a library.

`python -m tools.eval_library [--claims N] [--distractors N]` takes the first N SciFact
train claims, writes every abstract they cite (and N more, as distractors) as a PDF the
way papers look: a running header and footer on every page (the footer at the foot of
the page), the title alone on page 1, sentences spread over later pages, words broken at
line ends with a hyphen, page labels starting at 1 after a roman front page. The folder
goes through `sources add` (real text extraction) into a workspace of sources only, and
every claim is asked of it. Nothing is tuned on this: the offline reasoner's thresholds
are the shipped ones. The figures are the same as `eval scifact`'s (evidence recall,
citation precision, abstention on claims with no evidence), so the full-text path can be
read against the notes path.
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engine.api import open_workspace
from engine.datasets.scifact import read_jsonl
from engine.evaluation.navigation_scores import load_gold, run_claims, score
from engine.importers.sources import add_pdfs, collect_pdfs
from tests.builders.pdfgen import LINES_PER_PAGE, write_pdf

DATA = Path(__file__).resolve().parent.parent / "data" / "scifact"
HEADER = "Journal of Evidence Studies"
WIDTH = 84


def paper_pages(doc_id: str, title: str, sentences: Sequence[str]) -> list[list[str]]:
    """A paper's pages: a front page, then the sentences three to a page, as lines.

    The title is wrapped to the page's width and each footer set at the foot of its page,
    as a typeset paper has them.
    """
    header = f"{HEADER} {doc_id}"
    pages = [_page(header, [*textwrap.wrap(title, WIDTH), "Front matter"], "Page i")]
    for n, start in enumerate(range(0, len(sentences), 3), start=1):
        lines = hyphenated(textwrap.wrap(" ".join(sentences[start : start + 3]), WIDTH))
        pages.append(_page(header, lines, f"Page {n}"))
    return pages


def _page(header: str, lines: list[str], footer: str) -> list[str]:
    room = max(0, LINES_PER_PAGE - 2 - len(lines))
    return [header, *lines, *[""] * room, footer]


def hyphenated(lines: list[str]) -> list[str]:
    """Break the long lower-case word that opens a line across the line before it."""
    out = list(lines)
    for i in range(len(out) - 1):
        first, _, rest = out[i + 1].partition(" ")
        if len(first) >= 9 and first.isalpha() and first.islower():
            cut = len(first) // 2
            out[i] = f"{out[i]} {first[:cut]}-"
            out[i + 1] = f"{first[cut:]} {rest}".rstrip()
    return out


def build(folder: Path, docs: dict[str, dict[str, Any]]) -> None:
    for doc_id, doc in docs.items():
        write_pdf(
            folder / f"{doc_id}.pdf",
            paper_pages(doc_id, doc["title"], doc["sentences"]),
            labels=[(0, "r", 1), (1, "D", 1)],
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--claims", type=int, default=300, help="the first N train claims")
    parser.add_argument("--distractors", type=int, default=300, help="extra abstracts")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    gold = load_gold(DATA / "claims_train.jsonl")[: args.claims]
    raw = [json.loads(line) for line in (DATA / "claims_train.jsonl").read_text().splitlines()]
    cited = {str(d) for item in raw[: args.claims] for d in item.get("cited_doc_ids", [])}
    corpus = {str(doc["doc_id"]): doc for doc in read_jsonl(DATA / "corpus.jsonl.gz")}
    others = sorted(set(corpus) - cited)
    chosen = cited | set(random.Random(args.seed).sample(others, args.distractors))
    docs = {doc_id: corpus[doc_id] for doc_id in sorted(chosen) if doc_id in corpus}
    with tempfile.TemporaryDirectory(prefix="synapse-library-") as tmp:
        papers, workspace = Path(tmp) / "papers", Path(tmp) / "ws"
        build(papers, docs)
        report = add_pdfs(workspace, collect_pdfs([str(papers)]))
        opened = open_workspace(workspace)
        try:
            outcomes = run_claims(opened, gold)
        finally:
            opened.close()
        figures = score(outcomes)
    figures |= {
        "papers": len(docs),
        "pages": report.pages,
        "pdfs_failed": len(report.failures),
    }
    print(json.dumps(figures, indent=1, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Budgets: the worst cases the importers and questions are bounded against, timed.

- a "PDF bomb" (4,999 pages drawing one shared 1 MB content stream, under 1 MB on disk)
  in a folder with three good PDFs: refused by the content cap, the rest imported;
- a slow PDF under that cap (3,000 pages × 30 KB) with a 10 s time limit: killed at the
  budget, the rest imported;
- a folder of ten PDFs whose names are 240 characters long;
- the longest allowed question (2,000 characters of words no note holds, the costliest
  kind found) alone on the momentum-lab workspace; `bench_load` times it beside 19 other
  sessions.

The tests check what each run does; these rows only say how long it took here.
"""

from __future__ import annotations

import random
import shutil
import string
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.timing import row
from engine.api import MAX_QUESTION_CHARS, answer, open_workspace
from engine.importers.sources import AddOptions, add_pdfs
from tests.builders.pdfgen import shared_stream_pdf_bytes, write_pdf

ROOT = Path(__file__).resolve().parent.parent
LAB = ROOT / "examples" / "momentum-lab"
# Three pages that differ: the same line on every page is a running header, which the
# reader takes out, and a PDF of nothing else has no text.
GOOD = [
    ["Patients given the drug had fewer relapses than those given placebo."],
    ["Relapses fell by a third over two years of follow-up."],
    ["Adverse events were rare and mild in both groups."],
]
SLOW_LIMIT = 10.0


def longest_question(seed: int = 2) -> str:
    """A question at the length cap, of made-up words: each one costs a spelling search."""
    rng = random.Random(seed)
    words: list[str] = []
    while sum(len(w) + 1 for w in words) < MAX_QUESTION_CHARS:
        words.append("".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(4, 10))))
    return " ".join(words)[:MAX_QUESTION_CHARS]


def run() -> list[dict[str, Any]]:
    folder = Path(tempfile.mkdtemp(prefix="bench-budgets-"))
    try:
        return [*_pdf_rows(folder), *_question_rows(folder)]
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _folder(where: Path, first: str, data: bytes) -> list[Path]:
    where.mkdir(parents=True)
    (where / first).write_bytes(data)
    for n in range(3):
        write_pdf(where / f"good{n}.pdf", GOOD)
    return sorted(where.iterdir())


def _pdf_rows(folder: Path) -> list[dict[str, Any]]:
    bomb = _folder(folder / "bomb", "bomb.pdf", shared_stream_pdf_bytes(4999, stream_bytes=10**6))
    started = time.perf_counter()
    report = add_pdfs(folder / "ws1", bomb)
    bomb_seconds = time.perf_counter() - started
    assert [i.kind for i in report.items] == ["too-large", "", "", ""], report.items
    slow = _folder(folder / "slow", "slow.pdf", shared_stream_pdf_bytes(3000, stream_bytes=30_000))
    started = time.perf_counter()
    report = add_pdfs(folder / "ws2", slow, AddOptions(time_limit=SLOW_LIMIT))
    slow_seconds = time.perf_counter() - started
    assert [i.kind for i in report.items] == ["", "", "", "too-slow"], report.items
    names = folder / "long-names"
    for n in range(10):
        write_pdf(names / (f"{n}-" + "l" * 234 + ".pdf"), GOOD)
    started = time.perf_counter()
    report = add_pdfs(folder / "ws3", sorted(names.iterdir()))
    long_seconds = time.perf_counter() - started
    assert not report.failures and len(report.items) == 10
    return [
        row(
            "sources add: a 4,999-page PDF bomb + 3 PDFs",
            bomb_seconds,
            "s",
            target="< 30 s",
            meets=bomb_seconds < 30,
        ),
        row(
            f"sources add: a slow PDF at a {SLOW_LIMIT:g} s limit + 3 PDFs",
            slow_seconds,
            "s",
            target=f"< {SLOW_LIMIT + 20:g} s",
            meets=slow_seconds < SLOW_LIMIT + 20,
        ),
        row("sources add: 10 PDFs with 240-character names", long_seconds, "s"),
    ]


def _question_rows(folder: Path) -> list[dict[str, Any]]:
    lab = folder / "lab"
    shutil.copytree(LAB, lab, ignore=shutil.ignore_patterns(".synapse"))
    opened = open_workspace(lab)
    try:
        question = longest_question()
        answer(opened, "Does the momentum signal skip the most recent month?")  # warm up
        started = time.perf_counter()
        answer(opened, question)
        seconds = time.perf_counter() - started
    finally:
        opened.close()
    return [row(f"ask: the longest allowed question ({MAX_QUESTION_CHARS:,} chars)", seconds, "s")]

"""Importers: PDFs into source texts (pages/s, a 300-page book) and a 2,000-item Zotero library.

The PDFs are generated here from SciFact abstracts (tests/builders/pdfgen: dense pages of about
50 lines), so every figure is reproducible without any file from outside the repo.
"""

from __future__ import annotations

import gzip
import json
import random
import shutil
import tempfile
import textwrap
import time
from pathlib import Path
from typing import Any

from bench.timing import row
from engine.importers.sources import add_pdfs
from engine.importers.zotero import import_zotero
from tests.builders.pdfgen import LINES_PER_PAGE, write_pdf
from tests.builders.zotero_library import Mark, Paper, build_library

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "data" / "scifact" / "corpus.jsonl.gz"
PDFS = 100
ZOTERO_ITEMS = 2000


def _sentences() -> list[str]:
    out: list[str] = []
    with gzip.open(CORPUS, "rt", encoding="utf-8") as lines:
        for n, line in enumerate(lines):
            if n >= 1500:
                break
            out.extend(" ".join(s.split()) for s in json.loads(line)["sentences"])
    return out


def _pages(sentences: list[str], count: int, rng: random.Random) -> list[list[str]]:
    """`count` full pages of abstract text, starting at a random sentence."""
    lines: list[str] = []
    n = rng.randrange(len(sentences))
    while len(lines) < count * LINES_PER_PAGE:
        lines.extend(textwrap.wrap(sentences[n % len(sentences)], width=88))
        n += 1
    return [lines[i * LINES_PER_PAGE : (i + 1) * LINES_PER_PAGE] for i in range(count)]


def run() -> list[dict[str, Any]]:
    rng = random.Random(14)
    sentences = _sentences()
    folder = Path(tempfile.mkdtemp(prefix="bench-importers-"))
    try:
        return _pdf_rows(folder, sentences, rng) + _zotero_rows(folder, sentences, rng)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _pdf_rows(folder: Path, sentences: list[str], rng: random.Random) -> list[dict[str, Any]]:
    papers = folder / "papers"
    counts = [rng.randint(10, 30) for _ in range(PDFS)]
    for n, count in enumerate(counts):
        write_pdf(papers / f"paper{n:03d}.pdf", _pages(sentences, count, rng))
    started = time.perf_counter()
    report = add_pdfs(folder / "ws", sorted(papers.iterdir()))
    seconds = time.perf_counter() - started
    assert not report.failures and report.pages == sum(counts)
    again = time.perf_counter()
    add_pdfs(folder / "ws", sorted(papers.iterdir()))
    rerun = time.perf_counter() - again
    book = write_pdf(folder / "book.pdf", _pages(sentences, 300, rng))
    started = time.perf_counter()
    report = add_pdfs(folder / "book-ws", [book])
    book_seconds = time.perf_counter() - started
    assert report.pages == 300
    return [
        row(f"sources add: {PDFS} PDFs, {sum(counts):,} pages", sum(counts) / seconds, "pages/s"),
        row(f"sources add: {PDFS} PDFs, total", seconds, "s"),
        row(f"sources add: {PDFS} PDFs again, unchanged", rerun, "s"),
        row(
            "sources add: a 300-page book",
            book_seconds,
            "s",
            target="< 30 s",
            meets=book_seconds < 30,
        ),
    ]


def _zotero_rows(folder: Path, sentences: list[str], rng: random.Random) -> list[dict[str, Any]]:
    papers = []
    for n in range(ZOTERO_ITEMS):
        pages = _pages(sentences, 2, rng) if n % 10 else None
        marks = [Mark(pages[1][3], 1), Mark(pages[0][10], 0, color="#ff6666")] if pages else []
        papers.append(
            Paper(
                key=f"K{n:07d}",
                title=sentences[(n * 7) % len(sentences)][:90],
                authors=[(f"Author{n % 611}", "A"), (f"Second{n % 97}", "B")],
                date=str(1990 + n % 35),
                abstract=sentences[(n * 11) % len(sentences)],
                pages=pages,
                marks=marks,
                bbt_key=f"key{n}" if n % 3 == 0 else None,
                added=f"2024-01-01 00:{n // 60 % 60:02d}:{n % 60:02d}",
            )
        )
    library = build_library(folder / "Zotero", papers)
    started = time.perf_counter()
    first = import_zotero(library, folder / "zotero-ws")
    seconds = time.perf_counter() - started
    started = time.perf_counter()
    second = import_zotero(library, folder / "zotero-ws")
    rerun = time.perf_counter() - started
    assert first.items == ZOTERO_ITEMS and second.notes_written == 0
    return [
        row(
            f"import zotero: {ZOTERO_ITEMS:,} items, {first.pdfs.get('added', 0):,} PDFs",
            seconds,
            "s",
            target="< 60 s",
            meets=seconds < 60,
        ),
        row("import zotero: re-run, nothing changed", rerun, "s", target="< 5 s", meets=rerun < 5),
    ]

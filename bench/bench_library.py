"""A library at scale: 2,000 papers of 20 dense pages added, split into passages, indexed, asked.

The PDFs are generated from SciFact abstracts (tools/pdfgen: about 50 lines a page, a
running header and footer). Rows: `sources add` over the whole folder, the first open
(sentence splitting of every source, passages indexed), a reopen in a new process and its
first question (caches kept), and the latency of questions asked of the opened workspace;
the Library page on it: its papers read in a new process, its first render through AppTest
and a re-render (`bench_library_page` has the same rows on 2,000 papers built in minutes).
`SYNAPSE_BENCH_PAPERS` lowers the paper count for a quick run.
"""

from __future__ import annotations

import os
import random
import resource
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.bench_importers import _pages, _sentences
from bench.bench_library_page import cold_read, page_render
from bench.reopen import reopen_rows, reopen_twice
from bench.timing import row
from engine.api import ask, open_workspace
from engine.importers.sources import add_pdfs, collect_pdfs
from tests.builders.pdfgen import write_pdf

PAPERS = int(os.environ.get("SYNAPSE_BENCH_PAPERS", "2000"))
PAGES = 20
QUESTIONS = 60


def run() -> list[dict[str, Any]]:
    rng = random.Random(23)
    sentences = _sentences()
    folder = Path(tempfile.mkdtemp(prefix="bench-library-"))
    try:
        return _rows(folder, sentences, rng)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _rows(folder: Path, sentences: list[str], rng: random.Random) -> list[dict[str, Any]]:
    papers, workspace = folder / "papers", folder / "ws"
    for n in range(PAPERS):
        pages = _pages(sentences, PAGES, rng)
        framed = [
            [f"Journal of Benchmarks {n}", *page, f"Page {i}"] for i, page in enumerate(pages, 1)
        ]
        write_pdf(papers / f"paper{n:05d}.pdf", framed)
    started = time.perf_counter()
    report = add_pdfs(workspace, collect_pdfs([str(papers)]))
    added = time.perf_counter() - started
    started = time.perf_counter()
    opened = open_workspace(workspace)
    first_open = time.perf_counter() - started
    passages = list(opened.workspace.notes.passages.values())
    questions = [rng.choice(n.quotes).body for n in rng.sample(passages, QUESTIONS)]
    latencies = []
    for question in questions:
        began = time.perf_counter()
        ask(opened, question)
        latencies.append((time.perf_counter() - began) * 1000)
    opened.close()
    reopened = reopen_twice(workspace)
    shelf_s = cold_read(workspace)
    first_ms, page_ms = page_render(workspace)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    label = f"{PAPERS:,} papers × {PAGES} pages"
    return [
        row(
            f"library: Library page's papers read, new process ({PAPERS:,} papers)",
            shelf_s,
            "s",
            target="< 2 s",
            meets=shelf_s < 2,
        ),
        row(
            f"library: Library page first render, papers unread ({PAPERS:,} papers, AppTest)",
            first_ms,
            "ms",
            target="< 2000 ms",
            meets=first_ms < 2000,
        ),
        row(
            f"library: Library page re-render p50 ({PAPERS:,} papers, AppTest)",
            page_ms,
            "ms",
            target="< 2000 ms",
            meets=page_ms < 2000,
        ),
        row(f"library: sources add, {label}", added, "s", target="minutes"),
        row("library: pages read per second", report.pages / added, "pages/s"),
        row(f"library: first open ({len(passages):,} passages split, indexed)", first_open, "s"),
        row(
            "library: ask p50 (a sentence of a random passage)",
            statistics.median(latencies),
            "ms",
            target="< 300 ms",
            meets=statistics.median(latencies) < 300,
        ),
        row("library: ask p95", sorted(latencies)[int(0.95 * len(latencies)) - 1], "ms"),
        row("library: peak RSS of the bench process", rss, "MB"),
        *reopen_rows("library", label, reopened),
    ]

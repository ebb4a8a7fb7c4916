"""A library at scale: 2,000 papers of 20 dense pages added, split into passages, indexed, asked.

The PDFs are generated from SciFact abstracts (tools/pdfgen: about 50 lines a page, a
running header and footer). Rows: `sources add` over the whole folder, the first open
(sentence splitting of every source, passages indexed), a reopen (offsets from the cache),
and the latency of questions asked of the opened workspace, beside the note-only demo's;
the Library page on it: its papers read cold, and its render through AppTest.
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

from streamlit.testing.v1 import AppTest

from bench.bench_importers import _pages, _sentences
from bench.timing import median, row, sample_ms
from engine import holdings, read_library
from engine.api import ask, open_workspace
from engine.importers.sources import add_pdfs, collect_pdfs
from engine.workspace.passages import PASSAGE_BOX
from present.library import papers_frame
from tests.builders.pdfgen import write_pdf

ROOT = Path(__file__).resolve().parent.parent

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


def _library_page(workspace: Path) -> tuple[float, float]:
    """Seconds to read the papers, holdings and table of a freshly opened workspace, and the
    median time the Library page takes to render through AppTest once it is open."""
    opened = open_workspace(workspace)
    started = time.perf_counter()
    papers = read_library(opened.workspace)
    holdings(opened.workspace, papers)
    papers_frame(papers)
    cold = time.perf_counter() - started
    opened.close()
    os.environ["SYNAPSE_WORKSPACE"] = str(workspace)
    os.environ["SYNAPSE_OPEN_WAIT"] = "600"  # time the page, not the first load
    cwd = Path.cwd()
    os.chdir(ROOT)
    try:
        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=600).run()
        at.switch_page("pages/library.py").run()
        assert not at.exception, at.exception
        times = sample_ms(lambda: at.switch_page("pages/library.py").run(), repeat=5)
    finally:
        os.chdir(cwd)
    return cold, median(times)


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
    passages = [n for n in opened.workspace.notes.values() if n.source == PASSAGE_BOX]
    questions = [rng.choice(n.quotes).body for n in rng.sample(passages, QUESTIONS)]
    latencies = []
    for question in questions:
        began = time.perf_counter()
        ask(opened, question)
        latencies.append((time.perf_counter() - began) * 1000)
    opened.close()
    started = time.perf_counter()
    open_workspace(workspace).close()
    reopen = time.perf_counter() - started
    shelf_s, page_ms = _library_page(workspace)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    label = f"{PAPERS:,} papers × {PAGES} pages"
    return [
        row(
            f"library: Library page's papers read cold ({PAPERS:,} papers)",
            shelf_s,
            "s",
            target="< 2 s",
            meets=shelf_s < 2,
        ),
        row(
            f"library: Library page render p50 ({PAPERS:,} papers, AppTest)",
            page_ms,
            "ms",
            target="< 2000 ms",
            meets=page_ms < 2000,
        ),
        row(f"library: sources add, {label}", added, "s", target="minutes"),
        row("library: pages read per second", report.pages / added, "pages/s"),
        row(f"library: first open ({len(passages):,} passages split, indexed)", first_open, "s"),
        row("library: reopen (offsets cached)", reopen, "s"),
        row(
            "library: ask p50 (a sentence of a random passage)",
            statistics.median(latencies),
            "ms",
            target="< 300 ms",
            meets=statistics.median(latencies) < 300,
        ),
        row("library: ask p95", sorted(latencies)[int(0.95 * len(latencies)) - 1], "ms"),
        row("library: peak RSS of the bench process", rss, "MB"),
    ]

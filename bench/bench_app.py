"""Page render time on the SciFact demo after a question is cached, timed through AppTest."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

from streamlit.testing.v1 import AppTest

from bench.first_hour import browser_rows, make_run_to_healthy
from bench.timing import median, percentile, row, sample_ms
from engine.datasets.scifact import import_scifact

ROOT = Path(__file__).resolve().parent.parent
PAGES = (
    "pages/home.py",
    "pages/navigate.py",
    "pages/reasoning_dag.py",
    "pages/traceability.py",
    "pages/claim_matrix.py",
    "pages/audit.py",
)
REPEAT = 5


def _switch(at: AppTest, page: str) -> AppTest:
    """Switch the app to `page` and run it."""
    return at.switch_page(page).run()


def run() -> Iterator[dict[str, Any]]:
    yield from first_hour()
    yield from rendered_pages()


def first_hour() -> Iterator[dict[str, Any]]:
    """`make run` from nothing to healthy, then again; the browser timings on that demo."""
    with tempfile.TemporaryDirectory() as tmp:
        demo = Path(tmp) / "scifact"
        built = make_run_to_healthy(demo, Path(tmp) / "first.log")
        yield row("make run, demo absent → healthy (venv present)", built, "s")
        again = make_run_to_healthy(demo, Path(tmp) / "second.log")
        yield row("make run again → healthy", again, "s", target="< 10 s", meets=again < 10)
        yield from browser_rows(demo, Path(tmp) / "browser.log")


def rendered_pages() -> Iterator[dict[str, Any]]:
    with tempfile.TemporaryDirectory() as tmp:
        workspace = Path(tmp) / "scifact"
        data = ROOT / "data" / "scifact"
        import_scifact(data / "corpus.jsonl.gz", data / "claims_train.jsonl", workspace)
        question = json.loads((data / "claims_train.jsonl").open().readline())["claim"]
        os.environ["SYNAPSE_WORKSPACE"] = str(workspace)
        os.environ["SYNAPSE_OPEN_WAIT"] = "300"  # time the pages, not the first load
        cwd = Path.cwd()
        os.chdir(ROOT)
        try:
            at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300).run()
            at.switch_page("pages/navigate.py").run()
            at.text_area(key="question").input(question)
            at.button(key="ask").click().run()  # the first ask opens the workspace and caches
            assert not at.exception, at.exception
            for page in PAGES:
                times = sample_ms(partial(_switch, at, page), repeat=REPEAT)
                assert not at.exception, (page, at.exception)
                name = page.removeprefix("pages/").removesuffix(".py")
                p50 = median(times)
                yield row(
                    f"render {name} (cached answer), p50",
                    p50,
                    "ms",
                    target="< 1000 ms",
                    meets=p50 < 1000,
                )
                yield row(f"render {name} (cached answer), max", percentile(times, 100), "ms")
        finally:
            os.chdir(cwd)

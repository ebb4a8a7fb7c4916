"""Hostile note text in a real browser: nothing runs, nothing leaves the machine."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from playwright.sync_api import Dialog, Page, expect

from engine.review.overlay import Overlay, OverlayEdge, save_overlay
from engine.review.relations import Relation
from tests.browser_support import (
    app_in_chromium,
    ask_question,
    graph_frame,
    is_local,
    wait_idle,
)

pytestmark = pytest.mark.browser

# Each payload would set a flag, open a dialog or fetch an outside address if it ran.
IMG = "<img src=x onerror=\"window.__xss=1;alert(1);fetch('http://203.0.113.9/img')\">"
SCRIPT = "<script>window.__xss=2;fetch('http://203.0.113.9/script')</script>"
QUESTION = "Do hostile momentum notes sneak scripts into reviews?"


HOSTILE = f"Hostile momentum notes sneak scripts into reviews {SCRIPT} and {IMG}."


def write_hostile_notes(root: Path) -> None:
    # The hostile sentence is a quote found in its source, so the answer restates it and
    # every page shows it (as text).
    (root / "sources" / "xss.txt").write_text(f"Intro. {HOSTILE} Outro.", encoding="utf-8")
    notes = {
        ".zettelkasten/finance/z-xss-01.md": (
            {
                "id": "z-xss-01",
                "type": "finding",
                "title": f"{IMG} Hostile momentum notes",
                "source": "xss",
                "quotes": [{"id": "q1", "body": HOSTILE, "page": 1}],
            },
            HOSTILE,
        ),
        ".memory/exp-xss.md": (
            {"id": "exp-xss", "type": "experiment", "title": f"{IMG} practice"},
            f"Hostile momentum notes never sneak scripts into reviews {SCRIPT}.",
        ),
    }
    for relative, (meta, body) in notes.items():
        text = f"---\n{yaml.safe_dump(meta)}---\n{body}\n"
        (root / relative).write_text(text, encoding="utf-8")
    edge = OverlayEdge(
        practice_id="exp-xss",
        canon_source="finance",
        canon_id="z-xss-01",
        relation=Relation.CONTRADICTS,
        confidence=0.9,
        claim_strength=None,
        priority=0.675,
        rationale=f"Rationale quoting {IMG}",
        evidence=f"Evidence {SCRIPT}",
    )
    save_overlay(root, Overlay("2026-01-01T00:00:00+00:00", "fixture", {}, {}, 0.0, (edge,)))


def visit(page: Page, name: str) -> None:
    page.get_by_test_id("stSidebarNav").get_by_role("link", name=name).click()
    expect(page.get_by_role("heading", name=name, level=1)).to_be_visible(timeout=30_000)
    wait_idle(page)


def flags(page: Page) -> list[Any]:
    """The `__xss` flag in the page and in every frame (graphs live in iframes)."""
    return [
        frame.evaluate("() => window.__xss === undefined ? null : window.__xss")
        for frame in page.frames
    ]


def test_hostile_titles_and_bodies_never_run(lab_path: Path, tmp_path: Path) -> None:
    write_hostile_notes(lab_path)
    requests: list[str] = []
    dialogs: list[str] = []
    with app_in_chromium(lab_path, tmp_path / "app.log") as (url, page):
        page.on("request", lambda request: requests.append(request.url))

        def dismiss(dialog: Dialog) -> None:
            dialogs.append(dialog.message)
            dialog.dismiss()

        page.on("dialog", dismiss)
        page.goto(f"{url}/ask")
        wait_idle(page)
        ask_question(page, QUESTION)
        expect(graph_frame(page).locator("canvas")).to_be_visible(timeout=30_000)
        seen = [flags(page)]
        for name in ("Reasoning DAG", "Traceability", "Claim matrix"):
            visit(page, name)
            seen.append(flags(page))
            if name == "Traceability":
                # The script is shown as literal text in the highlighted prose.
                literal = page.get_by_text("window.__xss=2", exact=False).first
                expect(literal).to_be_visible()
    assert all(flag is None for frame_flags in seen for flag in frame_flags), seen
    assert not dialogs, dialogs
    offsite = sorted({u for u in requests if not is_local(u)})
    assert not offsite, f"requests left the machine: {offsite}"

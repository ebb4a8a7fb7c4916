"""A reviewer in a real browser: the answer discloses an unreviewed contradiction, the
link, a heatmap click and a queue row all select the edge that triage then records, and
the answer on screen is re-routed after the decision."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser_support import (
    app_in_chromium,
    ask_question,
    open_page,
    plot_point,
    save_review_overlay,
    shot,
    wait_idle,
)

pytestmark = pytest.mark.browser

QUESTION = (
    "Does buying past winners and selling past losers generate abnormal returns over 3 to 12 "
    "month holding periods?"
)
MOM = "Past winners keep beating past losers for up to a year"  # z-mom-01, by its title


def selected_heading(page: Page) -> Locator:
    return page.get_by_test_id("stMarkdown").filter(has_text=re.compile(r"— contradicts —"))


def log_lines(root: Path) -> list[dict[str, Any]]:
    text = (root / ".synapse" / "triage.jsonl").read_text()
    return [json.loads(line) for line in text.splitlines()]


def test_triage_records_the_pair_the_reviewer_clicked(lab_path: Path, tmp_path: Path) -> None:
    save_review_overlay(lab_path)
    with app_in_chromium(lab_path, tmp_path / "streamlit.log") as (url, page):
        page.goto(f"{url}/ask")
        wait_idle(page)

        # The answer cites z-mom-01, which an unreviewed contradiction touches: disclosed,
        # not contesting, with a link to that edge.
        ask_question(page, QUESTION, "ANSWER")
        disclosure = page.locator(".contest-disclosure")
        expect(disclosure).to_contain_text(
            "1 unreviewed contradiction against a cited source — review it"
        )
        expect(disclosure).to_contain_text("2009 backtest of the momentum book")
        wait_idle(page)
        shot(page, "navigate-disclosure", tall=True)
        page.get_by_role("link", name=re.compile("Review in the claim matrix")).click()
        expect(page.get_by_role("heading", name="Claim matrix", level=1)).to_be_visible(
            timeout=30_000
        )
        wait_idle(page)
        expect(selected_heading(page)).to_contain_text(MOM)

        # A heatmap click selects that cell; the confirm and its note land on it.
        page.get_by_text("Heatmap", exact=True).click()
        wait_idle(page)
        expect(page.get_by_text(re.compile(r"Rows: showing 1–2 of 2 practice"))).to_be_visible()
        x, y = plot_point(page, "zk:finance:z-crash-05", "chk-2024-q1")
        page.mouse.click(x, y)
        # The click's rerun may start after wait_idle returned; a loaded machine takes longer.
        expect(selected_heading(page)).to_contain_text("When momentum crashes", timeout=30_000)
        # The heading shows the click's run has started; the note field is drawn later in
        # that run, and typing into the previous selection's field would be lost.
        wait_idle(page)
        note = page.get_by_label("Note")
        # During a rerun the previous selection's field can linger until it is replaced.
        expect(note).to_have_count(1, timeout=30_000)
        note.fill("Crash note checked against the Q1 review.")
        note.press("Enter")
        wait_idle(page)
        page.get_by_role("button", name="The literature claim is contested").click()
        wait_idle(page)
        log = page.locator("table.plain-table")
        expect(log).to_contain_text("Q1 2024 review", timeout=30_000)
        expect(log).to_contain_text("Crash note checked against the Q1 review.")
        lines = log_lines(lab_path)
        assert [(e["edge"], e["decision"], e["note"]) for e in lines] == [
            (
                {"memory_id": "chk-2024-q1", "zk_source": "finance", "zk_id": "z-crash-05"},
                "confirmed",
                "Crash note checked against the Q1 review.",
            )
        ]
        expect(
            page.get_by_text(
                re.compile("Recorded — The literature claim is contested: “Q1 2024 review”")
            )
        ).to_be_visible()
        shot(page, "claim-matrix-heatmap", tall=True)

        # A queue row selects the same way; confirm the pair the answer cites.
        page.get_by_text("Queue", exact=True).click()
        wait_idle(page)
        expect(page.get_by_text(re.compile(r"Edge queue: showing 1–4 of 4 edges"))).to_be_visible()
        grid = page.get_by_test_id("stDataFrame").first
        grid.scroll_into_view_if_needed()
        box = grid.bounding_box()
        assert box is not None
        # Rows are in "pending first" order: z-sig-03 (0.9), z-mom-01 (0.8), then the rest.
        page.mouse.click(box["x"] + 18, box["y"] + 35 + 35 * 1 + 17)
        wait_idle(page)
        # The click's rerun may start after wait_idle returned; a loaded machine takes longer.
        expect(selected_heading(page)).to_contain_text(MOM, timeout=30_000)
        page.get_by_role("button", name="The literature claim is contested").click()
        expect(log).to_contain_text(MOM, timeout=30_000)
        wait_idle(page)
        assert [e["edge"]["zk_id"] for e in log_lines(lab_path)] == ["z-crash-05", "z-mom-01"]
        shot(page, "claim-matrix-queue", tall=True)
        page.set_viewport_size({"width": 800, "height": 1400})
        wait_idle(page)
        shot(page, "claim-matrix-queue-800", tall=True)
        page.get_by_text("Heatmap", exact=True).click()
        wait_idle(page)
        page.wait_for_selector(".js-plotly-plot .xtick", state="attached", timeout=30_000)
        # Switching views keeps the selection (and its confirmed state).
        expect(selected_heading(page)).to_contain_text(MOM)
        expect(page.get_by_text("This pair: The literature claim is contested.")).to_be_visible()
        shot(page, "claim-matrix-heatmap-800", tall=True)
        page.set_viewport_size({"width": 1400, "height": 1600})
        wait_idle(page)

        # Back on Navigate, the answer on screen is re-routed: the node is now contested.
        open_page(page, "Navigate")
        banner = page.get_by_test_id("stAlert").filter(has_text="ABSTAIN")
        expect(banner).to_contain_text("contradicts (confirmed by a reviewer)", timeout=30_000)
        expect(page.get_by_text("Re-routed after a triage decision")).to_be_visible()
        expect(page.locator(".contest-disclosure")).to_contain_text("confirmed by a reviewer")
        shot(page, "navigate-rerouted", tall=True)

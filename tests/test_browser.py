"""The app in a real browser: ask, replay, read the DAG and the prose, triage a contradiction."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from present.graph_page import LIBRARY_SCRIPT, SERVED_LIBRARY
from tests.browser_support import (
    app_in_chromium,
    ask_question,
    graph_frame,
    is_local,
    open_page,
    save_contradiction_overlay,
    shot,
    wait_idle,
)

pytestmark = pytest.mark.browser

QUESTION = "Do momentum crashes occur after market rebounds?"


def test_a_review_session_in_chromium_stays_on_this_machine(lab_path: Path, tmp_path: Path) -> None:
    save_contradiction_overlay(lab_path)
    requests: list[str] = []
    log = tmp_path / "streamlit.log"
    with app_in_chromium(lab_path, log, height=1800) as (url, page):
        page.on("request", lambda request: requests.append(request.url))
        page.goto(f"{url}/ask")  # a deep link as the server's very first visit
        wait_idle(page)
        expect(page.get_by_role("heading", name="Navigate", level=1)).to_be_visible()
        expect(page.get_by_text("Page not found")).to_have_count(0)

        # Navigate: ask, see the verdict, step back through the trace, see the graph.
        banner = ask_question(page, QUESTION, "ABSTAIN")
        expect(banner).to_contain_text("refuted source")
        assert "q=" in page.url
        slider = page.get_by_test_id("stSlider").get_by_role("slider")
        slider.focus()
        slider.press("Home")
        expect(page.get_by_text(re.compile(r"^step 0: retrieve"))).to_be_visible()
        wait_idle(page)
        graph = graph_frame(page)
        expect(graph.locator("#mynetwork canvas")).to_be_visible(timeout=30_000)
        # The graph frame drew with the library the app serves once, not one inlined in it.
        served = f"{url}/{SERVED_LIBRARY}{LIBRARY_SCRIPT}"
        assert served in requests
        frame = next(f for f in page.frames if "mynetwork" in f.content())
        # About 105 kB with the label-placing script; the library inlined would be ~700 kB.
        assert len(frame.content()) < 200_000
        shot(page, "navigate")

        # The DAG and the traceability of the same answer.
        open_page(page, "Reasoning DAG")
        expect(page.get_by_text("Why it abstained")).to_be_visible()
        expect(graph_frame(page).locator("canvas")).to_be_visible()
        shot(page, "reasoning-dag")
        open_page(page, "Traceability")
        orphan = page.locator("span.trace-orphan").first
        expect(orphan).to_have_attribute("title", re.compile("orphan sentence"))
        shot(page, "traceability")

        # Triage: confirm the contradiction; the log gains a line.
        open_page(page, "Claim matrix")
        expect(
            page.get_by_text(
                "1 of 1 contradictions and possible tensions not yet reviewed", exact=False
            )
        ).to_be_visible()
        note = page.get_by_label("Note")
        # During a rerun the previous selection's field can linger until it is replaced.
        expect(note).to_have_count(1, timeout=30_000)
        note.fill("Checked against the 2009 run.")
        note.press("Enter")
        wait_idle(page)
        page.get_by_role("button", name="The literature claim is contested").click()
        table = page.locator("table.plain-table")
        expect(table).to_contain_text("The literature claim is contested", timeout=30_000)
        expect(table).to_contain_text("Checked against the 2009 run.")
        wait_idle(page)
        lines = (lab_path / ".synapse" / "triage.jsonl").read_text().splitlines()
        assert len(lines) == 1 and '"confirmed"' in lines[0]
        shot(page, "claim-matrix")

        open_page(page, "Audit")
        shot(page, "audit")
    assert requests, "the browser made no request at all"
    offsite = sorted({u for u in requests if not is_local(u)})
    assert not offsite, f"requests left the machine: {offsite}"

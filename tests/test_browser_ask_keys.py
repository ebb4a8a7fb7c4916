"""Asking in a real browser: one key hint under the question box, `[1]` opens its source,
and the budget settings say what they bound."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser_support import (
    ARTIFACTS,
    app_in_chromium,
    looks,
    press_in_question,
    question_box,
    wait_idle,
)

pytestmark = pytest.mark.browser

SHOTS = ARTIFACTS / "triage"
QUESTION = (
    "Does buying past winners and selling past losers generate abnormal returns over 3 to 12 "
    "month holding periods?"
)


def test_one_hint_a_clickable_citation_and_budget_help(lab_path: Path, tmp_path: Path) -> None:
    with app_in_chromium(lab_path, tmp_path / "streamlit.log") as (url, page):
        page.goto(f"{url}/ask")
        wait_idle(page)
        question_box(page).fill(QUESTION)
        # The only hint under the box is the app's: Streamlit's "Ctrl+Enter" is not shown.
        hint = page.locator(".st-key-question [data-testid='InputInstructions'] > span").first
        expect(hint).to_have_text("Press Ctrl+Enter to submit form")  # in the DOM, unseen
        said = hint.evaluate("e => getComputedStyle(e, '::after').content")
        assert said == '"Enter asks, Shift+Enter: new line"'
        assert hint.evaluate("e => getComputedStyle(e).fontSize") == "0px"
        expect(page.get_by_text("Ctrl+Enter", exact=False)).not_to_be_visible()
        press_in_question(page)
        expect(page.get_by_test_id("stAlert").filter(has_text="ANSWER")).to_be_visible(
            timeout=60_000
        )
        wait_idle(page)

        # [1] opens the cited source, scrolled into view, with its quoted words marked.
        marker = page.locator("a.cite-mark").first
        expect(marker).to_have_text("[1]")
        marker.click()
        opened = page.locator(".st-key-ask_evidence")
        expect(opened).to_be_visible(timeout=30_000)
        expect(opened).to_contain_text("Buying past winners and selling past losers")
        expect(opened).to_be_in_viewport(timeout=10_000)
        wait_idle(page)
        # A second click keeps it open (it never toggles the source closed).
        marker.click()
        page.wait_for_timeout(500)
        wait_idle(page)
        expect(opened).to_be_visible()
        looks(page, "navigate-source-open", folder=SHOTS)

        # Every budget setting says what it bounds.
        page.set_viewport_size({"width": 1400, "height": 1000})
        wait_idle(page)
        sidebar = page.get_by_test_id("stSidebar")
        sidebar.get_by_text("Budget", exact=True).click()
        for label, words in (
            ("Hops", "How many links the walk may follow"),
            ("Max nodes", "The most notes the walk may gather"),
            ("Max steps", "The most moves"),
        ):
            field = sidebar.get_by_test_id("stNumberInput").filter(has_text=label)
            field.get_by_test_id("stTooltipHoverTarget").first.hover()
            expect(page.get_by_test_id("stTooltipContent")).to_contain_text(words)
            page.mouse.move(700, 500)
            page.wait_for_timeout(300)

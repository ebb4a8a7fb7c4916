"""A reviewer decides which side of a contradiction is wrong, reading both sides.

The detail pane shows the practice note's text and the canon sentence side by side with the
cue marked; "Our practice note is wrong" keeps the decided pair selected, flags the note and
leaves the canon claim grounded on Navigate; "Next" moves on to the next open pair.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser_support import (
    ARTIFACTS,
    app_in_chromium,
    ask_question,
    looks,
    open_page,
    save_review_overlay,
    wait_idle,
)

pytestmark = pytest.mark.browser

QUESTION = (
    "Does buying past winners and selling past losers generate abnormal returns over 3 to 12 "
    "month holding periods?"
)
MOM = "Past winners keep beating past losers for up to a year"  # z-mom-01, by its title
SHOTS = ARTIFACTS / "claim-matrix"


def heading(page: Page) -> Locator:
    return page.get_by_test_id("stMarkdown").filter(has_text=re.compile(r"— contradicts —"))


def test_practice_wrong_keeps_the_pair_and_the_canon_grounded(
    lab_path: Path, tmp_path: Path
) -> None:
    save_review_overlay(lab_path)
    with app_in_chromium(lab_path, tmp_path / "streamlit.log") as (url, page):
        page.goto(f"{url}/ask")
        wait_idle(page)
        open_page(page, "Claim matrix")
        # Only contradictions and possible tensions are counted as triage work.
        expect(
            page.get_by_text(re.compile("3 of 3 contradictions and possible tensions"))
        ).to_be_visible()
        grid = page.get_by_test_id("stDataFrame").first
        grid.scroll_into_view_if_needed()
        box = grid.bounding_box()
        assert box is not None
        # "Pending first": z-sig-03 (0.9), z-mom-01 (0.8), z-crash-05 (0.7), the support.
        page.mouse.click(box["x"] + 18, box["y"] + 35 + 35 * 1 + 17)
        wait_idle(page)
        # The click's rerun may start after wait_idle returned; a loaded machine takes longer.
        expect(heading(page)).to_contain_text(MOM, timeout=30_000)

        # Both sides, each with its text; the cue is the practice note's negation ("did not
        # outperform"), marked there. "Past losers" names stocks, no direction: the canon
        # side has no cue word to mark.
        sides = page.locator(".both-sides")
        expect(sides).to_contain_text("In our 2009 backtest, past winners did not outperform")
        expect(sides).to_contain_text("Buying past winners and selling past losers")
        expect(sides.locator(".side").nth(0).locator("mark")).not_to_have_count(0)
        expect(sides.locator(".side").nth(1).locator("mark")).to_have_count(0)

        page.get_by_role("button", name="Our practice note is wrong").click()
        wait_idle(page)
        # The decided pair stays selected although the queue re-sorted it below the others.
        expect(heading(page)).to_contain_text(MOM)
        expect(page.get_by_text("This pair: Our practice note is wrong.")).to_be_visible()
        # No queue row stays ticked on the pair the re-sort moved under it.
        expect(grid.locator("[aria-selected=true]")).to_have_count(0)
        expect(page.get_by_text(re.compile("marked this practice note as wrong"))).to_be_visible()
        expect(
            page.get_by_text(re.compile("2 of 3 contradictions and possible tensions"))
        ).to_be_visible()
        lines = (lab_path / ".synapse" / "triage.jsonl").read_text().splitlines()
        assert [json.loads(x)["decision"] for x in lines] == ["practice-wrong"]
        looks(page, "claim-matrix-detail", folder=SHOTS)

        # "Next" moves on to the next undecided pair after this one, not back to the first
        # pair skipped (z-sig-03), although the decision re-sorted the queue.
        page.get_by_role("button", name="Next pair to review →").click()
        wait_idle(page)
        expect(heading(page)).to_contain_text("When momentum crashes")

        # The canon claim stays grounded: asking its sentence answers.
        open_page(page, "Navigate")
        ask_question(page, QUESTION, "ANSWER")
        expect(page.locator(".contest-disclosure")).to_have_count(0)

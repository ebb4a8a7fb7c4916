"""Browser history on Navigate: Back and Forward bring question and answer back together,
and the session's recent questions are listed to ask again."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, ViewportSize, expect, sync_playwright

from bench.app_server import running_app
from tests.browser_support import (
    ARTIFACTS,
    CHROMIUM,
    CHROMIUM_ARGS,
    Look,
    ask_question,
    both_schemes,
    question_box,
    wait_idle,
)
from tests.workspaces import make_workspace, words_alone

pytestmark = pytest.mark.browser

SHOTS = ARTIFACTS / "desk"
WINNERS = (
    "Does buying past winners and selling past losers generate abnormal returns over 3 to 12 "
    "month holding periods?"
)
CRASH = "Do momentum crashes occur after market rebounds?"
# The journey runs once per width; each run leaves shots in both schemes.
LOOKS: list[Look] = [("light", 1280, 800), ("dark", 800, 900)]


def ask(page: Page, question: str) -> None:
    ask_question(page, question)


def recent(page: Page, question: str) -> Locator:
    """The recent question's button, its list opened if it was closed."""
    button = page.get_by_role("button", name=question)
    if not button.is_visible():
        page.get_by_text("Recent questions (1)").click()
    expect(button).to_be_visible()
    return button


def shows(page: Page, question: str, verdict: str) -> None:
    """The box holds `question` and the banner is its verdict."""
    expect(question_box(page)).to_have_value(question, timeout=60_000)
    banner = page.get_by_test_id("stAlert").filter(has_text=verdict).first
    expect(banner).to_be_visible(timeout=60_000)
    expect(page.get_by_text(f"Showing the answer to: {question}")).to_have_count(0)


def test_back_and_forward_restore_the_question_with_its_answer(tmp_path: Path) -> None:
    assert Path(CHROMIUM).is_file(), "Debian chromium is required: apt-get install chromium"
    lab = make_workspace(tmp_path)
    with words_alone(), running_app(lab, tmp_path / "log") as url, sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for scheme, width, height in LOOKS:
                viewport: ViewportSize = {"width": width, "height": height}
                page = browser.new_context(viewport=viewport, color_scheme=scheme).new_page()
                page.goto(f"{url}/ask")
                wait_idle(page)
                ask(page, WINNERS)
                ask(page, CRASH)
                shows(page, CRASH, "ABSTAIN")
                page.go_back()
                wait_idle(page)
                shows(page, WINNERS, "ANSWER")
                expect(page.get_by_test_id("stAlert").filter(has_text="ABSTAIN")).to_have_count(0)
                recent(page, CRASH)
                both_schemes(page, "history-back", folder=SHOTS)
                page.go_forward()
                wait_idle(page)
                shows(page, CRASH, "ABSTAIN")
                recent(page, WINNERS).click()
                wait_idle(page)
                shows(page, WINNERS, "ANSWER")
                page.context.close()
        finally:
            browser.close()

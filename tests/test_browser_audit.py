"""The Audit page in a real browser says the true reason a quote check licensed nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import ViewportSize, expect, sync_playwright

from bench.app_server import running_app
from tests.browser_support import (
    ARTIFACTS,
    CHROMIUM,
    CHROMIUM_ARGS,
    Look,
    both_schemes,
    wait_idle,
)
from tests.workspaces import make_workspace, words_alone

pytestmark = pytest.mark.browser

SHOTS = ARTIFACTS / "desk"
# The page is checked once per width; each check leaves shots in both schemes.
LOOKS: list[Look] = [("light", 1280, 800), ("dark", 800, 900)]


def test_a_quote_inside_a_longer_sentence_is_said_to_be_found_not_missing(tmp_path: Path) -> None:
    assert Path(CHROMIUM).is_file(), "Debian chromium is required: apt-get install chromium"
    lab = make_workspace(tmp_path)
    log = tmp_path / "streamlit.log"
    with words_alone(), running_app(lab, log) as url, sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for scheme, width, height in LOOKS:
                viewport: ViewportSize = {"width": width, "height": height}
                context = browser.new_context(viewport=viewport, color_scheme=scheme)
                page = context.new_page()
                page.goto(f"{url}/audit-dag?ws={lab}&example=inside-a-sentence")
                wait_idle(page)
                banner = page.get_by_test_id("stAlert").filter(has_text="ABSTAIN").first
                expect(banner).to_contain_text("quote not a whole sentence", timeout=60_000)
                expect(banner).to_contain_text("found word for word, but inside a longer sentence")
                expect(banner).to_contain_text("“In this trial, vitamin D supplements")
                expect(banner).not_to_contain_text("not found")
                table = page.locator("table.dag-table")
                expect(table).to_contain_text("ok, exact")
                expect(table).to_contain_text("floored: its quote sits inside a longer sentence")
                both_schemes(page, "audit-inside", folder=SHOTS)
                context.close()
        finally:
            browser.close()

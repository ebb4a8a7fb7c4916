"""Navigate as a researcher sees it: the answer above the fold, the evidence table under it
(rows that open their source page at the quote, CSV and Markdown downloads, the open row in
the link), and at 800 px a folded sidebar and a graph whose labels read and never overlap."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator, Page, ViewportSize, expect, sync_playwright

from bench.app_server import running_app
from tests.browser_support import (
    ARTIFACTS,
    CHROMIUM,
    CHROMIUM_ARGS,
    ColorScheme,
    Look,
    ask_question,
    both_schemes,
    wait_idle,
)
from tests.workspaces import make_workspace, words_alone

pytestmark = pytest.mark.browser

SHOTS = ARTIFACTS / "evidence-table"
# After the light 1280 px journey, the answer once more at 800 px (folded sidebar, graph
# labels); each width leaves shots in both schemes.
LOOKS: list[Look] = [("dark", 800, 900)]
WINNERS = (
    "Does buying past winners and selling past losers generate abnormal returns over 3 to 12 "
    "month holding periods?"
)
PAPER = "Past winners keep beating past losers for up to a year"
QUOTE = (
    "Buying past winners and selling past losers generated significant abnormal returns of "
    "about 1% per month over 3 to 12 month holding periods."
)
# Each labelled node's box (label included) on screen, and its label's size in pixels.
LABELS = """() => {
  const net = window.synapseNetwork, scale = net.getScale();
  const nodes = net.body.data.nodes.get().filter(n => String(n.label || '').trim());
  return nodes.map(n => {
    const box = net.getBoundingBox(n.id);
    return {id: n.id, px: (n.font && n.font.size ? n.font.size : 14) * scale,
            box: [box.left, box.top, box.right, box.bottom]};
  });
}"""


def ask(page: Page, question: str) -> None:
    ask_question(page, question)


def bottom(locator: Locator) -> float:
    box = locator.bounding_box()
    assert box is not None
    return box["y"] + box["height"]


def graph_labels(page: Page) -> list[dict[str, Any]]:
    """The graph's labels once drawn and settled; during Play each step loads the frame anew.

    Only a frame that has drawn once is read (before its first draw the labels are not
    measured, and a frame out of view may not draw for a while), and two reads 400 ms apart
    must agree.
    """
    last: list[dict[str, Any]] | None = None
    for _ in range(30):
        page.wait_for_timeout(400)  # the first draw and its zoom
        for frame in page.frames:
            try:
                if frame.evaluate("() => !!window.synapseNetwork && !!window.synapseDrawn"):
                    labels: list[dict[str, Any]] = frame.evaluate(LABELS)
                    if labels == last:
                        return labels
                    last = labels
                    break
            except PlaywrightError:  # the frame reloaded under us: look again
                last = None
                continue
    raise AssertionError("the graph never drew and settled")


SCHEME = "() => document.documentElement.dataset.scheme || 'light'"


def drawn_scheme(page: Page) -> str:
    """The scheme the drawn graph frame shows: "dark", or "light" (its own white page)."""
    for frame in page.frames:
        try:
            if frame.evaluate("() => !!window.synapseDrawn"):
                return str(frame.evaluate(SCHEME))
        except PlaywrightError:  # the frame reloaded under us: look again
            continue
    return "not drawn"


def follows(page: Page, scheme: ColorScheme) -> None:
    """The app turns `scheme` in place; the graph frame, already drawn, turns with it."""
    page.emulate_media(color_scheme=scheme)
    for _ in range(50):
        if drawn_scheme(page) == scheme:
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"the graph kept {drawn_scheme(page)} when the app turned {scheme}")


def labels_read_apart(page: Page) -> None:
    """Every label of the graph is at least 11 px and no two labelled nodes overlap."""
    labels = graph_labels(page)
    assert labels and min(label["px"] for label in labels) >= 11, labels
    for i, a in enumerate(labels):
        for b in labels[i + 1 :]:
            (al, at, ar, ab), (bl, bt, br, bb) = a["box"], b["box"]
            assert ar <= bl or br <= al or ab <= bt or bb <= at, (a, b)


def test_the_answer_first_then_the_evidence_table(tmp_path: Path) -> None:
    assert Path(CHROMIUM).is_file(), "Debian chromium is required: apt-get install chromium"
    lab = make_workspace(tmp_path)
    with words_alone(), running_app(lab, tmp_path / "log") as url, sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            context = browser.new_context(
                viewport={"width": 1280, "height": 800}, accept_downloads=True
            )
            page = context.new_page()
            page.goto(f"{url}/ask")
            wait_idle(page)
            ask(page, WINNERS)
            alerts = page.get_by_test_id("stAlert")
            verdict, stance = alerts.filter(has_text="ANSWER").first, alerts.nth(1)
            answer = page.locator(".answer-licensed")
            expect(answer).to_contain_text(QUOTE)
            for seen in (verdict, stance, answer):
                assert bottom(seen) <= 800, seen
            both_schemes(page, "answer-first", folder=SHOTS)
            expect(page.get_by_role("heading", name="Evidence table")).to_be_visible()
            table = page.locator(".st-key-ask_table")
            row = table.get_by_role("button", name=PAPER)
            expect(table.locator(".finding").first).to_contain_text(QUOTE)
            expect(table.locator(".row-status").first).to_have_text("green")
            row.click()
            wait_idle(page)
            opened = page.locator("[class*='st-key-ask_row_evidence']")
            expect(opened).to_contain_text("Page 2 of the source text")
            expect(opened.locator("mark.quoted").first).to_have_text(QUOTE)
            assert "row=" in page.url
            page.reload()
            wait_idle(page)
            expect(
                page.locator("[class*='st-key-ask_row_evidence'] mark.quoted").first
            ).to_have_text(QUOTE, timeout=60_000)
            for name, wanted in (
                ("CSV", "rank,paper,title,finding"),
                ("Markdown", "| # | Paper |"),
            ):
                with page.expect_download() as download:
                    page.get_by_role("button", name=f"Download table ({name})").click()
                text = Path(download.value.path()).read_text(encoding="utf-8")
                assert text.startswith(wanted) and QUOTE in text.replace("\\%", "%")
            with page.expect_download() as download:
                page.get_by_role("button", name="Download report (Markdown)").click()
            assert "## Evidence table" in Path(download.value.path()).read_text(encoding="utf-8")
            context.close()
            for scheme, width, height in LOOKS:
                viewport: ViewportSize = {"width": width, "height": height}
                page = browser.new_context(viewport=viewport, color_scheme=scheme).new_page()
                page.goto(f"{url}/ask")
                wait_idle(page)
                ask(page, WINNERS)
                if width == 800:
                    expect(page.get_by_test_id("stExpandSidebarButton")).to_be_visible()
                    expect(page.get_by_test_id("stSidebarNav")).not_to_be_in_viewport()
                    labels_read_apart(page)
                    assert drawn_scheme(page) == scheme
                    follows(page, "light" if scheme == "dark" else "dark")
                    follows(page, scheme)
                    page.get_by_role("button", name="▶ Play").click()
                    for _ in range(3):
                        page.wait_for_timeout(1000)
                        labels_read_apart(page)
                both_schemes(page, "answer-first", folder=SHOTS)
                page.context.close()
        finally:
            browser.close()

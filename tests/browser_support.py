"""Start the app as a real server and drive it with Debian chromium through Playwright."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

from playwright.sync_api import Browser, FrameLocator, Locator, Page, expect, sync_playwright

from bench.app_server import running_app
from engine.review.overlay import Overlay, OverlayEdge, save_overlay
from engine.review.relations import Relation

# The colour schemes Playwright emulates; a look is a scheme and a viewport's width and height.
ColorScheme = Literal["light", "dark", "no-preference", "null"]
Look = tuple[ColorScheme, int, int]
# Screenshots are for people to look at, never asserted on: taken when SYNAPSE_SHOTS is set
# (`make shots`), so `make test` spends its time on what it checks.
TAKING_SHOTS = bool(os.environ.get("SYNAPSE_SHOTS"))

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'
ARTIFACTS = ROOT / "test-artifacts"
LOCAL_HOSTS = {"127.0.0.1", "localhost"}
LOCAL_SCHEMES = ("data:", "blob:", "about:")
# How long an asked question may take to show its banner on a loaded machine (ms).
ASK_WAIT = 60_000


def wait_idle(page: Page, timeout: float = 60_000) -> None:
    """Wait until the app is connected and its script has finished running."""
    page.wait_for_selector(
        '[data-testid="stApp"][data-test-connection-state="CONNECTED"]', timeout=timeout
    )
    page.wait_for_selector(IDLE, timeout=timeout)


@contextmanager
def app_in_chromium(
    workspace: Path, log: Path, *, height: int = 1600
) -> Iterator[tuple[str, Page]]:
    """The app served on `workspace` (its log in `log`), and a chromium page 1,400 px wide."""
    assert Path(CHROMIUM).is_file(), "Debian chromium is required: apt-get install chromium"
    with running_app(workspace, log) as url, sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield url, browser.new_page(viewport={"width": 1400, "height": height})
        finally:
            browser.close()


def graph_frame(page: Page) -> FrameLocator:
    """The page's graph: the first frame of the main block (the sidebar holds a frame too)."""
    return page.get_by_test_id("stMain").frame_locator("iframe").first


def question_box(page: Page) -> Locator:
    """The question text area.

    Matched exactly and by role: a loose label match also finds the "Try a question" heading,
    and before the text area has rendered that heading is the only match.
    """
    return page.get_by_role("textbox", name="Question", exact=True)


def ask_question(page: Page, question: str, showing: str | None = None) -> Locator:
    """Type `question`, click Ask and wait for a banner (one holding `showing`, when given).

    The box is left before the click, so the typed text reaches the app in a run of its own
    and the click in the next. On a loaded machine a click that lands while a run is being
    replaced can still be dropped by the framework, as a person's can: then, with the app
    idle and no banner after half the wait, the click is made once more.
    """
    box = question_box(page)
    box.fill(question)
    box.blur()
    wait_idle(page)
    ask = page.get_by_role("button", name="Ask", exact=True)
    ask.click()
    banners = page.get_by_test_id("stAlert")
    banner = (banners.filter(has_text=showing) if showing else banners).first
    try:
        expect(banner).to_be_visible(timeout=ASK_WAIT / 2)
    except AssertionError:
        wait_idle(page)
        if banners.count() == 0 and box.input_value() == question:
            ask.click()
        expect(banner).to_be_visible(timeout=ASK_WAIT / 2)
    wait_idle(page)
    return banner


def click_until_shown(page: Page, button: Locator, shown: Locator) -> None:
    """Click `button` and wait for `shown`; a click dropped while a run was being replaced
    (the app idle, nothing shown or an expander still closed, the button still there after
    half the wait) is made once more, as a person would."""
    wait_idle(page)
    button.click()
    try:
        expect(shown).to_be_visible(timeout=ASK_WAIT / 2)
    except AssertionError:
        wait_idle(page)
        if not shown.first.is_visible() and button.is_visible():
            button.click()
        expect(shown).to_be_visible(timeout=ASK_WAIT / 2)


def press_in_question(page: Page, keys: str = "Enter") -> None:
    """Press `keys` in the question box once the app's Enter hook is listening.

    The hook is a script in a one-pixel frame that loads after the box is drawn; a key
    pressed before it listens is an ordinary newline, and the question is never asked.
    """
    page.wait_for_function("() => typeof document.__enterAsks === 'function'", timeout=30_000)
    question_box(page).press(keys)


def sidebar(page: Page) -> Locator:
    """The sidebar, unfolded first when a narrow window (960 px or less) folded it."""
    side = page.get_by_test_id("stSidebar")
    unfold = page.get_by_test_id("stExpandSidebarButton")
    if unfold.is_visible():
        unfold.click()
        expect(side.get_by_test_id("stSidebarNav")).to_be_in_viewport()
    return side


def open_page(page: Page, name: str) -> None:
    """Follow the sidebar link to page `name` and wait for its run to end."""
    sidebar(page).get_by_test_id("stSidebarNav").get_by_role("link", name=name).click()
    expect(page.get_by_role("heading", name=name, level=1)).to_be_visible(timeout=30_000)
    wait_idle(page)


def shot(page: Page, name: str, *, folder: Path = ARTIFACTS, tall: bool = False) -> None:
    """A full-page screenshot `folder/name.png`.

    `tall` first grows the viewport to the main block's height: the app scrolls inside that
    block, so a plain full-page shot of a long page is cut at the viewport.
    """
    if not TAKING_SHOTS:
        return
    folder.mkdir(parents=True, exist_ok=True)
    size = page.viewport_size
    assert size is not None, "the page was opened with a viewport"
    if tall:
        height = page.evaluate(
            "() => Math.max(document.body.scrollHeight,"
            " document.querySelector('[data-testid=stMain]')?.scrollHeight || 0)"
        )
        page.set_viewport_size({"width": size["width"], "height": max(size["height"], height + 40)})
        wait_idle(page)
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)
    if tall:
        page.set_viewport_size(size)
        wait_idle(page)


def both_schemes(page: Page, name: str, *, folder: Path = ARTIFACTS, tall: bool = True) -> None:
    """Shots `name-light-WIDTH` and `name-dark-WIDTH` of the page as it stands.

    The other colour scheme is emulated in place for its shot, then the page's own comes
    back: a journey run once per width still leaves a picture in each scheme (the scheme
    changes how a page looks, never what it does).
    """
    if not TAKING_SHOTS:
        return
    size = page.viewport_size
    assert size is not None, "the page was opened with a viewport"
    dark = page.evaluate("() => matchMedia('(prefers-color-scheme: dark)').matches")
    own: ColorScheme = "dark" if dark else "light"
    other: ColorScheme = "light" if dark else "dark"
    shot(page, f"{name}-{own}-{size['width']}", folder=folder, tall=tall)
    page.emulate_media(color_scheme=other)
    wait_idle(page)
    shot(page, f"{name}-{other}-{size['width']}", folder=folder, tall=tall)
    page.emulate_media(color_scheme=own)
    wait_idle(page)


def looks(page: Page, name: str, *, folder: Path = ARTIFACTS) -> None:
    """Full-page shots `name-SCHEME-WIDTH` in light and dark, at 1280×800 and 800×900; the
    page is left in its own scheme at the size it had."""
    if not TAKING_SHOTS:
        return
    size = page.viewport_size
    assert size is not None, "the page was opened with a viewport"
    for width, height in ((1280, 800), (800, 900)):
        page.set_viewport_size({"width": width, "height": height})
        wait_idle(page)
        both_schemes(page, name, folder=folder)
    page.set_viewport_size(size)
    wait_idle(page)


def is_local(url: str) -> bool:
    """Whether a request stays on this machine."""
    if url.startswith(LOCAL_SCHEMES):
        return True
    return urlsplit(url).hostname in LOCAL_HOSTS


def save_contradiction_overlay(root: Path) -> None:
    """An overlay for momentum-lab with one contradiction and one support, as a reviewer sees."""
    edges = (
        OverlayEdge(
            practice_id="exp-2009-backtest",
            canon_source="finance",
            canon_id="z-sig-03",
            relation=Relation.CONTRADICTS,
            confidence=0.9,
            claim_strength=None,
            priority=0.675,
            rationale="The backtest used the most recent month; the note says it is skipped.",
            evidence="The signal skips the most recent month",
        ),
        OverlayEdge(
            practice_id="chk-2024-q1",
            canon_source="finance",
            canon_id="z-ret-02",
            relation=Relation.SUPPORTS,
            confidence=0.6,
            claim_strength=None,
            priority=0.45,
            rationale="The review restates the sample's mean return.",
            evidence="",
        ),
    )
    counts = {"practice": 3, "candidates": 2, "typed": 2, "kept": 2}
    save_overlay(root, Overlay("2026-01-01T00:00:00+00:00", "fixture", {}, counts, 0.0, edges))


def save_review_overlay(root: Path) -> None:
    """An overlay for momentum-lab with three contradictions and a support, for triage."""

    def contradiction(practice_id: str, canon_id: str, confidence: float) -> OverlayEdge:
        return OverlayEdge(
            practice_id=practice_id,
            canon_source="finance",
            canon_id=canon_id,
            relation=Relation.CONTRADICTS,
            confidence=confidence,
            claim_strength=None,
            priority=round(confidence * 0.75, 4),
            rationale=f"The practice disagrees with {canon_id}.",
            evidence="",
            cue="direction",
        )

    edges = (
        contradiction("exp-2009-backtest", "z-sig-03", 0.9),
        contradiction("exp-2009-backtest", "z-mom-01", 0.8),
        contradiction("chk-2024-q1", "z-crash-05", 0.7),
        OverlayEdge(
            "chk-2024-q1", "finance", "z-ret-02", Relation.SUPPORTS, 0.6, None, 0.45, "", ""
        ),
    )
    counts = {"practice": 3, "candidates": 4, "typed": 4, "kept": 4}
    save_overlay(root, Overlay("2026-01-01T00:00:00+00:00", "fixture", {}, counts, 0.0, edges))


def plot_point(page: Page, x: str, y: str) -> tuple[float, float]:
    """Page coordinates of the category point (x, y) on the first plotly chart."""
    page.wait_for_selector(".js-plotly-plot .xtick", state="attached", timeout=30_000)
    left, top = page.evaluate(
        """([x, y]) => {
            const gd = document.querySelector('.js-plotly-plot');
            gd.scrollIntoView({block: 'center'});
            const xa = gd._fullLayout.xaxis, ya = gd._fullLayout.yaxis;
            const box = gd.getBoundingClientRect();
            return [box.left + xa._offset + xa.l2p(xa.d2l(x)),
                    box.top + ya._offset + ya.l2p(ya.d2l(y))];
        }""",
        [x, y],
    )
    return float(left), float(top)


@contextmanager
def served_browser(workspace: Path, log: Path) -> Iterator[tuple[str, Browser, list[str]]]:
    """The app served on `workspace`, a chromium browser, and the list its pages record their
    requests in; on leaving, no recorded request may have left this machine."""
    assert Path(CHROMIUM).is_file(), "Debian chromium is required: apt-get install chromium"
    requests: list[str] = []
    with running_app(workspace, log) as url, sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield url, browser, requests
        finally:
            browser.close()
    offsite = sorted({u for u in requests if not is_local(u)})
    assert not offsite, f"requests left the machine: {offsite}"

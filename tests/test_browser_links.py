"""Shared state in a real browser: a reload keeps the workspace, the question and the answer;
a momentum-lab example asks in momentum-lab; a citation opens its evidence; a link to a
folder never opened in the app is refused until its user types it in."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from playwright.sync_api import Browser, Locator, Page, ViewportSize, expect, sync_playwright

from bench.app_server import running_app
from engine.workspace.examples import landing_examples, read_examples
from tests.browser_support import (
    ARTIFACTS,
    CHROMIUM,
    CHROMIUM_ARGS,
    ROOT,
    ColorScheme,
    Look,
    both_schemes,
    press_in_question,
    question_box,
    shot,
    sidebar,
    wait_idle,
)
from tests.workspaces import make_workspace, user_bytes, words_alone

pytestmark = pytest.mark.browser

SHOTS = ARTIFACTS / "links"
LAB = ROOT / "examples" / "momentum-lab"


@pytest.fixture(scope="module")
def app(
    scifact_slice: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, Browser]]:
    """The app serving a SciFact workspace by default; each test opens its own session."""
    assert Path(CHROMIUM).is_file(), "Debian chromium is required: apt-get install chromium"
    log = tmp_path_factory.mktemp("links-log") / "streamlit.log"
    with words_alone(), running_app(scifact_slice, log) as url, sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield url, browser
        finally:
            browser.close()


def session(
    app: tuple[str, Browser], *, width: int = 1280, height: int = 800, scheme: ColorScheme = "light"
) -> tuple[str, Page]:
    url, browser = app
    viewport: ViewportSize = {"width": width, "height": height}
    return url, browser.new_context(viewport=viewport, color_scheme=scheme).new_page()


def verdict(page: Page) -> Locator:
    alerts = page.get_by_test_id("stAlert")
    return alerts.filter(has_text="ANSWER").or_(alerts.filter(has_text="ABSTAIN"))


def test_a_momentum_lab_example_asks_in_momentum_lab_and_a_reload_keeps_it(
    app: tuple[str, Browser],
) -> None:
    url, page = session(app)
    page.goto(url)
    wait_idle(page)
    expect(page.get_by_text("Workspace ready")).to_be_visible(timeout=60_000)
    page.get_by_role("button", name="Switch to the bundled examples/momentum-lab").click()
    wait_idle(page)
    example = landing_examples(read_examples(LAB))[0]
    page.get_by_role("button", name=example.question).click()
    expect(page.get_by_role("heading", name="Navigate", level=1)).to_be_visible(timeout=30_000)
    expect(verdict(page).first).to_contain_text(example.label, timeout=60_000)
    wait_idle(page)
    sidebar = page.get_by_test_id("stSidebar")
    notes = "Workspace ready: 3 papers, 5 pages, 12 notes, 3 practice entries"
    expect(sidebar.get_by_text(notes)).to_be_visible()
    expect(sidebar.get_by_label("Workspace folder")).to_have_value(str(LAB))
    assert "momentum-lab" in page.url and "q=" in page.url
    shot(page, "01-lab-example-asked", folder=SHOTS)
    shown = verdict(page).first.inner_text()
    page.reload()
    wait_idle(page)
    expect(verdict(page).first).to_have_text(shown, timeout=60_000)
    expect(question_box(page)).to_have_value(example.question)
    expect(sidebar.get_by_text(notes)).to_be_visible()
    shot(page, "02-after-reload", folder=SHOTS)


@pytest.mark.parametrize("keys", ["Enter", "Control+Enter"], ids=["enter", "ctrl-enter"])
def test_enter_asks_and_shift_enter_starts_a_line(app: tuple[str, Browser], keys: str) -> None:
    url, page = session(app)
    page.goto(f"{url}/ask?ws={LAB}")
    wait_idle(page)
    box = question_box(page)
    box.fill("Do momentum crashes occur")
    box.press("Shift+Enter")
    box.press_sequentially("after market rebounds?")
    expect(box).to_have_value("Do momentum crashes occur\nafter market rebounds?")
    press_in_question(page, keys)
    expect(verdict(page).first).to_contain_text("ABSTAIN", timeout=60_000)
    wait_idle(page)
    assert "q=" in page.url


def test_a_citation_opens_the_source_page_marked_and_the_report_downloads(
    app: tuple[str, Browser],
) -> None:
    url, page = session(app)
    page.goto(f"{url}/ask?ws={LAB}")
    wait_idle(page)
    question = (
        "Does buying past winners and selling past losers generate abnormal returns over 3 to 12 "
        "month holding periods?"
    )
    box = question_box(page)
    box.fill(question)
    press_in_question(page)
    expect(verdict(page).first).to_contain_text("ANSWER", timeout=60_000)
    wait_idle(page)
    # The answer's Sources come first; the evidence table below lists the same paper again.
    source = page.get_by_role("button", name="Past winners keep beating past losers for up")
    source.first.click()
    wait_idle(page)
    panel = page.locator(".evidence")
    expect(panel).to_contain_text("Past winners keep beating past losers for up to a year, p. 2")
    expect(panel.locator("mark.quoted").first).to_contain_text("Buying past winners and selling")
    assert "cite=" in page.url
    shot(page, "03-evidence-open", folder=SHOTS, tall=True)
    page.reload()
    wait_idle(page)
    expect(page.locator(".evidence mark.quoted").first).to_contain_text("Buying past winners")
    with page.expect_download() as download:
        page.get_by_role("button", name="Download report (Markdown)").click()
    text = Path(download.value.path()).read_text(encoding="utf-8")
    assert text.startswith("# Synapse Review report") and question in text


def test_page_links_look_like_links(app: tuple[str, Browser]) -> None:
    url, page = session(app)
    page.goto(f"{url}/audit-dag?ws={LAB}&example=orphan-prose")
    wait_idle(page)
    expect(verdict(page).first).to_be_visible(timeout=60_000)
    page.get_by_role("tab", name="Traceability").click()
    link = page.get_by_role("link", name="Open on the Traceability page")
    expect(link).to_be_visible()
    decoration = link.evaluate(
        "a => getComputedStyle(a.querySelector('p') || a).textDecorationLine"
    )
    assert "underline" in decoration


# The refusal is checked once per width; each check leaves shots in both schemes.
LOOKS: list[Look] = [("light", 1280, 800), ("dark", 800, 900)]


def test_a_link_to_a_folder_never_opened_is_refused_until_typed_in(
    app: tuple[str, Browser], tmp_path: Path
) -> None:
    theirs = make_workspace(tmp_path, "momentum-lab", name="their-lab").resolve()
    before = user_bytes(theirs)
    crash = "Do momentum crashes occur after market rebounds?"
    link = f"/ask?ws={quote(str(theirs))}&q={quote(crash)}"
    for scheme, width, height in LOOKS:
        url, page = session(app, width=width, height=height, scheme=scheme)
        page.goto(url + link)
        wait_idle(page)
        expect(page.get_by_text("has not been opened in this app")).to_be_visible()
        # The code block's renderer is a chunk loaded on first use: slow on a loaded machine.
        expect(page.get_by_test_id("stCode")).to_contain_text(str(theirs), timeout=30_000)
        expect(verdict(page)).to_have_count(0)
        both_schemes(page, "04-link-refused", folder=SHOTS, tall=False)
    assert not (theirs / ".synapse").exists() and user_bytes(theirs) == before
    field = sidebar(page).get_by_label("Workspace folder")
    field.fill(str(theirs))
    field.press("Enter")
    expect(verdict(page).first).to_contain_text("ABSTAIN", timeout=60_000)
    wait_idle(page)
    assert (theirs / ".synapse").is_dir()
    url, again = session(app)
    again.goto(url + link)
    expect(verdict(again).first).to_contain_text("ABSTAIN", timeout=60_000)

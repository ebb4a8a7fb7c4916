"""The first hour in a real browser, on a SciFact slice built like the demo."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from engine import holdings, read_library
from engine.api import open_workspace
from engine.review.overlay import build_overlay
from engine.workspace.examples import landing_examples, read_examples
from engine.workspace.stores import load_workspace
from present.library import holdings_text
from tests.browser_support import (
    ARTIFACTS,
    click_until_shown,
    graph_frame,
    press_in_question,
    question_box,
    served_browser,
    shot,
    wait_idle,
)
from tests.chat_server import ChatServer, trickle
from tests.workspaces import make_workspace, scifact_workspace, words_alone

pytestmark = pytest.mark.browser

SHOTS = ARTIFACTS / "journeys"
ASKED = "Egr2 regulates the homeostasis of B and T cells."
LINKED = "Is http://203.0.113.9/paper about B and T cell homeostasis?"
RUNNING = '[data-testid="stApp"][data-test-script-state="running"]'


@pytest.fixture(scope="module")
def demo_slice(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The first 1,200 SciFact abstracts and their claims, indexed, with the claim overlay built."""
    root = tmp_path_factory.mktemp("journeys") / "scifact"
    with words_alone():
        scifact_workspace(root, 1200)
        opened = open_workspace(root)
        try:
            build_overlay(opened, typer="offline")
        finally:
            opened.close()
    return root


@pytest.fixture(scope="module")
def app(
    demo_slice: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, Browser, list[str]]]:
    """One app server for the module; each test opens its own browser session."""
    log = tmp_path_factory.mktemp("journeys-log") / "streamlit.log"
    with words_alone(), served_browser(demo_slice, log) as served:
        yield served


def session(app: tuple[str, Browser, list[str]]) -> tuple[str, Page]:
    url, browser, requests = app
    page = browser.new_context(viewport={"width": 1400, "height": 1500}).new_page()
    page.on("request", lambda request: requests.append(request.url))
    return url, page


def verdict(page: Page) -> Locator:
    return (
        page.get_by_test_id("stAlert")
        .filter(has_text="ANSWER")
        .or_(page.get_by_test_id("stAlert").filter(has_text="ABSTAIN"))
    )


def test_first_open_to_first_answer(app: tuple[str, Browser, list[str]], demo_slice: Path) -> None:
    url, page = session(app)
    page.goto(url)
    wait_idle(page)
    expect(page.get_by_role("heading", name="Synapse Review", level=1)).to_be_visible()
    expect(page.get_by_text("Workspace ready")).to_be_visible()
    shot(page, "01-first-open", folder=SHOTS)
    first = landing_examples(read_examples(demo_slice))[0]
    page.get_by_role("button", name=first.question).click()
    expect(page.get_by_role("heading", name="Navigate", level=1)).to_be_visible(timeout=30_000)
    expect(verdict(page).first).to_contain_text(first.label, timeout=30_000)
    wait_idle(page)
    assert "q=" in page.url
    graph = graph_frame(page)
    expect(graph.locator("#mynetwork canvas")).to_be_visible(timeout=30_000)
    shot(page, "02-first-answer", folder=SHOTS)
    # Replay: the first step shows the question and its seeds; an expansion its revelations.
    slider = page.get_by_test_id("stSlider").get_by_role("slider")
    slider.focus()
    slider.press("Home")
    expect(page.get_by_text("step 0: retrieve")).to_be_visible()
    wait_idle(page)
    shot(page, "02a-step-0", folder=SHOTS)
    for _ in range(4):
        slider.press("ArrowRight")
    expect(page.get_by_text("step 4: expand")).to_be_visible()
    wait_idle(page)
    expect(graph.locator("#mynetwork canvas")).to_be_visible(timeout=30_000)
    shot(page, "02b-step-4-expand", folder=SHOTS)
    page.get_by_test_id("stSidebarNav").get_by_role("link", name="Claim matrix").click()
    expect(page.get_by_role("heading", name="Claim matrix", level=1)).to_be_visible()
    wait_idle(page)
    expect(page.get_by_text("No claim overlay yet")).to_have_count(0)
    expect(page.get_by_text("edges pass the filters")).to_be_visible()
    assert "q=" in page.url
    shot(page, "03-claim-matrix", folder=SHOTS)


def test_each_landing_example_reaches_its_verdict(
    app: tuple[str, Browser, list[str]], demo_slice: Path
) -> None:
    examples = landing_examples(read_examples(demo_slice))
    assert {e.label for e in examples} >= {"ANSWER", "ABSTAIN"}
    url, page = session(app)
    for i, example in enumerate(examples):
        page.goto(url)
        wait_idle(page)
        page.get_by_role("button", name=example.question).click()
        banner = verdict(page).first
        expect(banner).to_be_visible(timeout=30_000)
        wait_idle(page)
        shown = banner.inner_text()
        assert shown.split(" — ")[0].strip() == example.label, (example.question, shown)
        shot(page, f"04-example-{i}", folder=SHOTS)


def test_reloading_a_dag_link_reproduces_the_dag(app: tuple[str, Browser, list[str]]) -> None:
    url, page = session(app)
    page.goto(f"{url}/dag?q={quote(ASKED)}")
    wait_idle(page)
    expect(page.get_by_role("heading", name="Reasoning DAG", level=1)).to_be_visible()
    expect(verdict(page).first).to_be_visible(timeout=30_000)
    expect(graph_frame(page).locator("canvas")).to_be_visible()
    expect(page.get_by_text(f"Showing the answer to: {ASKED}")).to_be_visible()
    shot(page, "05-dag-link", folder=SHOTS)
    page.reload()
    wait_idle(page)
    expect(page.get_by_text(f"Showing the answer to: {ASKED}")).to_be_visible(timeout=30_000)
    assert "q=" in page.url


def test_enter_submits_and_an_address_in_a_question_stays_text(
    app: tuple[str, Browser, list[str]],
) -> None:
    url, page = session(app)
    page.goto(f"{url}/ask")
    wait_idle(page)
    box = question_box(page)
    box.fill("")
    press_in_question(page)
    expect(page.get_by_text("Type a question first")).to_be_visible(timeout=30_000)
    # The refusal's run must end first: an Enter pressed while it still runs can be dropped.
    wait_idle(page)
    box.fill(LINKED)
    press_in_question(page)
    expect(verdict(page).first).to_be_visible(timeout=30_000)
    wait_idle(page)
    shot(page, "06-enter-submits", folder=SHOTS)
    page.get_by_test_id("stSidebarNav").get_by_role("link", name="Reasoning DAG").click()
    wait_idle(page)
    caption = page.get_by_text("Showing the answer to:")
    expect(caption).to_contain_text("203.0.113.9/paper")
    assert caption.locator("a").count() == 0
    assert page.locator("a[href*='203.0.113.9']").count() == 0
    shot(page, "07-address-not-linked", folder=SHOTS)


def test_switching_workspace_clears_the_results(
    app: tuple[str, Browser, list[str]], tmp_path: Path
) -> None:
    lab = make_workspace(tmp_path, "momentum-lab")
    url, page = session(app)
    page.goto(f"{url}/ask?q={quote(ASKED)}")
    wait_idle(page)
    expect(verdict(page).first).to_be_visible(timeout=30_000)
    sidebar = page.get_by_test_id("stSidebar")
    budget = sidebar.get_by_text("Budget")
    budget.click()
    hops = sidebar.get_by_label("Hops", exact=True)
    hops.fill("3")
    hops.press("Enter")
    wait_idle(page)
    expect(hops).to_be_visible()  # the expander stays open after its own edit
    shot(page, "08-before-switch", folder=SHOTS)
    field = sidebar.get_by_label("Workspace folder")
    field.fill(str(lab))
    field.press("Enter")
    wait_idle(page)
    loaded = load_workspace(lab)  # described as a reader counts it: papers, pages, notes
    held = holdings_text(holdings(loaded, read_library(loaded)))
    expect(sidebar.get_by_text(f"Workspace ready: {held}")).to_be_visible(timeout=30_000)
    expect(verdict(page)).to_have_count(0)
    assert "q=" not in page.url
    shot(page, "09-after-switch", folder=SHOTS)
    page.get_by_test_id("stSidebarNav").get_by_role("link", name="Reasoning DAG").click()
    wait_idle(page)
    expect(page.get_by_text("Nothing to show yet")).to_be_visible()
    field.fill(str(tmp_path / "missing"))
    field.press("Enter")
    wait_idle(page)
    expect(sidebar.get_by_text("Cannot open this workspace").first).to_be_visible()
    shot(page, "10-missing-folder", folder=SHOTS)


def test_the_sidebar_stays_whole_and_current_while_a_model_call_runs(
    app: tuple[str, Browser, list[str]],
) -> None:
    url, page = session(app)
    # 200 s of trickled reply: the run is still waiting on the model while we look.
    with ChatServer(trickle('{"dag": {}}' + " " * 4000, 0.05)) as endpoint:
        page.goto(f"{url}/ask")
        wait_idle(page)
        sidebar = page.get_by_test_id("stSidebar")
        sidebar.get_by_text("OpenAI-compatible").click()
        wait_idle(page)
        for label, value in (("Base URL", endpoint.base_url), ("Model", "journey-model")):
            field = sidebar.get_by_label(label)
            field.fill(value)
            field.press("Enter")
            wait_idle(page)
        # On a loaded machine the click can land while the run after "Model" is replaced.
        click_until_shown(
            page, sidebar.get_by_text("Budget"), sidebar.get_by_label("Hops", exact=True)
        )
        box = question_box(page)
        box.fill(ASKED)
        press_in_question(page)
        expect(page.locator(RUNNING)).to_have_count(1, timeout=30_000)
        assert endpoint.wait_asked(60), "the model call never started"
        # The spinner's text reaches the page in the run's next delta: on a loaded machine
        # that can take longer than the default 5 s after the model was called.
        expect(page.get_by_text("Asking the model… (ask again or leave")).to_be_visible(
            timeout=30_000
        )
        expect(page.locator(RUNNING)).to_have_count(1)
        shot(page, "11-sidebar-during-a-model-call", folder=SHOTS)
        for label in ("Workspace folder", "Base URL", "Model", "Hops"):
            expect(sidebar.get_by_label(label, exact=True)).to_have_count(1)
        # The status box, the load report and the budget: no greyed copy of any of them.
        expect(sidebar.get_by_test_id("stExpander")).to_have_count(3)
        expect(sidebar.get_by_label("Hops", exact=True)).to_be_visible()  # the budget stays open
        expect(sidebar.locator('[data-stale="true"]')).to_have_count(0)
        page.close()  # leaving cancels the call
        assert endpoint.hung_up.wait(15), "the model call ran on after the page closed"

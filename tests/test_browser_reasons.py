"""Navigate on a hand-made vault in a real browser: the missing hop in red, reasons as typed.

Between them the two journeys run light and dark, at 1280×800 and at 800×900 (each journey
in both schemes and both sizes, crossed), and leave a full-page screenshot of each under
`test-artifacts/reasons/`.
"""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import quote

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser_support import (
    ARTIFACTS,
    ColorScheme,
    Look,
    graph_frame,
    open_page,
    served_browser,
    shot,
    wait_idle,
)
from tests.builders.vaults import CLAIM_QUESTION, MISSING_NAME, claim_vault

pytestmark = pytest.mark.browser

SHOTS = ARTIFACTS / "reasons"
# Framing a long question must not block it, and the word it misses is named as typed.
FRAMED = (
    "I am reviewing what is known about this: does stroke increase cell proliferation in "
    "the subventricular zone of Hamsters?"
)
# Each journey in both schemes and both sizes, crossed: every look is drawn once per module.
MISSING_LOOKS: list[Look] = [("light", 1280, 800), ("dark", 800, 900)]
MISSING_IDS = ["light-1280", "dark-800"]
TYPED_LOOKS: list[Look] = [("dark", 1280, 800), ("light", 800, 900)]
TYPED_IDS = ["dark-1280", "light-800"]


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Browser, list[str]]]:
    """One server on the vault for the module; each test opens its own browser context."""
    root = claim_vault(tmp_path_factory.mktemp("reasons"))
    log = tmp_path_factory.mktemp("reasons-log") / "streamlit.log"
    with served_browser(root, log) as served:
        yield served


def asked(
    app: tuple[str, Browser, list[str]], question: str, scheme: ColorScheme, width: int, height: int
) -> Page:
    """A page in `scheme` at `width`×`height` that asked `question` through a `?q=` link."""
    url, browser, requests = app
    context = browser.new_context(viewport={"width": width, "height": height}, color_scheme=scheme)
    page = context.new_page()
    page.on("request", lambda request: requests.append(request.url))
    page.goto(f"{url}/ask?q={quote(question)}")
    wait_idle(page)
    return page


def is_dark(colour: str) -> bool:
    """Whether a CSS `rgb(…)`/`rgba(…)` colour is a dark one."""
    red, green, blue = (int(part) for part in colour[colour.index("(") + 1 : -1].split(",")[:3])
    return red + green + blue < 3 * 96


def background_is_dark(page: Page) -> bool:
    colour = page.evaluate(
        "() => getComputedStyle(document.querySelector('[data-testid=stApp]')).backgroundColor"
    )
    return is_dark(colour)


def graph_is_dark(page: Page, holding: str) -> bool:
    """Whether the graph frame whose page holds `holding` is drawn on a dark background."""
    frames = [f for f in page.frames if f is not page.main_frame and holding in f.content()]
    colour = frames[0].evaluate(
        "() => getComputedStyle(document.getElementById('mynetwork')).backgroundColor"
    )
    return is_dark(colour)


@pytest.mark.parametrize(("scheme", "width", "height"), MISSING_LOOKS, ids=MISSING_IDS)
def test_the_missing_hop_is_named_and_drawn_red(
    app: tuple[str, Browser, list[str]], scheme: ColorScheme, width: int, height: int
) -> None:
    page = asked(app, CLAIM_QUESTION, scheme, width, height)
    banner = page.get_by_test_id("stAlert").filter(has_text="ABSTAIN")
    expect(banner).to_contain_text("ABSTAIN — missing hop.", timeout=30_000)
    expect(banner).to_contain_text(f"rests on “{MISSING_NAME}”, a note not written yet")
    assert background_is_dark(page) == (scheme == "dark")
    graph = graph_frame(page)
    expect(graph.locator("#mynetwork canvas")).to_be_visible(timeout=30_000)
    # vis draws on a canvas: the node's name and colour are in the frame's data.
    frame = next(f for f in page.frames if "mynetwork" in f.content())
    html = frame.content()
    assert MISSING_NAME in html and "#b03a2e" in html
    # The frame takes the app's scheme: no white panel on a dark page.
    assert graph_is_dark(page, "mynetwork") == (scheme == "dark")
    page.wait_for_timeout(600)  # the graph's first draw and its zoom-out
    shot(page, f"navigate-missing-hop-{scheme}-{width}", folder=SHOTS, tall=True)
    open_page(page, "Reasoning DAG")
    expect(page.get_by_text("Why it abstained")).to_be_visible()
    expect(page.get_by_text("missing hop", exact=True).first).to_be_visible()
    expect(graph_frame(page).locator("#mynetwork canvas")).to_be_visible()
    assert graph_is_dark(page, "claim:") == (scheme == "dark")
    page.wait_for_timeout(600)
    shot(page, f"dag-missing-hop-{scheme}-{width}", folder=SHOTS, tall=True)
    page.context.close()


@pytest.mark.parametrize(("scheme", "width", "height"), TYPED_LOOKS, ids=TYPED_IDS)
def test_reasons_use_the_words_the_user_typed(
    app: tuple[str, Browser, list[str]], scheme: ColorScheme, width: int, height: int
) -> None:
    page = asked(app, FRAMED, scheme, width, height)
    banner = page.get_by_test_id("stAlert").filter(has_text="ABSTAIN")
    expect(banner).to_contain_text("ABSTAIN — uncovered term.", timeout=30_000)
    expect(banner).to_contain_text("never mentions ‘Hamsters’")
    assert "reviewing" not in banner.inner_text().lower()
    assert "‘hamster’" not in banner.inner_text()
    page.wait_for_timeout(600)
    shot(page, f"navigate-typed-words-{scheme}-{width}", folder=SHOTS, tall=True)
    page.context.close()

"""The Start page's examples tell the truth in a real browser: each one, clicked, shows the
verdict and the stance its tag promises."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import ViewportSize, expect, sync_playwright

from bench.app_server import running_app
from engine.workspace.examples import landing_examples, read_examples
from tests.browser_support import (
    ARTIFACTS,
    CHROMIUM,
    CHROMIUM_ARGS,
    TAKING_SHOTS,
    Look,
    click_until_shown,
    shot,
    wait_idle,
)
from tests.workspaces import make_workspace, words_alone

pytestmark = pytest.mark.browser

SHOTS = ARTIFACTS / "desk"
LOOKS: list[Look] = [
    ("light", 1280, 800),
    ("dark", 1280, 800),
    ("light", 800, 900),
    ("dark", 800, 900),
]
# What the stance line says for each promised stance, and what it must then never say.
SAYS = {
    "contradicts": ("No:", "possible tension"),
    "may contradict": ("possible tension", "Yes:"),
    "supports": ("Yes:", "No:"),
}


def test_each_start_example_shows_the_verdict_and_stance_it_promises(tmp_path: Path) -> None:
    assert Path(CHROMIUM).is_file(), "Debian chromium is required: apt-get install chromium"
    lab = make_workspace(tmp_path)
    examples = landing_examples(read_examples(lab))
    assert any(e.stance == "contradicts" for e in examples)
    with words_alone(), running_app(lab, tmp_path / "log") as url, sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            # Without shots, the looks between say nothing the first and the last do not.
            for look, (scheme, width, height) in enumerate(LOOKS if TAKING_SHOTS else LOOKS[::3]):
                viewport: ViewportSize = {"width": width, "height": height}
                page = browser.new_context(viewport=viewport, color_scheme=scheme).new_page()
                # Every promise is checked once; the other looks show the Start page and
                # one stance line, which is what they are looked at for.
                stanced = [e for e in examples if e.stance][:1]
                for example in examples if look == 0 else stanced:
                    page.goto(url)
                    wait_idle(page)
                    tag = f"{example.label} · source {example.stance}"
                    if example.stance:
                        expect(page.get_by_text(tag)).to_be_visible()
                    shot(page, f"start-{scheme}-{width}", folder=SHOTS, tall=True)
                    alerts = page.get_by_test_id("stAlert")
                    banner = alerts.filter(has_text=example.label).first
                    button = page.get_by_role("button", name=example.question)
                    click_until_shown(page, button, banner)
                    wait_idle(page)
                    assert banner.inner_text().split(" — ")[0].strip() == example.label
                    if example.stance:
                        said, never = SAYS[example.stance]
                        expect(alerts.filter(has_text=said)).to_have_count(1)
                        expect(alerts.filter(has_text=never)).to_have_count(0)
                        shot(page, f"example-stance-{scheme}-{width}", folder=SHOTS)
                page.context.close()
        finally:
            browser.close()

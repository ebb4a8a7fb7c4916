"""A reviewer triages with the keyboard, reads the brief as text, resets a decision and
downloads what was decided; the heatmap follows the dark theme; an empty matrix says what
it needs.
"""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
from pathlib import Path

import pytest
from PIL import Image
from playwright.sync_api import Locator, Page, expect

from tests.browser_support import (
    ARTIFACTS,
    app_in_chromium,
    looks,
    open_page,
    save_review_overlay,
    wait_idle,
)

pytestmark = pytest.mark.browser

SHOTS = ARTIFACTS / "triage"
SIG = "The signal skips the most recent month"  # z-sig-03, first in the queue
MOM = "Past winners keep beating past losers for up to a year"  # z-mom-01, next


def heading(page: Page) -> Locator:
    return page.get_by_test_id("stMarkdown").filter(has_text=re.compile(r"— contradicts —"))


def decisions(root: Path) -> list[tuple[str, str, str]]:
    text = (root / ".synapse" / "triage.jsonl").read_text()
    lines = [json.loads(line) for line in text.splitlines()]
    return [(e["edge"]["zk_id"], e["decision"], e.get("by", "")) for e in lines]


def press(page: Page, key: str) -> None:
    """A key pressed on the page itself (not in a field), then the run it starts."""
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    page.keyboard.press(key)
    page.wait_for_timeout(300)  # the rerun starts after the key's click
    wait_idle(page)


def test_keys_reset_and_the_download(
    lab_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SYNAPSE_REVIEWER", "Ada Lovelace")
    save_review_overlay(lab_path)
    with app_in_chromium(lab_path, tmp_path / "streamlit.log") as (url, page):
        page.goto(f"{url}/ask")
        wait_idle(page)
        open_page(page, "Claim matrix")
        expect(heading(page)).to_contain_text(SIG)
        keys = page.get_by_text(re.compile(r"^Keys: N next pair to review · P previous pair"))
        expect(keys).to_contain_text("2 Our practice note is wrong")
        expect(keys).to_contain_text("U reset to unreviewed")

        # The brief reads as text: names, both sentences, the cue; no address on screen.
        brief = page.locator(".st-key-matrix_brief")
        expect(brief).to_contain_text("Our practice note “2009 backtest of the momentum book”")
        expect(brief).to_contain_text(f"“{SIG}” says: “")
        expect(brief).to_contain_text("They contradict each other (confidence 0.90); cue:")
        main = page.get_by_test_id("stMain")
        for address in ("zk:finance", "mem:_memory", "(exp-2009-backtest)"):
            expect(main).not_to_contain_text(address)

        # 2: our practice note is wrong, on the selected pair; the pair stays selected.
        press(page, "2")
        expect(page.get_by_text("This pair: Our practice note is wrong.")).to_be_visible()
        assert decisions(lab_path) == [("z-sig-03", "practice-wrong", "Ada Lovelace")]
        # Letters typed into the note are the note's, never a shortcut.
        note = page.get_by_label("Note")
        note.press_sequentially("n 1 u p")
        wait_idle(page)
        expect(heading(page)).to_contain_text(SIG)
        assert len(decisions(lab_path)) == 1
        note.fill("")
        note.press("Enter")
        wait_idle(page)

        # N moves on to the next open pair; P comes back to the one just decided.
        press(page, "n")
        expect(heading(page)).to_contain_text(MOM)
        press(page, "p")
        expect(heading(page)).to_contain_text(SIG)
        expect(page.get_by_text("This pair: Our practice note is wrong.")).to_be_visible()
        looks(page, "matrix-decided", folder=SHOTS)

        # U resets it: a new line in the log, the pair unreviewed again, Reset disabled.
        press(page, "u")
        expect(page.get_by_text("This pair: unreviewed.")).to_be_visible()
        expect(page.get_by_role("button", name="Reset to unreviewed")).to_be_disabled()
        assert [d[1] for d in decisions(lab_path)] == ["practice-wrong", "reset"]
        expect(page.locator("table.plain-table")).to_contain_text("Reset to unreviewed")

        # A decision with a note, then the download has both sentences, cue, note, who, when.
        note = page.get_by_label("Note")
        note.fill("Our signal does skip the month.")
        note.press("Enter")
        wait_idle(page)
        page.get_by_role("button", name="The literature claim is contested").click()
        wait_idle(page)
        with page.expect_download() as download:
            page.get_by_role("button", name="Download these edges (CSV)").click()
        text = Path(download.value.path()).read_text(encoding="utf-8")
        rows = {r["zk_id"]: r for r in csv.DictReader(io.StringIO(text))}
        sig = rows["z-sig-03"]
        assert sig["practice_text"].startswith("2009 backtest of the momentum book")
        assert sig["canon_text"] and sig["cue_label"].startswith("opposite direction")
        assert (sig["decision"], sig["note"], sig["decided_by"]) == (
            "confirmed",
            "Our signal does skip the month.",
            "Ada Lovelace",
        )
        assert sig["decided_at"].startswith("20") and rows["z-mom-01"]["decision"] == ""


def test_the_heatmap_follows_the_dark_theme(lab_path: Path, tmp_path: Path) -> None:
    save_review_overlay(lab_path)
    with app_in_chromium(lab_path, tmp_path / "streamlit.log") as (url, page):
        page.emulate_media(color_scheme="dark")
        page.goto(f"{url}/ask")
        wait_idle(page)
        open_page(page, "Claim matrix")
        page.get_by_text("Heatmap", exact=True).click()
        wait_idle(page)
        chart = page.locator(".js-plotly-plot").first
        chart.wait_for(timeout=30_000)
        chart.scroll_into_view_if_needed()
        chart.screenshot(path=str(tmp_path / "heat.png"))
        image = Image.open(tmp_path / "heat.png").convert("L")
        counts = image.histogram()
        bright = sum(counts[201:]) / sum(counts)
        assert bright < 0.05, f"{bright:.0%} of the dark heatmap is near white"
        page.emulate_media(color_scheme="light")
        looks(page, "matrix-heatmap", folder=SHOTS)


def test_an_empty_matrix_says_it_needs_practice_notes(lab_path: Path, tmp_path: Path) -> None:
    shutil.rmtree(lab_path / ".memory")
    with app_in_chromium(lab_path, tmp_path / "streamlit.log") as (url, page):
        page.goto(f"{url}/ask")
        wait_idle(page)
        open_page(page, "Claim matrix")
        empty = page.locator(".st-key-matrix_empty")
        expect(empty).to_contain_text("The claim matrix needs practice notes.")
        expect(empty).to_contain_text("save a Markdown file in the folder .memory/")
        expect(empty).to_contain_text("type: experiment")
        page.get_by_role("button", name="Build the overlay").click()
        wait_idle(page)
        # Built, with nothing to compare: the same words, never a bare "0 edges".
        expect(page.locator(".st-key-matrix_empty")).to_contain_text("needs practice notes")
        expect(page.get_by_test_id("stMain")).not_to_contain_text("0 edges")
        looks(page, "matrix-empty", folder=SHOTS)

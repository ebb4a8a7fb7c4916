"""A reviewer sees each machine contradiction with the measured precision of its band."""

from __future__ import annotations

import urllib.parse
from pathlib import Path

import pytest
from playwright.sync_api import expect

from engine import Budget, NavResult
from engine.core.stance import Cue, CueShape, Stance, StanceRelation
from engine.navigation.substrate import Neighbourhood
from engine.review.band_precision import band_of
from engine.review.overlay import Overlay, OverlayEdge, save_overlay
from engine.review.relations import Relation
from present.answer import stance_line
from tests.browser_support import app_in_chromium, shot, wait_idle

EDGES = {
    "contradicts": ("exp-2009-backtest", "z-sig-03", Relation.CONTRADICTS, 0.93),
    "tension": ("chk-2024-q1", "z-crash-05", Relation.TENSION, 0.45),
}


def _overlay(root: Path) -> None:
    edges = tuple(
        OverlayEdge(practice, "finance", canon, relation, confidence, None, confidence, "", "")
        for practice, canon, relation, confidence in EDGES.values()
    )
    counts = {"practice": 2, "candidates": 2, "typed": 2, "kept": 2}
    save_overlay(root, Overlay("2026-01-01T00:00:00+00:00", "offline", {}, counts, 0.0, edges))


@pytest.mark.browser
@pytest.mark.parametrize("kind", list(EDGES), ids=list(EDGES))
def test_the_selected_candidate_shows_its_band_precision(
    lab_path: Path, tmp_path: Path, kind: str
) -> None:
    _overlay(lab_path)
    practice, canon, _, confidence = EDGES[kind]
    band = band_of(confidence)
    token = urllib.parse.quote(f"{practice}|finance|{canon}")
    with app_in_chromium(lab_path, tmp_path / "app.log") as (url, page):
        page.goto(f"{url}/matrix?edge={token}")
        wait_idle(page)
        assert band is not None
        callout = page.get_by_text(f"about {band.in_ten} in 10 at this confidence were right")
        expect(callout.first).to_be_visible(timeout=30_000)
        lead = "Machine contradiction" if kind == "contradicts" else "Possible tension"
        expect(page.get_by_text(lead).first).to_be_visible()
        shot(page, f"matrix-band-{kind}", tall=True)


@pytest.mark.parametrize("tension", [False, True], ids=["contradicts", "possible-tension"])
def test_the_stance_line_carries_the_measured_band(tension: bool) -> None:
    measured = "about 4 in 10 at this confidence were right (out of fold, 30 flagged)"
    cue = Cue(CueShape.DIRECTION, "reduced", "raised")
    stance = Stance(StanceRelation.CONTRADICTS, cue, 0.47, "", measured, tension)

    result = NavResult("", "offline", Budget(), Neighbourhood(), (), stance=stance)
    line = stance_line(result)
    assert line is not None
    assert line.text.endswith(f"Measured: {measured}.")
    assert ("possible tension" in line.text) is tension

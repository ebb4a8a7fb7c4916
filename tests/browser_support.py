"""Start the app as a real server and drive it with Debian chromium through Playwright."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from engine.review.overlay import Overlay, OverlayEdge, save_overlay
from engine.review.typers import Relation

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
LOCAL_HOSTS = {"127.0.0.1", "localhost"}
LOCAL_SCHEMES = ("data:", "blob:", "about:")


def wait_idle(page, timeout: float = 60_000) -> None:
    """Wait until the app is connected and its script has finished running."""
    page.wait_for_selector(
        '[data-testid="stApp"][data-test-connection-state="CONNECTED"]', timeout=timeout
    )
    page.wait_for_selector(IDLE, timeout=timeout)


def is_local(url: str) -> bool:
    """Whether a request stays on this machine."""
    if url.startswith(LOCAL_SCHEMES):
        return True
    return urlsplit(url).hostname in LOCAL_HOSTS


def save_contradiction_overlay(root: Path) -> None:
    """An overlay for momentum-lab with one contradiction and one support, as a reviewer sees."""
    edges = (
        OverlayEdge(
            memory_id="exp-2009-backtest",
            zk_source="finance",
            zk_id="z-sig-03",
            relation=Relation.CONTRADICTS,
            confidence=0.9,
            claim_strength=None,
            priority=0.675,
            rationale="The backtest used the most recent month; the note says it is skipped.",
            evidence="The signal skips the most recent month",
        ),
        OverlayEdge(
            memory_id="chk-2024-q1",
            zk_source="finance",
            zk_id="z-ret-02",
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

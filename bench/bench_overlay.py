"""Claim overlay build on the SciFact workspace (809 claims × 5,183 abstracts), offline typer.

Each size is built in a fresh process, so the typer's text caches warmed by one build do
not flatter the next; the time is that of `build_overlay` alone (candidates, typing,
strength, the atomic write), with the workspace already loaded and indexed.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bench.timing import row
from engine.api import open_workspace
from engine.datasets.scifact import import_scifact

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data" / "scifact"
SIZES = (200, 400, 809)
TARGET_SECONDS = 60.0
GROWTH_TARGET = 1.5  # per-entry cost at the largest size over the smallest

_CHILD = """
import json, sys
from engine.api import open_workspace
from engine.review.overlay import OverlayConfig, build_overlay
opened = open_workspace(sys.argv[1])
overlay = build_overlay(opened, config=OverlayConfig(limit=int(sys.argv[2])))
print(json.dumps({"seconds": overlay.seconds, "counts": overlay.counts}))
"""


def run() -> Iterator[dict[str, Any]]:
    with tempfile.TemporaryDirectory(prefix="bench-overlay-") as temp:
        root = Path(temp) / "scifact"
        import_scifact(DATA / "corpus.jsonl.gz", DATA / "claims_train.jsonl", root)
        open_workspace(root).close()  # build the index once, outside the timings
        per_entry = {}
        for size in SIZES:
            result = _build(root, size)
            counts = result["counts"]
            seconds = result["seconds"]
            per_entry[size] = seconds / max(1, counts["practice"])
            largest = size == SIZES[-1]
            yield row(
                f"overlay build offline, {counts['practice']} practice entries "
                f"({counts['candidates']:,} pairs, {counts['kept']:,} kept)",
                seconds,
                "s",
                target=f"< {TARGET_SECONDS:g} s" if largest else "",
                meets=seconds < TARGET_SECONDS if largest else None,
            )
        growth = per_entry[SIZES[-1]] / per_entry[SIZES[0]]
        yield row(
            f"overlay per-entry cost, {SIZES[-1]} vs {SIZES[0]} entries (linear = 1)",
            growth,
            "ratio",
            target=f"<= {GROWTH_TARGET:g}",
            meets=growth <= GROWTH_TARGET,
            peer=", ".join(f"{n}: {per_entry[n] * 1000:.1f} ms/entry" for n in SIZES),
        )


def _build(root: Path, limit: int) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, str(root), str(limit)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    measured: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return measured

"""End-to-end `ask` with the offline reasoner on the SciFact demo workspace."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

from bench.timing import median, percentile, row, sample_ms
from engine.api import ask, open_workspace
from engine.datasets.scifact import import_scifact

ROOT = Path(__file__).resolve().parent.parent
QUESTIONS = 200


def run() -> Iterator[dict[str, Any]]:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "scifact"
        import_scifact(
            ROOT / "data/scifact/corpus.jsonl.gz", ROOT / "data/scifact/claims_train.jsonl", out
        )
        opened = open_workspace(out)
        claims = [
            json.loads(line)["claim"]
            for line in (ROOT / "data/scifact/claims_train.jsonl")
            .read_text()
            .splitlines()[:QUESTIONS]
        ]
        times = []
        for question in claims:
            times += sample_ms(partial(ask, opened, question), repeat=1, warmup=0)
        p50 = median(times)
        yield row(
            f"ask p50, {QUESTIONS} train claims, 5k notes",
            p50,
            "ms",
            target="< 300 ms",
            meets=p50 < 300,
        )
        yield row(f"ask p95, {QUESTIONS} train claims, 5k notes", percentile(times, 95), "ms")
        opened.close()

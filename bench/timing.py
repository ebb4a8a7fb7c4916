"""Small timing helpers shared by the benchmark modules."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any


def sample_ms(fn: Callable[[], object], *, repeat: int, warmup: int = 1) -> list[float]:
    """Call fn `repeat` times after `warmup` calls; return each duration in milliseconds."""
    for _ in range(warmup):
        fn()
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        out.append((time.perf_counter() - start) * 1000.0)
    return out


def median(values: list[float]) -> float:
    return statistics.median(values)


def percentile(values: list[float], pct: float) -> float:
    """Nearest-rank percentile of `values` (pct in 0..100)."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    rank = max(0, min(len(ordered) - 1, round(pct / 100.0 * len(ordered) + 0.5) - 1))
    return ordered[rank]


def row(
    name: str,
    value: float,
    unit: str,
    *,
    target: str = "",
    meets: bool | None = None,
    peer: str = "",
) -> dict[str, Any]:
    """One result row as printed and stored in bench/results.json."""
    return {
        "name": name,
        "value": float(value),
        "unit": unit,
        "target": target,
        "meets": meets,
        "peer": peer,
    }

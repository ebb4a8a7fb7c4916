"""Run every benchmark module in bench/, print a table, write bench/results.json."""

from __future__ import annotations

import importlib
import json
import os
import pkgutil
import sys
import time
from pathlib import Path
from typing import Any

import bench

# Every suite but `bench_encoder` measures the lexical path, as before the encoder: several
# build a SciFact workspace afresh, which with an encoder would spend minutes encoding it.
# `bench_encoder` turns the encoder on for its own rows, beside these.
os.environ.setdefault("SYNAPSE_ENCODER", "none")


def main(argv: list[str]) -> int:
    only = set(argv)
    rows: list[dict[str, Any]] = []
    for module in sorted(pkgutil.iter_modules(bench.__path__), key=lambda m: m.name):
        if not module.name.startswith("bench_"):
            continue
        if only and module.name.removeprefix("bench_") not in only:
            continue
        started = time.perf_counter()
        mod = importlib.import_module(f"bench.{module.name}")
        print(f"# {module.name} …", file=sys.stderr, flush=True)
        for row in mod.run():
            rows.append({"suite": module.name.removeprefix("bench_"), **row})
            _print_row(rows[-1])
        print(f"# {module.name} took {time.perf_counter() - started:.1f}s", file=sys.stderr)
    out = Path(__file__).with_name("results.json")
    out.write_text(json.dumps(rows, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {out}")
    return 0


def _print_row(row: dict[str, Any]) -> None:
    value = row.get("value")
    shown = f"{value:,.3f}" if isinstance(value, float) else str(value)
    target = row.get("target", "")
    verdict = {True: "meets", False: "MISSES", None: ""}.get(row.get("meets"), "")
    peer = row.get("peer", "")
    print(
        f"{row['suite']:<10} {row['name']:<48} {shown:>12} {row.get('unit', ''):<6}"
        f" {target!s:<14} {verdict:<7} {peer}"
    )


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Climate-FEVER for the lab: where it lies and its rows, gzipped in the repo or plain beside it.

The repo carries a copy (`data/climate-fever/climate-fever.jsonl.gz`, see its LICENSE.md), so
a clone trains and measures the same as this one; `$SYNAPSE_CLIMATE_FEVER` points elsewhere
(a folder or a `.jsonl` / `.jsonl.gz` file). Fitting, training and evaluation only: the
product never reads it.
"""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
BUNDLED = ROOT / "data" / "climate-fever" / "climate-fever.jsonl.gz"


def climate_fever() -> Path:
    """The Climate-FEVER file the lab reads: `$SYNAPSE_CLIMATE_FEVER`, else the repo's copy."""
    chosen = os.environ.get("SYNAPSE_CLIMATE_FEVER", "").strip()
    return Path(chosen) if chosen else BUNDLED


def climate_rows(where: Path) -> list[dict[str, Any]]:
    """Every claim of the file (or of the file in the folder) `where` names; [] when absent."""
    if where.is_dir():
        plain = where / "climate-fever.jsonl"
        where = plain if plain.exists() else where / "climate-fever.jsonl.gz"
    if not where.exists():
        return []
    if where.suffix == ".gz":
        with gzip.open(where, "rt", encoding="utf-8") as handle:
            text = handle.read()
    else:
        text = where.read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]

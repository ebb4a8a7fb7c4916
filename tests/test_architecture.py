"""ARCHITECTURE.md stays true: every file and folder it names exists, and every wing is named."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGE = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
# A path in backticks: a source or document file by its ending, or a folder with a slash.
NAMED = sorted(set(re.findall(r"`([\w./-]+(?:\.(?:py|md|toml|json)|/))`", PAGE)))
WINGS = sorted(
    f"engine/{p.name}/"
    for p in (ROOT / "engine").iterdir()
    if p.is_dir() and (p / "__init__.py").exists()
)


@pytest.mark.parametrize("name", NAMED)
def test_every_path_the_page_names_exists(name: str) -> None:
    assert (ROOT / name).exists(), f"ARCHITECTURE.md names {name}, which is not in the tree"


@pytest.mark.parametrize("wing", WINGS)
def test_every_wing_of_the_engine_is_on_the_page(wing: str) -> None:
    assert wing in PAGE, f"{wing} is a wing of the engine the page never names"


def test_the_check_reads_the_page() -> None:
    assert "engine/core/router.py" in NAMED and "engine/reading/" in WINGS

"""Pages and the entry point reach the engine only through its public face."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGE_FILES = sorted(
    [ROOT / "app.py", *(ROOT / "pages").glob("*.py"), *(ROOT / "webapp").glob("*.py")]
)


def engine_imports(path: Path) -> list[str]:
    """Every module of the engine `path` imports, as written."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        found += [n for n in names if n == "engine" or n.startswith("engine.")]
    return found


@pytest.mark.parametrize("path", PAGE_FILES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_a_page_imports_only_the_engine_itself(path: Path) -> None:
    assert [m for m in engine_imports(path) if m != "engine"] == []


def test_the_check_sees_the_pages_and_their_engine_imports() -> None:
    assert {p.name for p in PAGE_FILES} >= {"app.py", "navigate.py", "audit.py", "services.py"}
    assert "engine" in engine_imports(ROOT / "webapp" / "services.py")

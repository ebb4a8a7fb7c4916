"""The engine's public face: one set of names, listed literally, documented, and typed."""

from __future__ import annotations

import ast
import pkgutil
import re
from collections.abc import Callable
from pathlib import Path

import pytest

import engine

ROOT = Path(__file__).resolve().parents[1]


def checker_names() -> list[str]:
    """The names the `TYPE_CHECKING` imports give editors and type checkers."""
    tree = ast.parse((ROOT / "engine" / "__init__.py").read_text(encoding="utf-8"))
    block = next(n for n in tree.body if isinstance(n, ast.If))
    return [
        alias.asname or alias.name
        for node in block.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    ]


def documented_names() -> list[str]:
    text = (ROOT / "docs" / "API.md").read_text(encoding="utf-8")
    return re.findall(r"^- `([A-Za-z_][A-Za-z0-9_]*)`", text, flags=re.MULTILINE)


@pytest.mark.parametrize("name", engine.__all__)
def test_every_exported_name_resolves(name: str) -> None:
    value = getattr(engine, name)
    assert getattr(value, "__name__", name).split(".")[-1] == name


def test_no_module_of_the_engine_shadows_an_exported_name() -> None:
    """Importing `engine.X` binds `X` on the package, hiding an export of that name."""
    modules = {module.name for module in pkgutil.iter_modules(engine.__path__)}
    assert not modules & set(engine.__all__)


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'navigate_secretly'"):
        _ = engine.navigate_secretly


def test_all_lists_each_name_once_and_dir_offers_nothing_else() -> None:
    assert len(engine.__all__) == len(set(engine.__all__))
    assert sorted(dir(engine)) == sorted(engine.__all__)


@pytest.mark.parametrize(
    "names",
    [checker_names, lambda: list(engine._EXPORTS), documented_names],
    ids=["type-checker-imports", "lazy-table", "docs-api"],
)
def test_every_list_of_the_face_names_the_same_exports(names: Callable[[], list[str]]) -> None:
    listed = names()
    assert len(listed) == len(set(listed)), "a name is listed twice"
    assert sorted(listed) == sorted(engine.__all__)


def test_the_lazy_table_names_each_defining_module() -> None:
    tree = ast.parse((ROOT / "engine" / "__init__.py").read_text(encoding="utf-8"))
    block = next(n for n in tree.body if isinstance(n, ast.If))
    for node in block.body:
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                assert engine._EXPORTS[alias.asname or alias.name] == node.module


def test_the_package_says_it_is_typed() -> None:
    assert (ROOT / "engine" / "py.typed").is_file()

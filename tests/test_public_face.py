"""The engine's public face: every exported name resolves, and nothing else is offered."""

from __future__ import annotations

import pytest

import engine


@pytest.mark.parametrize("name", engine.__all__)
def test_every_exported_name_resolves(name: str) -> None:
    value = getattr(engine, name)
    assert getattr(value, "__name__", name).split(".")[-1] == name


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'navigate_secretly'"):
        _ = engine.navigate_secretly


def test_dir_lists_exactly_the_public_names() -> None:
    assert dir(engine) == sorted(engine.__all__)


def test_the_lazy_table_and_all_agree() -> None:
    assert sorted(engine._EXPORTS) == sorted(engine.__all__)

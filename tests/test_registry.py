"""Registries as values: register, look up, copy; the CLI builds from any command registry."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from engine.cli import build_parser
from engine.commands.command_registry import COMMANDS, Command
from engine.core.errors import EngineError
from engine.core.registry import Registry
from tests.cli import invoke


def test_register_and_look_up() -> None:
    registry: Registry[Callable[[str], str]] = Registry("verifier")
    registry.register("shout", str.upper)
    assert registry.get("shout") is str.upper
    assert "shout" in registry
    assert registry.names() == ["shout"]
    assert registry.get("whisper") is None


@pytest.mark.parametrize(
    ("name", "entry", "message"),
    [("", str.upper, "non-empty"), ("  ", str.upper, "non-empty"), ("x", 42, "not callable")],
    ids=["empty-name", "blank-name", "not-callable"],
)
def test_misuse_is_refused(name: str, entry: object, message: str) -> None:
    with pytest.raises(EngineError, match=message):
        registry: Registry[object] = Registry("verifier")
        registry.register(name, entry)


def test_a_copy_is_independent() -> None:
    original: Registry[Callable[[str], str]] = Registry("typer", {"offline": str.lower})
    copied = original.copy()
    copied.register("extra", str.upper)
    assert "extra" not in original
    assert copied.names() == ["extra", "offline"]


def test_the_parser_is_built_from_the_registry_it_is_given(
    capsys: pytest.CaptureFixture[str],
) -> None:
    commands: Registry[Command] = Registry("command", callables=False)
    commands.register("hello", Command("say hello", lambda p: None, lambda a: print("hi") or 0))
    args = build_parser(commands).parse_args(["hello"])
    assert args._handler(args) == 0
    assert capsys.readouterr().out == "hi\n"
    with pytest.raises(SystemExit):
        build_parser(commands).parse_args(["route", "x.json"])


def test_plugins_lists_every_registry() -> None:
    done = invoke("plugins", "--json")
    assert done.code == 0
    listing = done.json()
    assert listing["commands"] == COMMANDS.names()
    assert {"quote", "expr-recompute", "equation", "figure", "decision-tree"} <= set(
        listing["verifiers"]
    )
    assert {"offline", "openai"} <= set(listing["reasoners"]) & set(listing["typers"])


def test_an_alias_looks_up_its_entry_but_is_not_listed() -> None:
    registry: Registry[Callable[[str], str]] = Registry("verifier", {"decision-tree": str.upper})
    registry.alias("decision_tree", "decision-tree")
    assert registry.get("decision_tree") is str.upper and "decision_tree" in registry
    assert registry.copy()["decision_tree"] is str.upper
    assert registry.names() == ["decision-tree"]
    with pytest.raises(EngineError, match="not registered"):
        registry.alias("old", "missing")

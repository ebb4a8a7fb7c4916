"""A verifier, reasoner, typer or command can come from a separately installed package."""

from __future__ import annotations

import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.core.registry import PLUGIN_GROUPS, Registry
from engine.core.verifiers import Verifier, VerifierResult, VerifyContext
from tests.cli import ROOT, run

PLUGIN = """
from engine.core.verifiers import VerifierResult


def always_undecided(payload, context):
    return VerifierResult.undecided("the demo plugin never decides")


def broken():
    raise RuntimeError("never built")
"""


def install(site: Path, group: str, entries: dict[str, str]) -> Path:
    """Install a tiny package into `site` the way pip lays one out: its module and a
    dist-info folder whose entry_points.txt names `entries` in `group`."""
    (site / "synapse_demo_plugin.py").write_text(PLUGIN, encoding="utf-8")
    info = site / "synapse_demo_plugin-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: synapse-demo-plugin\nVersion: 0.1\n", encoding="utf-8"
    )
    lines = "".join(f"{name} = synapse_demo_plugin:{target}\n" for name, target in entries.items())
    (info / "entry_points.txt").write_text(f"[{group}]\n{lines}", encoding="utf-8")
    return site


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder on sys.path holding the demo plugin package, for this test only."""
    folder = tmp_path / "site"
    folder.mkdir()
    monkeypatch.syspath_prepend(str(folder))
    yield folder
    sys.modules.pop("synapse_demo_plugin", None)


def test_an_installed_verifier_is_registered_on_first_use(site: Path) -> None:
    install(site, PLUGIN_GROUPS["verifier"], {"demo-undecided": "always_undecided"})
    verifiers: Registry[Verifier] = Registry("verifier", plugins=PLUGIN_GROUPS["verifier"])
    assert verifiers.names() == ["demo-undecided"]
    result = verifiers["demo-undecided"]({}, VerifyContext())
    assert isinstance(result, VerifierResult) and not result.ok


def test_a_plugin_never_replaces_a_built_in_and_a_broken_one_is_named(site: Path) -> None:
    group = PLUGIN_GROUPS["verifier"]
    install(site, group, {"quote": "always_undecided", "demo-broken": "missing_name"})
    verifiers: Registry[object] = Registry("verifier", plugins=group)
    verifiers.register("quote", lambda payload, context: None)
    assert verifiers.names() == ["quote"]
    assert any(p.startswith("quote: already registered") for p in verifiers.problems)
    assert any(p.startswith("demo-broken: AttributeError") for p in verifiers.problems)


def test_the_plugins_command_lists_an_installed_reasoner(site: Path) -> None:
    install(site, PLUGIN_GROUPS["reasoner"], {"demo-reasoner": "always_undecided"})
    # A fresh process, so the built-in registries look for plugins with the package there.
    listed = run("plugins", "--json", env={"PYTHONPATH": f"{ROOT}:{site}"}).json()
    assert "demo-reasoner" in listed["reasoners"] and "offline" in listed["reasoners"]


def test_the_package_declares_the_runtime_pins_and_the_synapse_script() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    pins = [
        line.strip()
        for line in (ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assert project["dependencies"] == pins
    assert project["scripts"]["synapse"] == "engine.cli:run"

"""Readers of the user's files never raise: hostile values are reported by file and field."""

from __future__ import annotations

import json
import os
import string
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

from engine.workspace.front_matter import parse_note
from engine.workspace.notes import FileStamp, Store
from engine.workspace.references import load_references, page_label
from engine.workspace.stores import load_workspace
from engine.workspace.vault import VaultFolder, parse_vault_note
from tests.apptest import clear_caches  # noqa: F401 (empties Streamlit's caches per test)
from tests.conftest import ROOT

DEEP = "[" * 100_000 + "]" * 100_000
SIGNAL = "Does the momentum signal skip the most recent month?"
FIELDS = (
    "id", "type", "title", "source", "quotes", "links", "tether", "equation", "figure", "data",
    "tree", "tags", "aliases", "body", "page", "target", "relation", "path", "pin", "anchor",
    "author", "family", "literal", "given", "issued", "date-parts", "raw", "items", "text",
    "color", "labels", "non-dropping-particle", "vault", "canon", "practice", "federated",
    "repo", "box", "contest", "file", "column", "agg", "where", "value", "tolerance",
)  # fmt: skip
_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False),
    st.sampled_from(("finding", "decision", "jt1993", "zk:finance:z-mom-01", "../x", "")),
    st.text(string.printable + "é\u200b\u202e\x00", max_size=12),
)
values = st.recursive(
    _scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(
            st.one_of(st.sampled_from(FIELDS), st.text(max_size=5)), children, max_size=5
        ),
    ),
    max_leaves=25,
)
CSL_KEYS = ("id", "title", "author", "issued", "family", "literal", "date-parts", "raw")
csl_items = st.lists(
    st.fixed_dictionaries(
        {"id": st.one_of(st.text(max_size=4), st.integers())},
        optional={key: values for key in CSL_KEYS[1:]},
    ),
    max_size=4,
)
examples = settings(
    max_examples=int(os.environ.get("SYNAPSE_FUZZ_EXAMPLES", 150)),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


def _workspace(tmp_path: Path) -> Path:
    """A fresh workspace folder per example: readers cache by file size and mtime."""
    root = Path(tempfile.mkdtemp(dir=tmp_path))
    (root / ".memory").mkdir()
    (root / "sources").mkdir()
    return root


@examples
@given(value=st.one_of(csl_items, values))
def test_references_json_never_raises(tmp_path: Path, value: object) -> None:
    root = _workspace(tmp_path)
    (root / "references.json").write_text(json.dumps(value))
    refs = load_references(root)
    assert all(isinstance(p, str) and p.startswith("references.json") for p in refs.problems)
    assert all(isinstance(r.title, str) for r in refs.by_key.values())


@examples
@given(text=st.text(string.printable + "{}@\\é", max_size=300))
def test_references_bib_never_raises(tmp_path: Path, text: str) -> None:
    root = _workspace(tmp_path)
    (root / "references.bib").write_text("@article{k, author = {" + text + "}}\n" + text)
    assert all(p.startswith("references.bib") for p in load_references(root).problems)


@examples
@given(value=values)
def test_highlights_never_raise(tmp_path: Path, value: object) -> None:
    root = _workspace(tmp_path)
    (root / "sources/k.annotations.json").write_text(json.dumps(value))
    found, problems = load_workspace(root).read_annotations("k")
    assert all(isinstance(a.text, str) for a in found)
    assert all(p.startswith("sources/k.annotations.json") for p in problems)


@examples
@given(meta=st.dictionaries(st.sampled_from(FIELDS), values, max_size=8), as_json=st.booleans())
def test_front_matter_never_raises(tmp_path: Path, meta: object, as_json: bool) -> None:
    front = json.dumps(meta) if as_json else yaml.safe_dump(meta, allow_unicode=True)
    data = f"---\n{front}\n---\nA body with [[a link]] and #tag.\n".encode()
    parsed = parse_note(data, store=Store.CANON, source="box", path="n.md", root=tmp_path)
    assert parsed.note is not None or parsed.problems
    folder = VaultFolder("Lit", Store.CANON, "Lit")
    vault = parse_vault_note(
        data, folder, "n.md", rel="Lit/n.md", root=tmp_path, stamp=FileStamp.of(data, mtime_ns=0)
    )
    assert vault.note is not None or vault.problems


@examples
@given(text=st.text(string.printable + "[]{}é", max_size=200))
def test_workspace_toml_never_raises(tmp_path: Path, text: str) -> None:
    root = _workspace(tmp_path)
    (root / "workspace.toml").write_text("[vault]\ncanon = " + text + "\n" + text)
    workspace = load_workspace(root)
    assert all(isinstance(p.problem, str) for p in workspace.report)


def _references(root: Path) -> object:
    return load_references(root).problems


def _highlights(root: Path) -> object:
    return load_workspace(root).read_annotations("k")


def _labels(root: Path) -> object:
    return page_label(root, "k", 2)


def _load(root: Path) -> object:
    return load_workspace(root).report


@pytest.mark.parametrize(
    ("relative", "content", "read", "named"),
    [
        ("references.json", DEEP, _references, "nested deeper than 64 levels"),
        ("references.json", '[{"id": "k", "author": 5}]', _references, "author is a number"),
        ("references.json", '[{"id": "k", "title": []}]', _references, "title is a list"),
        ("sources/k.annotations.json", DEEP, _highlights, "nested deeper"),
        ("sources/k.annotations.json", '[{"text": 5}]', _highlights, "highlight 1 has no text"),
        ("sources/k.pdf.json", DEEP, _labels, "2"),
        ("workspace.toml", "a = " + DEEP, _load, "nested deeper than 64 levels"),
        (".memory/d.md", "---\nid: d\ntype: decision\ntitle: " + DEEP + "\n---\n", _load, "YAML"),
    ],
    ids=[
        "csl-deep",
        "csl-author-number",
        "csl-title-list",
        "highlights-deep",
        "highlight-text-number",
        "sidecar-deep",
        "toml-deep",
        "front-matter-deep",
    ],
)
def test_deep_nesting_and_wrong_types_are_reported_not_raised(
    tmp_path: Path, relative: str, content: str, read: Callable[[Path], object], named: str
) -> None:
    root = _workspace(tmp_path)
    (root / relative).write_text(content)
    assert named in str(read(root))


@pytest.mark.parametrize(
    ("content", "named"),
    [
        (json.dumps([{"id": "jt1993", "author": 5, "title": "T"}]), "author is a number"),
        (DEEP, "nested deeper than 64 levels"),
    ],
    ids=["author-number", "100k-deep"],
)
def test_the_reasoning_dag_page_shows_a_bad_references_file_instead_of_crashing(
    lab_path: Path, monkeypatch: pytest.MonkeyPatch, content: str, named: str
) -> None:
    (lab_path / "references.json").write_text(content)
    monkeypatch.setenv("SYNAPSE_WORKSPACE", str(lab_path))
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    at.switch_page("pages/navigate.py").run()
    at.text_area(key="question").input(SIGNAL)
    at.button(key="ask").click().run()
    at.switch_page("pages/reasoning_dag.py").run()
    assert not at.exception, at.exception
    captions = [c.value for c in at.caption]
    assert any("references.json" in c and named in c for c in captions), captions

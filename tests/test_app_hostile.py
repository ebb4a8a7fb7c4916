"""Page tests with hostile or unusable app state: `.synapse/` files full of markup, none at all."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from tests.apptest import clear_caches  # noqa: F401 (empties Streamlit's caches per test)
from tests.test_app import APP, CRASH, PAGES, ask

# An image link makes the browser fetch an outside address; a raw tag would be markup.
MD = "![x](http://203.0.113.9/md.png) **bold** <img src=x onerror=alert(1)>"
UNESCAPED = re.compile(r"(?<!\\)\[x(?<!\\)\]\(|(?<!\\)<img")


def hostile_overlay() -> dict[str, Any]:
    edge = {
        "memory_id": "exp-2009-backtest",
        "zk_source": "finance",
        "zk_id": "z-crash-05",
        "relation": "contradicts",
        "confidence": 0.9,
        "claim_strength": None,
        "priority": 0.9,
        "rationale": MD,
        "evidence": MD,
    }
    odd = {**edge, "memory_id": MD, "zk_source": MD, "zk_id": MD}
    return {
        "kind": "claim",
        "built_at": MD,
        "typer": MD,
        "parameters": {"k": MD, MD: MD},
        "counts": {"practice": 1, "typed": 2, "kept": 2, "by_relation": {MD: 1, "supports": 1}},
        "seconds": 0.1,
        "edges": [edge, odd],
    }


def hostile_triage() -> str:
    lines = [
        {
            "at": MD,
            "edge": {"memory_id": key, "zk_source": "finance", "zk_id": "z-crash-05"},
            "decision": "follow-up",
            "note": MD,
        }
        for key in ("exp-2009-backtest", MD)
    ]
    return "".join(json.dumps(line) + "\n" for line in lines)


def rendered_markdown(at: AppTest) -> list[str]:
    """Every string the page hands Streamlit as Markdown."""
    kinds = ("markdown", "caption", "info", "warning", "error", "success", "title", "subheader")
    values = [str(e.value) for kind in kinds for e in getattr(at, kind)]
    values += [str(e.label) for e in at.expander]
    values += [str(e.value) for e in at.toast]
    return values


def test_every_page_escapes_every_field_of_the_overlay_and_triage_files(
    lab_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    links = lab_path / ".synapse" / "links"
    links.mkdir(parents=True)
    (links / "claim_links.json").write_text(json.dumps(hostile_overlay()), encoding="utf-8")
    (lab_path / ".synapse" / "triage.jsonl").write_text(hostile_triage(), encoding="utf-8")
    monkeypatch.setenv("SYNAPSE_WORKSPACE", str(lab_path))
    at = AppTest.from_file(APP, default_timeout=120).run()
    ask(at, CRASH)
    for page in PAGES:
        at.switch_page(page).run()
        assert not at.exception, (page, at.exception)
        shown = rendered_markdown(at)
        assert not [text for text in shown if UNESCAPED.search(text)], page
        assert "<img src=x" not in "\n".join(e.value for e in at.html), page
    at.switch_page("pages/claim_matrix.py").run()
    assert any("bold" in text for text in rendered_markdown(at))  # the counts were shown


@pytest.mark.parametrize(
    "overlay",
    [
        {"kind": "claim", "edges": [{"memory_id": "m", "zk_source": "s", "zk_id": "z",
                                     "relation": MD, "confidence": 1, "priority": 1}]},
        {"kind": MD, "edges": []},
        {"kind": "claim", "counts": {"kept": MD}, "edges": []},
    ],
    ids=["bad-relation", "bad-kind", "non-numeric-count"],
)  # fmt: skip
def test_an_unreadable_overlay_is_explained_escaped(
    lab_path: Path, monkeypatch: pytest.MonkeyPatch, overlay: dict[str, Any]
) -> None:
    links = lab_path / ".synapse" / "links"
    links.mkdir(parents=True)
    (links / "claim_links.json").write_text(json.dumps(overlay), encoding="utf-8")
    monkeypatch.setenv("SYNAPSE_WORKSPACE", str(lab_path))
    at = AppTest.from_file(APP, default_timeout=120).run()
    at.switch_page("pages/claim_matrix.py").run()
    assert not at.exception
    [info] = [e.value for e in at.info if e.value.startswith("No claim overlay yet")]
    assert "unreadable" in info and not UNESCAPED.search(info)


def test_an_unwritable_synapse_folder_still_answers(
    lab_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The index and vectors live in this user's cache, so the workspace's own `.synapse`
    # being a file costs no answer; it is never replaced.
    (lab_path / ".synapse").write_text("not a folder")
    monkeypatch.setenv("SYNAPSE_WORKSPACE", str(lab_path))
    at = AppTest.from_file(APP, default_timeout=120).run()
    assert not at.exception
    ask(at, CRASH)
    assert not at.exception
    labels = [e.value for e in (*at.success, *at.warning, *at.error)]
    assert any(text.startswith(("ANSWER", "HEDGED ANSWER", "ABSTAIN")) for text in labels)
    assert (lab_path / ".synapse").read_text() == "not a folder"

"""Bundled payload examples: read in file-name order, malformed files skipped."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engine.workspace.examples import PAYLOADS, payload_examples


def write(folder: Path, name: str, **item: Any) -> None:
    (folder / name).write_text(json.dumps(item), encoding="utf-8")


def test_examples_are_read_in_file_name_order_and_bad_files_are_skipped(tmp_path: Path) -> None:
    good = {"title": "T", "expect": "ANSWER", "summary": "S", "payload": {"prose": "x"}}
    write(tmp_path, "02-second.json", key="second", **good)
    write(tmp_path, "01-first.json", key="first", reasons=["stale"], **good)
    write(tmp_path, "03-no-payload.json", key="bad", title="T", expect="ANSWER", summary="S")
    write(tmp_path, "04-bad-reasons.json", key="bad2", reasons="stale", **good)
    (tmp_path / "05-not-json.json").write_text("{", encoding="utf-8")
    found = payload_examples(tmp_path)
    assert [(e.key, e.reasons) for e in found] == [("first", ("stale",)), ("second", ())]
    assert found[0].payload() == {"prose": "x"}


def test_a_missing_folder_gives_no_examples(tmp_path: Path) -> None:
    assert payload_examples(tmp_path / "nowhere") == ()


def test_the_bundled_examples_have_unique_keys() -> None:
    keys = [e.key for e in payload_examples()]
    assert len(keys) == len(set(keys)) == len(list(PAYLOADS.glob("*.json")))

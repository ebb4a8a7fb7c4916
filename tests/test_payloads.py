"""Audited payloads saved in the workspace under a hash of their text, for links to name."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import load_payload, payload_ref, save_payload


def test_a_saved_payload_comes_back_by_its_ref(tmp_path: Path) -> None:
    ref = save_payload(tmp_path, '{"dag": {}}')
    assert ref == payload_ref('{"dag": {}}') and len(ref) == 20
    assert load_payload(tmp_path, ref) == '{"dag": {}}'
    assert (tmp_path / ".synapse" / "payloads" / f"{ref}.json").is_file()
    assert save_payload(tmp_path, '{"dag": {}}') == ref  # the same text, the same file
    assert len(list((tmp_path / ".synapse" / "payloads").iterdir())) == 1


@pytest.mark.parametrize(
    "ref",
    ["../../etc/passwd", "ABCDEF0123456789ABCD", "0" * 19, "0" * 21, "", "0" * 19 + "/"],
    ids=["climbs", "upper-case", "short", "long", "empty", "slash"],
)
def test_a_malformed_ref_names_nothing(tmp_path: Path, ref: str) -> None:
    save_payload(tmp_path, "{}")
    assert load_payload(tmp_path, ref) is None


def test_a_file_changed_after_saving_is_not_returned(tmp_path: Path) -> None:
    ref = save_payload(tmp_path, '{"a": 1}')
    (tmp_path / ".synapse" / "payloads" / f"{ref}.json").write_text('{"a": 2}')
    assert load_payload(tmp_path, ref) is None
    assert load_payload(tmp_path, payload_ref("missing")) is None

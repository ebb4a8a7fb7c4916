"""Every setting is read in one typed place and documented in one README table."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.core.environment import VARIABLES, environment

ROOT = Path(__file__).resolve().parents[1]


def test_the_readme_table_lists_every_variable_once() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(SYNAPSE_[A-Z_]+)`", readme, flags=re.MULTILINE)
    assert sorted(rows) == sorted(VARIABLES)


def test_no_module_but_the_settings_reads_a_synapse_variable() -> None:
    readers = []
    for path in [
        *ROOT.glob("engine/**/*.py"),
        *ROOT.glob("webapp/*.py"),
        *ROOT.glob("pages/*.py"),
        ROOT / "app.py",
    ]:
        text = path.read_text(encoding="utf-8")
        if re.search(r"(environ\.get|getenv|environ\[)\(?\s*[\"']SYNAPSE_", text):
            readers.append(path.relative_to(ROOT).as_posix())
    assert readers == []


@pytest.mark.parametrize(
    ("env", "field", "value"),
    [
        ({}, "encoder", None),
        ({"SYNAPSE_ENCODER": " none "}, "encoder", "none"),
        ({"SYNAPSE_ENCODER_THREADS": "3"}, "encoder_threads", 3),
        ({"SYNAPSE_ENCODER_THREADS": "0"}, "encoder_threads", None),
        ({"SYNAPSE_ENCODER_THREADS": "two"}, "encoder_threads", None),
        ({"SYNAPSE_OPEN_WAIT": "1.5"}, "open_wait", 1.5),
        ({"SYNAPSE_OPEN_WAIT": "-2"}, "open_wait", 0.0),
        ({"SYNAPSE_OPEN_WAIT": "soon"}, "open_wait", None),
        ({"SYNAPSE_WORKSPACES_ROOT": "/a::/b "}, "workspaces_roots", ("/a", "/b")),
        ({"SYNAPSE_MINILM_FOLDED": "0"}, "minilm_folded", False),
        ({"SYNAPSE_MINILM_FOLDED": "1"}, "minilm_folded", True),
        ({"SYNAPSE_STATE_DIR": "/s"}, "state_dir", Path("/s")),
        ({"SYNAPSE_STATE_DIR": ""}, "state_dir", None),
    ],
    ids=[
        "encoder-unset",
        "encoder-trimmed",
        "threads",
        "threads-zero-is-unset",
        "threads-not-a-number",
        "wait",
        "wait-never-negative",
        "wait-not-a-number",
        "roots-split-and-trimmed",
        "folded-zero",
        "folded",
        "state-dir",
        "state-dir-empty",
    ],
)
def test_each_variable_reads_as_its_type(env: dict[str, str], field: str, value: object) -> None:
    assert getattr(environment(env), field) == value

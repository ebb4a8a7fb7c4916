"""Shared fixtures: copies of the example workspaces, so tests never write into the repo."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.api import OpenWorkspace, open_workspace
from engine.core.encoder import ENV_ENCODER
from engine.datasets.scifact import import_scifact
from tests.workspaces import VARIANTS, make_workspace

ROOT = Path(__file__).resolve().parent.parent
# Page tests read the page as drawn once the workspace is open, however loaded the machine.
os.environ.setdefault("SYNAPSE_OPEN_WAIT", "300")
# The index's sealing key lives in a folder of the test run's own, never the user's.
os.environ.setdefault(
    "SYNAPSE_STATE_DIR",
    str(Path(os.environ.get("TMPDIR", "/tmp")) / f"synapse-state-{os.getpid()}"),
)
MOMENTUM_LAB = VARIANTS["momentum-lab"]
# Tests on the SciFact workspaces ask on words alone: encoding their sentences (about 3,000
# for the slice, 51,817 for the demo) would cost minutes a run. Meaning is tested on the
# small example workspaces, where it is the product's default.
SCIFACT_FIXTURES = frozenset({"scifact_demo", "scifact_slice"})


@pytest.fixture(autouse=True)
def _scifact_on_words_alone(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch):
    if SCIFACT_FIXTURES & set(request.fixturenames):
        monkeypatch.setenv(ENV_ENCODER, "none")


@pytest.fixture
def lab_path(tmp_path: Path) -> Path:
    """A fresh copy of the momentum-lab workspace."""
    return make_workspace(tmp_path, "momentum-lab")


@pytest.fixture
def lab(lab_path: Path) -> Iterator[OpenWorkspace]:
    """That copy, opened and indexed; closed after the test."""
    opened = open_workspace(lab_path)
    yield opened
    opened.close()


@pytest.fixture(scope="session")
def lab_questions() -> list[dict]:
    lines = (MOMENTUM_LAB / "questions.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


@pytest.fixture(scope="session")
def scifact_slice(tmp_path_factory) -> Path:
    """A real SciFact workspace of the first 300 abstracts and the claims citing them."""
    out = tmp_path_factory.mktemp("scifact") / "scifact"
    import_scifact(
        ROOT / "data/scifact/corpus.jsonl.gz",
        ROOT / "data/scifact/claims_train.jsonl",
        out,
        limit=300,
    )
    return out


@pytest.fixture(scope="session")
def scifact_demo(tmp_path_factory) -> Path:
    """The whole SciFact demo workspace (every abstract, every train claim), indexed."""
    out = tmp_path_factory.mktemp("scifact-demo") / "scifact"
    import_scifact(
        ROOT / "data/scifact/corpus.jsonl.gz", ROOT / "data/scifact/claims_train.jsonl", out
    )
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(ENV_ENCODER, "none")
        open_workspace(out).close()
    return out

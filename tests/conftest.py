"""Shared fixtures: copies of the example workspaces, so tests never write into the repo."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.api import OpenWorkspace, open_workspace
from engine.core.environment import ENV_ENCODER
from engine.models.encoder import EncoderChoice
from engine.workspace.caches import VECTORS_DIR, cache_folder
from tests.workspaces import VARIANTS, built_once, make_workspace, scifact_workspace

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


# Files whose tests take the longest start first, so that the workers finish together
# instead of one running a slow browser module alone at the end (`make test` passes
# --no-loadscope-reorder, or xdist would order files by their number of tests instead).
SLOW_FIRST = (  # by each file's total time in a full run, longest first
    "test_soundness.py",
    "test_load.py",
    "test_browser_triage_flow.py",
    "test_browser_journeys.py",
    "test_browser_links.py",
    "test_router_properties.py",
    "test_browser_answers.py",
    "test_browser_evidence_table.py",
    "test_browser_library_page.py",
    "test_answer_cases.py",
    "test_app.py",
    "test_cluster_batch.py",
    "test_browser_history.py",
    "test_browser_reasons.py",
    "test_browser_triage.py",
    "test_crash_safety.py",
    "test_browser_examples.py",
    "test_browser_audit.py",
    "test_browser_bands.py",
    "test_browser.py",
    "test_cluster_imports.py",
    "test_browser_triage_sides.py",
    "test_browser_library.py",
    "test_browser_hostile.py",
    "test_app_url.py",
    "test_pdf_budget.py",
    "test_browser_ask_keys.py",
    "test_app_state.py",
    "test_browser_vault.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {name: at for at, name in enumerate(SLOW_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))


@pytest.fixture(autouse=True)
def _scifact_on_words_alone(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
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
def lab_questions() -> list[dict[str, Any]]:
    assert MOMENTUM_LAB is not None, "the momentum-lab example ships with the repository"
    lines = (MOMENTUM_LAB / "questions.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


@pytest.fixture(scope="session")
def scifact_slice(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A real SciFact workspace of the first 300 abstracts and the claims citing them, indexed."""
    path = built_once(tmp_path_factory, "scifact-300", lambda out: scifact_workspace(out, 300))
    yield path
    _never_encoded(path)


@pytest.fixture(scope="session")
def scifact_demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The whole SciFact demo workspace (every abstract, every train claim), indexed."""
    path = built_once(tmp_path_factory, "scifact-demo", scifact_workspace)
    yield path
    _never_encoded(path)


@pytest.fixture(scope="module")
def demo(scifact_demo: Path) -> Iterator[OpenWorkspace]:
    """That demo opened on words alone, for a module's tests to ask."""
    opened = open_workspace(scifact_demo, encoder=EncoderChoice(None, "words alone"))
    yield opened
    opened.close()


def _never_encoded(path: Path) -> None:
    # A module fixture that opens a SciFact workspace runs before the autouse fixture above
    # and must put itself on words alone; one that forgot costs minutes of encoding a run.
    vectors = sorted(p.name for p in (cache_folder(path) / VECTORS_DIR).glob("*"))
    assert not vectors, f"a test encoded the shared SciFact workspace {path.name}: {vectors}"

"""Each user's cache folder per workspace: found by path, seeded once when moved, copied or old."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from engine.api import open_workspace
from engine.workspace.caches import (
    cache_folder,
    index_path,
    read_origin,
    vectors_path,
    workspace_id,
)
from engine.workspace.embeddings import VectorStats
from engine.workspace.index import UpdateStats
from engine.workspace.layout import ID_FILE
from tests.workspaces import make_workspace


def _opened(root: Path) -> tuple[UpdateStats, VectorStats]:
    opened = open_workspace(root)
    opened.close()
    vectors = opened.meaning.stats
    assert vectors is not None
    return opened.stats, vectors


def test_derived_files_live_in_the_state_folder_and_the_workspace_keeps_its_id(
    tmp_path: Path,
) -> None:
    lab = make_workspace(tmp_path)
    stats, vectors = _opened(lab)
    assert stats.added == 20 and vectors.encoded > 0
    assert index_path(lab).is_file() and vectors_path(lab, "minilm").is_file()
    assert sorted(p.name for p in (lab / ".synapse").iterdir()) == ["workspace-id"]
    origin = read_origin(lab)
    assert origin is not None and (origin.path, origin.seeded) == (str(lab.resolve()), "")
    assert origin.identity == workspace_id(lab)


@pytest.mark.parametrize("how", ["moved", "copied"], ids=["moved", "copied"])
def test_a_moved_or_copied_workspace_starts_from_the_originals_cache(
    tmp_path: Path, how: str
) -> None:
    lab = make_workspace(tmp_path)
    _opened(lab)
    other = tmp_path / "elsewhere"
    (shutil.move if how == "moved" else shutil.copytree)(lab, other)
    stats, vectors = _opened(other)
    assert (stats.added, stats.changed, vectors.encoded) == (0, 0, 0)
    assert cache_folder(other) != cache_folder(lab)
    origin = read_origin(other)
    assert origin is not None and origin.seeded == str(cache_folder(lab))
    if how == "copied":  # from now on each copy keeps its own cache
        (other / ".memory/deci-a7688a22.md").unlink()
        assert _opened(other)[0].removed == 1
        assert _opened(lab)[0].removed == 0


def test_an_index_left_in_the_workspace_seeds_once_and_is_kept(tmp_path: Path) -> None:
    lab = make_workspace(tmp_path)
    _opened(lab)
    legacy = lab / ".synapse"
    (legacy / "vectors").mkdir()
    shutil.copy(vectors_path(lab, "minilm"), legacy / "vectors/minilm.bin")
    with sqlite3.connect(index_path(lab)) as db, sqlite3.connect(legacy / "index.sqlite") as out:
        db.backup(out)
    shutil.rmtree(cache_folder(lab))
    (legacy / "workspace-id").unlink()
    before = {p.name: p.read_bytes() for p in legacy.rglob("*") if p.is_file()}
    stats, vectors = _opened(lab)
    assert (stats.added, stats.changed, vectors.encoded) == (0, 0, 0)
    origin = read_origin(lab)
    assert origin is not None and origin.seeded == "workspace"
    after = {p.name: p.read_bytes() for p in legacy.rglob("*") if p.is_file()}
    assert {k: v for k, v in after.items() if k != "workspace-id"} == before


@pytest.mark.parametrize(
    "written", ["../../etc", "not hex at all", "", "a" * 64], ids=["path", "words", "empty", "long"]
)
def test_a_malformed_workspace_id_is_ignored(tmp_path: Path, written: str) -> None:
    (tmp_path / ".synapse").mkdir()
    (tmp_path / ID_FILE).write_text(written)
    assert workspace_id(tmp_path) == ""

"""Caches of deleted or moved workspaces are let go; a live workspace's cache never is."""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest

from engine.api import open_workspace
from engine.models.encoder import EncoderChoice
from engine.workspace.cache_prune import STAMP_FILE, prune_caches, prune_now_and_then
from engine.workspace.caches import CACHES_DIR, cache_folder
from tests.cli import invoke
from tests.workspaces import make_workspace

DAY = 86400.0


@pytest.fixture
def state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "state"
    monkeypatch.setenv("SYNAPSE_STATE_DIR", str(folder))
    return folder


def opened_cache(parent: Path, name: str) -> tuple[Path, Path]:
    """A real workspace opened once (its cache built), and that cache's folder."""
    workspace = make_workspace(parent / name, "momentum-lab")
    open_workspace(workspace, encoder=EncoderChoice(None, "words alone")).close()
    folder = cache_folder(workspace)
    assert (folder / "origin.json").is_file()
    return workspace, folder


def age(folder: Path, days: float) -> None:
    then = time.time() - days * DAY
    for path in [folder, *folder.iterdir()]:
        os.utime(path, (then, then), follow_symlinks=False)


def test_only_an_old_cache_of_a_gone_workspace_is_let_go(state: Path, tmp_path: Path) -> None:
    live, live_cache = opened_cache(tmp_path, "live")
    gone, gone_cache = opened_cache(tmp_path, "gone")
    recent, recent_cache = opened_cache(tmp_path, "recent")
    shutil.rmtree(gone)
    shutil.rmtree(recent)
    age(live_cache, 400)
    age(gone_cache, 15)
    pruned = prune_caches()
    assert (pruned.removed, pruned.kept, pruned.missing_kept) == (1, 1, 1)
    assert pruned.removed_bytes > 0
    assert not gone_cache.exists() and live_cache.is_dir() and recent_cache.is_dir()
    assert prune_caches(0).removed == 1 and not recent_cache.exists()
    assert live_cache.is_dir() and live.is_dir()


def test_links_are_never_followed_or_removed(state: Path, tmp_path: Path) -> None:
    gone, cache = opened_cache(tmp_path, "gone")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.txt").write_text("mine")
    (cache / "link").symlink_to(outside, target_is_directory=True)
    decoy = state / CACHES_DIR / ("f" * 32)
    decoy.symlink_to(outside, target_is_directory=True)
    shutil.rmtree(gone)
    age(cache, 30)
    assert prune_caches().removed == 1
    assert not cache.exists() and decoy.is_symlink()
    assert (outside / "keep.txt").read_text() == "mine"


def test_opening_lets_old_caches_go_once_a_day(state: Path, tmp_path: Path) -> None:
    gone, cache = opened_cache(tmp_path, "gone")
    shutil.rmtree(gone)
    age(cache, 30)
    stamp = state / CACHES_DIR / STAMP_FILE
    os.utime(stamp, (time.time() - 2 * DAY,) * 2)
    opened_cache(tmp_path, "next")
    assert not cache.exists()
    assert prune_now_and_then() is None  # ran an instant ago


def test_the_command_prunes_and_refuses_a_negative_age(state: Path, tmp_path: Path) -> None:
    gone, cache = opened_cache(tmp_path, "gone")
    shutil.rmtree(gone)
    result = invoke("caches", "prune")
    assert result.code == 0 and json.loads(result.out)["missing_kept"] == 1
    assert cache.is_dir()
    result = invoke("caches", "prune", "--unused-days", "0")
    assert result.code == 0 and json.loads(result.out)["removed"] == 1
    assert not cache.exists()
    bad = invoke("caches", "prune", "--unused-days", "-1")
    assert bad.code == 2 and bad.err.startswith("error: ") and bad.err.count("\n") == 1

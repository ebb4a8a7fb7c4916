"""The import writer: what it may replace, what it records, and what it refuses whatever."""

import hashlib
import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from engine.core.errors import WorkspaceError
from engine.workspace.import_writer import Checked, ImportWriter, Refusal
from engine.workspace.layout import JOURNAL_FILE, MANIFEST_FILE
from engine.workspace.manifest import read_record
from tests.cli import invoke
from tests.workspaces import user_bytes

ORIGIN = "pdf:a.pdf"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    (tmp_path / ".memory").mkdir()
    (tmp_path / ".memory/d.md").write_text("mine\n")
    return tmp_path


def _write(
    root: Path, relative: str, data: str, origin: str = ORIGIN, *, replace: bool = False
) -> Checked:
    with ImportWriter(root, "test", replace=replace) as writer:
        return writer.write(relative, data, origin)


def test_it_writes_new_files_and_replaces_only_its_own(root: Path) -> None:
    assert _write(root, "sources/a.txt", "one").allowed
    assert _write(root, "sources/a.txt", "two").allowed
    assert (root / "sources/a.txt").read_text() == "two"
    entry = read_record(root).entries["sources/a.txt"]
    assert entry.origin == ORIGIN and entry.by == "test"
    assert not (root / JOURNAL_FILE).exists()


@pytest.mark.parametrize(
    ("prepare", "refusal"),
    [
        (lambda r: (r / "sources/a.txt").write_text("typed by hand"), Refusal.NOT_OURS),
        (lambda r: _write(r, "sources/a.txt", "x", "pdf:other.pdf"), Refusal.CLASH),
        (
            lambda r: (_write(r, "sources/a.txt", "x"), (r / "sources/a.txt").write_text("edit")),
            Refusal.EDITED,
        ),
    ],
    ids=["not-imported", "other-origin", "edited"],
)
def test_replace_is_the_way_past_ownership_refusals(
    root: Path, prepare: Callable[[Path], object], refusal: Refusal
) -> None:
    (root / "sources").mkdir()
    prepare(root)
    before = user_bytes(root)
    checked = _write(root, "sources/a.txt", "new")
    assert checked.refusal is refusal and "sources/a.txt" in checked.reason
    assert user_bytes(root) == before
    assert _write(root, "sources/a.txt", "new", replace=True).allowed
    assert (root / "sources/a.txt").read_text() == "new"


@pytest.mark.parametrize(
    ("plant", "refusal"),
    [
        (lambda r: (r / "sources/a.txt").symlink_to("../.memory/d.md"), Refusal.SYMLINK),
        (lambda r: os.link(r / ".memory/d.md", r / "sources/a.txt"), Refusal.HARD_LINK),
        (lambda r: os.mkfifo(r / "sources/a.txt"), Refusal.NOT_A_FILE),
        (lambda r: (r / "sources/a.txt").mkdir(), Refusal.NOT_A_FILE),
    ],
    ids=["symlink", "hard-link", "fifo", "folder"],
)
def test_links_and_special_files_are_refused_even_with_replace(
    root: Path, plant: Callable[[Path], object], refusal: Refusal
) -> None:
    (root / "sources").mkdir()
    plant(root)
    before = user_bytes(root)
    assert _write(root, "sources/a.txt", "new", replace=True).refusal is refusal
    assert user_bytes(root) == before
    assert (root / ".memory/d.md").read_text() == "mine\n"


@pytest.mark.parametrize(
    "relative",
    ["../outside.txt", "/etc/x", ".synapse/index.sqlite", "sources/" + "n" * 300, "a\x00b"],
    ids=["climbs", "absolute", "app-folder", "name-too-long", "nul"],
)
def test_unsafe_names_are_refused_with_the_reason(root: Path, relative: str) -> None:
    checked = _write(root, relative, "x")
    assert checked.refusal is Refusal.UNSAFE_NAME and checked.reason.startswith("cannot be")


def test_it_removes_only_what_it_wrote(root: Path) -> None:
    _write(root, "sources/a.txt", "one")
    (root / "sources/b.txt").write_text("mine")
    with ImportWriter(root, "test") as writer:
        assert writer.remove("sources/a.txt", ORIGIN).allowed
        assert writer.remove("sources/b.txt", ORIGIN).refusal is Refusal.NOT_OURS
    assert sorted(p.name for p in (root / "sources").iterdir()) == ["b.txt"]
    assert "sources/a.txt" not in read_record(root).entries


def test_an_unreadable_manifest_makes_nothing_ours(root: Path) -> None:
    _write(root, "sources/a.txt", "one")
    (root / MANIFEST_FILE).write_text("[" * 100_000)
    with ImportWriter(root, "test") as writer:
        checked = writer.write("sources/a.txt", "two", ORIGIN)
        assert writer.problems and "nested deeper" in writer.problems[0]
    assert checked.refusal is Refusal.NOT_OURS
    assert (root / "sources/a.txt").read_text() == "one"


def test_a_torn_journal_line_is_skipped_and_whole_ones_still_prove_ownership(root: Path) -> None:
    (root / "sources").mkdir()
    (root / "sources/a.txt").write_text("killed mid-run")
    sha = hashlib.sha256(b"killed mid-run").hexdigest()
    line = {"path": "sources/a.txt", "sha256": sha, "origin": ORIGIN, "by": "test"}
    (root / ".synapse/imports").mkdir(parents=True)
    (root / JOURNAL_FILE).write_text(json.dumps(line) + '\n{"path": "sources/b.t')
    assert _write(root, "sources/a.txt", "finished").allowed
    assert not (root / JOURNAL_FILE).exists()
    assert read_record(root).entries["sources/a.txt"].sha256 != sha


def test_a_linked_app_folder_stops_the_import_before_anything_is_written(root: Path) -> None:
    (root / ".synapse").symlink_to(".memory")
    with pytest.raises(WorkspaceError, match="link"):
        ImportWriter(root, "test")
    code, _, err = invoke("sources", "add", root / ".memory/d.md", "--workspace", root)
    assert code == 2 and err.startswith("error:") and "link" in err
    assert (root / ".memory/d.md").read_text() == "mine\n"

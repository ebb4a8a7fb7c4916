"""Which folders a link may open: under a root, named, or opened in the app before."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.workspace.trusted import KNOWN_FILE, known_workspaces, link_may_open
from engine.workspace.trusted import remember_workspace as remember

# (folder the link names, whether it may open) with roots = [root], folders = [named].
CASES = [
    ("root", True),
    ("root/lab", True),
    ("root/deep/lab", True),
    ("root-sibling/lab", False),  # shares the root's name as a prefix, lies outside it
    ("root/../elsewhere", False),
    ("root/door", False),  # a link inside the root that leads out of it
    ("named", True),
    ("named/inside", False),  # a named folder is that folder, not a root
    ("elsewhere", False),
]


@pytest.fixture
def place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SYNAPSE_STATE_DIR", str(tmp_path / "state"))
    for folder in ("root/lab", "root/deep/lab", "root-sibling/lab", "elsewhere", "named/inside"):
        (tmp_path / folder).mkdir(parents=True)
    (tmp_path / "root" / "door").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    return tmp_path


@pytest.mark.parametrize(("folder", "allowed"), CASES, ids=[c[0] for c in CASES])
def test_a_link_opens_a_folder_under_a_root_or_named(
    place: Path, folder: str, allowed: bool
) -> None:
    roots, folders = [place / "root"], [place / "named"]
    assert link_may_open(place / folder, roots, folders) is allowed


def test_a_folder_opened_in_the_app_is_remembered_for_links(place: Path) -> None:
    assert not link_may_open(place / "elsewhere")
    remember(place / "root" / "door")  # remembered as where it leads
    assert link_may_open(place / "elsewhere")
    assert known_workspaces() == ((place / "elsewhere").resolve(),)


def test_an_unreadable_list_remembers_nothing_and_is_replaced(place: Path) -> None:
    (place / "state").mkdir()
    (place / "state" / KNOWN_FILE).write_text("{not json", "utf-8")
    assert known_workspaces() == ()
    remember(place / "elsewhere")
    assert link_may_open(place / "elsewhere")

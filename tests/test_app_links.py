"""A link opens no folder by itself: only one this user opened in the app, or one under a root."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from engine import ENV_WORKSPACES_ROOT
from tests.apptest import clear_caches  # noqa: F401 (empties Streamlit's caches per test)
from tests.test_app import APP, CRASH, banner
from tests.test_app_url import fresh, url_of
from tests.workspaces import make_workspace, user_bytes
from webapp.serve import take_workspaces_roots

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
REFUSED = "This link names a workspace folder that has not been opened in this app."


@pytest.fixture
def stranger(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A workspace no one opened in the app, beside the server's default one elsewhere."""
    default = make_workspace(tmp_path / "server", "momentum-lab", name="default-lab")
    monkeypatch.setenv("SYNAPSE_WORKSPACE", str(default))
    monkeypatch.delenv(ENV_WORKSPACES_ROOT, raising=False)
    return make_workspace(tmp_path / "elsewhere", "momentum-lab", name="their-lab").resolve()


def refused(at: AppTest) -> bool:
    return any(w.value == REFUSED for w in at.warning)


def type_folder(at: AppTest, folder: Path) -> AppTest:
    return at.text_input(key="workspace_path").input(str(folder)).run()


def test_a_link_to_a_folder_never_opened_reads_and_writes_nothing_there(stranger: Path) -> None:
    before = user_bytes(stranger)
    at = fresh({"ws": str(stranger), "q": CRASH}, "pages/navigate.py")
    assert not at.exception
    assert not (stranger / ".synapse").exists()
    assert user_bytes(stranger) == before
    assert refused(at) and str(stranger) in [c.value for c in at.code]
    assert "Workspace folder" in "\n".join(m.value for m in at.markdown)
    assert at.text_input(key="workspace_path").value != str(stranger)
    labels = [e.value for e in (*at.success, *at.warning, *at.error)]
    assert not any(t.startswith(("ANSWER", "HEDGED", "ABSTAIN")) for t in labels)


def test_typing_the_refused_folder_opens_it_with_the_link_question(stranger: Path) -> None:
    at = fresh({"ws": str(stranger), "q": CRASH}, "pages/navigate.py")
    type_folder(at, stranger)
    assert not at.exception and not refused(at)
    assert banner(at).startswith("ABSTAIN — refuted source")
    assert url_of(at)["ws"] == str(stranger)


def test_a_folder_opened_in_the_sidebar_opens_from_a_link_later(stranger: Path) -> None:
    at = AppTest.from_file(APP, default_timeout=120).run()
    type_folder(at, stranger)
    assert not at.exception and (stranger / ".synapse").is_dir()
    later = fresh({"ws": str(stranger), "q": CRASH}, "pages/navigate.py")
    assert not refused(later)
    assert banner(later).startswith("ABSTAIN — refuted source")


def test_stay_leaves_the_link_and_shows_the_open_workspace(stranger: Path) -> None:
    at = fresh({"ws": str(stranger), "q": CRASH}, "pages/navigate.py")
    assert at.button(key="link_continue").label == "Stay in default-lab"
    at.button(key="link_continue").click().run()
    assert not at.exception and not refused(at)
    assert url_of(at).get("ws") != str(stranger) and "q" not in url_of(at)
    assert not (stranger / ".synapse").exists()


def test_a_link_under_the_servers_workspaces_root_opens(
    stranger: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV_WORKSPACES_ROOT, str(stranger.parent))
    at = fresh({"ws": str(stranger), "q": CRASH}, "pages/navigate.py")
    assert not refused(at)
    assert banner(at).startswith("ABSTAIN — refuted source")


def test_a_link_through_a_symlink_under_the_root_leading_out_is_refused(
    stranger: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    inside = stranger.parent.parent / "root"
    inside.mkdir()
    (inside / "door").symlink_to(stranger, target_is_directory=True)
    monkeypatch.setenv(ENV_WORKSPACES_ROOT, str(inside))
    at = fresh({"ws": str(inside / "door"), "q": CRASH}, "pages/navigate.py")
    assert not (stranger / ".synapse").exists() and refused(at)


def test_the_bundled_examples_always_open_from_a_link(stranger: Path) -> None:
    lab = Path(APP).parent / "examples" / "momentum-lab"
    at = fresh({"ws": str(lab)}, "pages/home.py")
    assert not refused(at)
    assert at.text_input(key="workspace_path").value == str(lab)


def test_the_server_option_sets_the_root_and_leaves_streamlit_its_options(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(ENV_WORKSPACES_ROOT, raising=False)
    rest = take_workspaces_roots(["--workspaces-root", str(tmp_path), "--server.port", "9"])
    assert rest == ["--server.port", "9"]
    assert os.environ[ENV_WORKSPACES_ROOT] == str(tmp_path.resolve())

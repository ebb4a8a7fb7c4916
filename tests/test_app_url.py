"""The state round trip through AppTest: every page's view comes back from its URL alone."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from engine import ENV_WORKSPACES_ROOT, read_overlay, review_matrix, save_payload
from engine.api import open_workspace
from present.gallery import example
from tests.apptest import clear_caches  # noqa: F401 (empties Streamlit's caches per test)
from tests.browser_support import save_review_overlay
from tests.test_app import APP, CRASH, SIGNAL, ask, banner, html
from tests.workspaces import make_workspace

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def two_labs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """The lab a link names, and another one the server opens by default.

    The server is started with the folder holding both as its workspaces root, so a link
    may open the first (`tests/test_app_links.py` shows a link refused without it).
    """
    linked = make_workspace(tmp_path, "momentum-lab", name="linked-lab")
    other = make_workspace(tmp_path, "momentum-lab", name="default-lab")
    monkeypatch.setenv("SYNAPSE_WORKSPACE", str(other))
    monkeypatch.setenv(ENV_WORKSPACES_ROOT, str(tmp_path))
    return linked.resolve(), other.resolve()


def fresh(params: dict[str, str], page: str) -> AppTest:
    """A new session opening `page` with the URL `params` (a reload or a shared link).

    AppTest finds a page by its path only after a first run; that run is a bare session on
    the server's default workspace, which the link then has to override.
    """
    at = AppTest.from_file(APP, default_timeout=120).run()
    for name, value in params.items():
        at.query_params[name] = value
    at.switch_page(page)
    return at.run()


def url_of(at: AppTest) -> dict[str, str]:
    return {name: str(value) for name, value in at.query_params.items()}


@pytest.mark.parametrize(
    "page", ["pages/navigate.py", "pages/reasoning_dag.py", "pages/traceability.py"], ids=str
)
def test_an_answer_page_comes_back_from_its_url_in_the_linked_workspace(
    two_labs: tuple[Path, Path], page: str
) -> None:
    linked, _ = two_labs
    at = fresh({"ws": str(linked), "q": CRASH}, page)
    assert not at.exception
    assert at.text_input(key="workspace_path").value == str(linked)
    assert banner(at).startswith("ABSTAIN — refuted source")
    assert url_of(at)["ws"] == str(linked) and url_of(at)["q"] == CRASH
    if page == "pages/navigate.py":
        assert at.text_area(key="question").value == CRASH


def test_a_session_written_url_reproduces_navigate_with_its_open_source(
    two_labs: tuple[Path, Path],
) -> None:
    linked, _ = two_labs
    at = fresh({"ws": str(linked)}, "pages/navigate.py")
    ask(at, SIGNAL)
    source = next(b for b in at.button if (b.key or "").startswith("ask_cite_"))
    source.click().run()
    first = url_of(at)
    assert first["ws"] == str(linked) and first["q"] == SIGNAL and first["cite"]
    again = fresh(first, "pages/navigate.py")
    assert banner(again) == banner(at)
    assert url_of(again) == first
    assert "class='evidence'" in html(again)


def test_the_start_page_shows_the_linked_workspace(two_labs: tuple[Path, Path]) -> None:
    linked, _ = two_labs
    at = fresh({"ws": str(linked)}, "pages/home.py")
    shown = " ".join(m.value for m in at.markdown)
    assert "linked-lab" in shown and "default-lab" not in shown


def edge_tokens(root: Path) -> list[str]:
    """The edge tokens of the workspace's claim matrix."""
    opened = open_workspace(root)
    try:
        overlay = read_overlay(root).overlay
        assert overlay is not None
        frame, _ = review_matrix(overlay, opened.workspace, root)
    finally:
        opened.close()
    return list(frame["edge_id"])


def test_the_claim_matrix_filters_search_and_edge_come_back_from_the_url(
    two_labs: tuple[Path, Path],
) -> None:
    linked, _ = two_labs
    save_review_overlay(linked)
    at = fresh({"ws": str(linked)}, "pages/claim_matrix.py")
    at.multiselect(key="matrix_relations").set_value(["contradicts"]).run()
    at.text_input(key="matrix_search").input("backtest").run()
    at.slider(key="matrix_min_conf").set_value(0.5).run()
    at.selectbox(key="matrix_order").set_value(at.selectbox(key="matrix_order").options[2]).run()
    at.checkbox(key="matrix_pending").check().run()
    first = at.selectbox(key="matrix_pick").value
    other = next(t for t in edge_tokens(linked) if t != first and "backtest" in t)
    at.selectbox(key="matrix_pick").set_value(other).run()
    assert not at.exception
    chosen = at.selectbox(key="matrix_pick").value
    assert chosen == other
    written = url_of(at)
    assert written["rel"] == "contradicts" and written["find"] == "backtest"
    assert written["conf"] == "0.5" and written["pending"] == "1" and written["edge"] == chosen
    again = fresh(written, "pages/claim_matrix.py")
    assert not again.exception
    assert again.multiselect(key="matrix_relations").value == ["contradicts"]
    assert again.text_input(key="matrix_search").value == "backtest"
    assert again.slider(key="matrix_min_conf").value == 0.5
    assert str(again.selectbox(key="matrix_order").value) == str(
        at.selectbox(key="matrix_order").value
    )
    assert again.checkbox(key="matrix_pending").value is True
    assert again.selectbox(key="matrix_pick").value == chosen
    assert url_of(again) == written


def test_the_matrix_keeps_its_filters_across_a_page_switch(two_labs: tuple[Path, Path]) -> None:
    linked, _ = two_labs
    save_review_overlay(linked)
    at = fresh({"ws": str(linked)}, "pages/claim_matrix.py")
    at.text_input(key="matrix_search").input("backtest").run()
    at.query_params.clear()  # what a page switch in the browser does
    at.switch_page("pages/navigate.py").run()
    assert "find" not in at.query_params
    at.query_params.clear()
    at.switch_page("pages/claim_matrix.py").run()
    assert at.text_input(key="matrix_search").value == "backtest"
    assert url_of(at)["find"] == "backtest"


def test_a_bundled_example_audit_comes_back_from_its_url(two_labs: tuple[Path, Path]) -> None:
    linked, _ = two_labs
    at = fresh({"ws": str(linked)}, "pages/audit.py")
    at.selectbox(key="audit_example").set_value("orphan-prose").run()
    at.button(key="audit_load").click().run()
    at.button(key="audit_route").click().run()
    written = url_of(at)
    assert written["example"] == "orphan-prose" and "payload" not in written
    again = fresh(written, "pages/audit.py")
    assert banner(again) == banner(at)
    assert again.text_area(key="audit_text").value == example("orphan-prose").text


def test_a_pasted_audit_is_saved_in_the_workspace_and_comes_back_by_its_hash(
    two_labs: tuple[Path, Path],
) -> None:
    linked, _ = two_labs
    text = example("false-premise").text.replace("\n", " ")
    at = fresh({"ws": str(linked)}, "pages/audit.py")
    at.text_area(key="audit_text").input(text).run()
    at.button(key="audit_route").click().run()
    written = url_of(at)
    assert written["payload"] == save_payload(linked, text)  # the file the link names
    for page in ("pages/audit.py", "pages/reasoning_dag.py"):
        again = fresh(written, page)
        assert banner(again) == banner(at), page
    assert fresh({"ws": str(linked), "payload": "0" * 20}, "pages/audit.py").warning


def test_a_link_with_both_an_answer_and_an_audit_shows_the_one_it_names(
    two_labs: tuple[Path, Path],
) -> None:
    linked, _ = two_labs
    params = {"ws": str(linked), "q": CRASH, "example": "grounded", "shows": "audit"}
    dag = fresh(params, "pages/reasoning_dag.py")
    assert any("payload routed on the Audit page" in c.value for c in dag.caption)
    del params["shows"]
    dag = fresh(params, "pages/reasoning_dag.py")
    assert any(CRASH in c.value for c in dag.caption)

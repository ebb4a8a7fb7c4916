"""Page state through AppTest: forms, the shared link, workspace switches, kept text, landing."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from engine.workspace.examples import landing_examples, read_examples
from tests.apptest import clear_caches  # noqa: F401 (empties Streamlit's caches per test)
from tests.conftest import MOMENTUM_LAB, ROOT
from tests.test_app import APP, CRASH, SIGNAL, ask, banner
from tests.workspaces import make_workspace
from webapp.state import remembered

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def lab_app(lab_path: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv("SYNAPSE_WORKSPACE", str(lab_path))
    return AppTest.from_file(APP, default_timeout=120).run()


def labels(at: AppTest) -> list[str]:
    texts = [e.value for e in (*at.success, *at.warning, *at.error)]
    return [t for t in texts if t.startswith(("ANSWER", "HEDGED ANSWER", "ABSTAIN"))]


def test_an_empty_question_gets_a_message_and_no_answer(lab_app: AppTest) -> None:
    ask(lab_app, "   ")
    assert not lab_app.exception
    assert any("Type a question first" in w.value for w in lab_app.warning)
    assert labels(lab_app) == []


def test_every_page_keeps_the_question_in_the_url(lab_app: AppTest) -> None:
    ask(lab_app, CRASH)
    for page in ("pages/reasoning_dag.py", "pages/claim_matrix.py", "pages/home.py"):
        lab_app.query_params.clear()  # what a page switch in the browser does
        lab_app.switch_page(page).run()
        assert not lab_app.exception, page
        assert lab_app.query_params["q"] == CRASH, page


def test_a_shared_dag_link_reproduces_the_dag(
    lab_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SYNAPSE_WORKSPACE", str(lab_path))
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["q"] = CRASH
    at.run()  # the link opens on the Start page, which shows no banner
    assert not at.exception and not labels(at)
    at.switch_page("pages/reasoning_dag.py").run()
    assert banner(at).startswith("ABSTAIN — refuted source")
    assert "vis.Network" in at.get("iframe")[0].proto.srcdoc


def test_an_emptied_workspace_field_keeps_the_open_workspace(
    lab_app: AppTest, lab_path: Path
) -> None:
    ask(lab_app, SIGNAL)
    assert labels(lab_app)
    lab_app.text_input(key="workspace_path").input("  ").run()
    assert not lab_app.exception
    assert lab_app.text_input(key="workspace_path").value == str(lab_path)
    assert not [e.value for e in lab_app.error if "Cannot open" in e.value]
    assert labels(lab_app)  # the answer on screen belongs to the workspace still open


def test_switching_workspace_clears_the_old_results(lab_app: AppTest, tmp_path: Path) -> None:
    other = make_workspace(tmp_path, "momentum-lab", name="other-lab")
    ask(lab_app, SIGNAL)
    assert labels(lab_app)
    lab_app.text_input(key="workspace_path").input(str(other)).run()
    assert not lab_app.exception
    assert labels(lab_app) == []
    assert lab_app.text_area(key="question").value == ""
    assert "q" not in lab_app.query_params
    lab_app.switch_page("pages/reasoning_dag.py").run()
    assert "Nothing to show yet" in lab_app.info[0].value


def test_a_folder_that_is_not_a_workspace_is_refused_and_left_untouched(
    lab_app: AppTest, tmp_path: Path
) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    lab_app.text_input(key="workspace_path").input(str(empty)).run()
    assert not lab_app.exception
    message = lab_app.sidebar.error[0].value
    assert "is not a workspace" in message and ".zettelkasten/" in message
    assert list(empty.iterdir()) == []
    assert lab_app.sidebar.status[0].state == "error" or lab_app.sidebar.error


def test_the_audit_box_keeps_its_text_across_pages(lab_app: AppTest) -> None:
    lab_app.switch_page("pages/audit.py").run()
    lab_app.text_area(key="audit_text").input('{"dag": "mine"}').run()
    lab_app.switch_page("pages/navigate.py").run()
    lab_app.switch_page("pages/audit.py").run()
    assert lab_app.text_area(key="audit_text").value == '{"dag": "mine"}'


def test_a_question_with_an_address_is_never_a_link(lab_app: AppTest) -> None:
    ask(lab_app, "Is http://203.0.113.9/x a source for momentum crashes?")
    lab_app.switch_page("pages/reasoning_dag.py").run()
    shown = " ".join(c.value for c in lab_app.caption)
    assert "http\u2060://203.0.113.9/x" in shown


def test_the_landing_lists_one_example_per_verdict_and_stance() -> None:
    assert MOMENTUM_LAB is not None
    examples = landing_examples(read_examples(MOMENTUM_LAB))
    assert [e.label for e in examples] == ["ANSWER", "HEDGED ANSWER", "ABSTAIN", "ANSWER"]
    assert [e.stance for e in examples] == ["", "", "", "contradicts"]


@pytest.mark.parametrize("index", range(4))
def test_each_landing_example_asks_on_click_and_reaches_its_verdict(
    lab_app: AppTest, index: int
) -> None:
    assert MOMENTUM_LAB is not None
    example = landing_examples(read_examples(MOMENTUM_LAB))[index]
    lab_app.button(key=f"home_example_{index}").click().run()
    assert not lab_app.exception
    assert banner(lab_app).split(" — ")[0] == example.label
    assert lab_app.query_params["q"] == example.question


def test_the_landing_offers_the_bundled_lab(
    scifact_slice: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SYNAPSE_WORKSPACE", str(scifact_slice))
    at = AppTest.from_file(APP, default_timeout=120).run()
    assert [b.key for b in at.button if (b.key or "").startswith("home_example_")]
    at.button(key="home_lab").click().run()
    assert not at.exception
    chosen = at.text_input(key="workspace_path").value
    assert chosen is not None and Path(chosen) == ROOT / "examples" / "momentum-lab"


@pytest.mark.parametrize(
    ("recent", "asked", "kept"),
    [
        ((), "A?", ("A?",)),
        (("A?",), "B?", ("B?", "A?")),
        (("B?", "A?"), " A? ", ("A?", "B?")),
        (("A?",), "   ", ("A?",)),
        (tuple(f"Q{n}?" for n in range(8)), "New?", ("New?", *(f"Q{n}?" for n in range(7)))),
    ],
    ids=["first", "latest-first", "asked-again-moves-up", "blank-ignored", "at-most-eight"],
)
def test_recent_questions_keep_the_latest_first_once_each(
    recent: tuple[str, ...], asked: str, kept: tuple[str, ...]
) -> None:
    assert remembered(recent, asked) == kept

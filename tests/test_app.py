"""Page tests: the whole app driven through Streamlit's AppTest, no browser."""

from __future__ import annotations

from pathlib import Path

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from engine.scifact import import_scifact
from tests.conftest import ROOT

APP = str(ROOT / "app.py")
PAGES = (
    "pages/navigate.py",
    "pages/reasoning_dag.py",
    "pages/traceability.py",
    "pages/claim_matrix.py",
    "pages/audit.py",
)
CRASH = "Do momentum crashes occur after market rebounds?"
SIGNAL = "Does the momentum signal skip the most recent month?"
PERSIST = "Are momentum profits likely to persist in future samples?"


@pytest.fixture(autouse=True)
def clear_caches():
    st.cache_data.clear()
    st.cache_resource.clear()
    yield
    st.cache_data.clear()
    st.cache_resource.clear()


@pytest.fixture(scope="session")
def scifact_slice(tmp_path_factory) -> Path:
    """A small SciFact workspace: the first abstracts and the claims citing them."""
    out = tmp_path_factory.mktemp("scifact") / "slice"
    data = ROOT / "data" / "scifact"
    import_scifact(data / "corpus.jsonl.gz", data / "claims_train.jsonl", out, limit=120)
    return out


@pytest.fixture
def lab_app(lab_path, monkeypatch) -> AppTest:
    monkeypatch.setenv("SYNAPSE_WORKSPACE", str(lab_path))
    return AppTest.from_file(APP, default_timeout=120).run()


def slice_question(root: Path) -> str:
    """The text of one of the slice's practice entries, which its abstracts should answer."""
    entry = sorted((root / ".memory").glob("*.md"))[0].read_text(encoding="utf-8")
    return next(line for line in entry.splitlines() if line.startswith("title: "))[7:]


def ask(at: AppTest, question: str) -> AppTest:
    at.text_input(key="question").input(question)
    return at.button(key="ask").click().run()


def banner(at: AppTest) -> str:
    texts = [e.value for e in (*at.success, *at.warning, *at.error)]
    labels = [t for t in texts if t.startswith(("ANSWER", "HEDGED ANSWER", "ABSTAIN"))]
    assert len(labels) == 1, texts
    return labels[0]


def html(at: AppTest) -> str:
    return "\n".join(element.value for element in at.html)


def visit_every_page(at: AppTest) -> None:
    for page in PAGES:
        at.switch_page(page).run()
        assert not at.exception, (page, at.exception)


def test_every_page_renders_on_momentum_lab(lab_app):
    assert not lab_app.exception
    visit_every_page(lab_app)
    lab_app.switch_page("pages/navigate.py").run()
    ask(lab_app, CRASH)
    visit_every_page(lab_app)


def test_every_page_renders_on_the_scifact_demo(scifact_slice, monkeypatch):
    monkeypatch.setenv("SYNAPSE_WORKSPACE", str(scifact_slice))
    at = AppTest.from_file(APP, default_timeout=120).run()
    assert not at.exception
    assert at.text_input(key="workspace_path").value == str(scifact_slice)
    ask(at, slice_question(scifact_slice))
    assert not at.exception
    assert banner(at).startswith(("ANSWER", "HEDGED ANSWER", "ABSTAIN"))
    visit_every_page(at)


def test_sidebar_shows_the_workspace_and_its_load_report(lab_app, lab_path):
    assert lab_app.text_input(key="workspace_path").value == str(lab_path)
    assert any("Load report" in e.label for e in lab_app.sidebar.expander)
    lab_app.text_input(key="workspace_path").input(str(lab_path / "missing")).run()
    assert not lab_app.exception
    assert "Cannot open this workspace" in lab_app.sidebar.error[0].value


def test_asking_sets_the_banner_and_the_shared_link(lab_app):
    ask(lab_app, CRASH)
    assert not lab_app.exception
    assert banner(lab_app).startswith("ABSTAIN — false-premise, low-coverage")
    assert lab_app.query_params["q"] == CRASH
    ask(lab_app, SIGNAL)
    assert banner(lab_app).startswith("ANSWER — grounded")
    assert "outdated" in banner(lab_app)
    ask(lab_app, PERSIST)
    assert banner(lab_app).startswith("HEDGED ANSWER")


def test_a_shared_link_answers_its_question(lab_path, monkeypatch):
    monkeypatch.setenv("SYNAPSE_WORKSPACE", str(lab_path))
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["q"] = SIGNAL
    at.run()
    assert at.text_input(key="question").value == SIGNAL
    assert banner(at).startswith("ANSWER")


def test_the_step_slider_redraws_the_neighbourhood(lab_app):
    ask(lab_app, SIGNAL)
    slider = lab_app.slider(key="nav_step")
    assert slider.value == slider.max > 0
    last = lab_app.get("iframe")[0].proto.srcdoc
    slider.set_value(0).run()
    assert not lab_app.exception
    assert any(c.value.startswith("step 0: retrieve") for c in lab_app.caption)
    first = lab_app.get("iframe")[0].proto.srcdoc
    assert first != last and "vis.Network" in first
    lab_app.button(key="nav_play").click().run()
    assert not lab_app.exception and lab_app.session_state["playing"]


def test_switching_pages_keeps_the_answer(lab_app):
    ask(lab_app, CRASH)
    lab_app.switch_page("pages/reasoning_dag.py").run()
    assert banner(lab_app).startswith("ABSTAIN")
    assert "Showing the answer to" in lab_app.caption[0].value
    assert "dag-table" in html(lab_app)
    assert any("false-premise" in m.value for m in lab_app.markdown)
    lab_app.switch_page("pages/traceability.py").run()
    assert banner(lab_app).startswith("ABSTAIN")
    lab_app.switch_page("pages/navigate.py").run()
    assert banner(lab_app).startswith("ABSTAIN")
    assert lab_app.text_input(key="question").value == CRASH


def route_example(at: AppTest, key: str) -> AppTest:
    at.switch_page("pages/audit.py").run()
    at.selectbox(key="audit_example").set_value(key).run()
    at.button(key="audit_load").click().run()
    return at.button(key="audit_route").click().run()


def test_traceability_highlights_the_orphans_of_a_known_payload(lab_app):
    route_example(lab_app, "orphan-prose")
    assert not lab_app.exception
    lab_app.switch_page("pages/traceability.py").run()
    markup = html(lab_app)
    assert "Showing the payload routed on the Audit page." in lab_app.caption[0].value
    assert (
        '<span class="trace-orphan" style="background:#f9c9c9;border-radius:3px;padding:1px 0" '
        'title="orphan sentence: has &quot;always&quot; where c1 has &quot;returns&quot;">'
        "Momentum always wins, by </span>"
    ) in markup
    assert 'class="trace-number"' in markup and 'class="trace-uncited"' in markup
    assert 'class="trace-licensed"' in markup
    assert [m.value for m in lab_app.metric] == ["1", "2", "4", "2"]


def test_audit_rejects_a_cyclic_dag_with_its_message(lab_app):
    route_example(lab_app, "cyclic")
    assert not lab_app.exception
    assert lab_app.error[0].value == "Invalid payload: premise cycle among claims \\['c1', 'c2'\\]"
    lab_app.text_area(key="audit_text").input("{not json").run()
    lab_app.button(key="audit_route").click().run()
    assert not lab_app.exception
    assert lab_app.error[0].value.startswith("Invalid payload: payload is not valid JSON")


def test_audit_shows_the_verdict_dag_and_traceability(lab_app):
    route_example(lab_app, "hedged")
    assert banner(lab_app).startswith("HEDGED ANSWER")
    assert len(lab_app.tabs) == 2
    assert "vis.Network" in lab_app.get("iframe")[0].proto.srcdoc
    lab_app.switch_page("pages/reasoning_dag.py").run()
    assert banner(lab_app).startswith("HEDGED ANSWER")


def test_pages_without_a_result_say_how_to_get_one(lab_app):
    for page in ("pages/reasoning_dag.py", "pages/traceability.py"):
        lab_app.switch_page(page).run()
        assert not lab_app.exception
        assert "Nothing to show yet" in lab_app.info[0].value

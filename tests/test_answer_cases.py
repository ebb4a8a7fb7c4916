"""The SciFact demo's first-hour questions, through the app: the verdict answers what was asked."""

from __future__ import annotations

from pathlib import Path

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.element_tree import PageLink

from tests.browser_support import save_contradiction_overlay
from tests.conftest import ROOT

APP = str(ROOT / "app.py")
TB_VITAMIN = "Vitamin D deficiency increases the risk of tuberculosis."
TB_ART = (
    "Antiretroviral therapy increases rates of tuberculosis across a broad range of CD4 strata."
)
SIGNAL = "Does the momentum signal skip the most recent month?"
BRCA1 = "What does the knowledge base say about BRCA1 mutations?"
SECTION_HEADS = ("BACKGROUND", "METHODS", "RESULTS", "CONCLUSION", "OBJECTIVE", "IMPORTANCE")


@pytest.fixture
def demo_app(scifact_demo: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    st.cache_data.clear()
    st.cache_resource.clear()
    monkeypatch.setenv("SYNAPSE_WORKSPACE", str(scifact_demo))
    return AppTest.from_file(APP, default_timeout=180).run()


def ask(at: AppTest, question: str) -> AppTest:
    if not any(t.key == "question" for t in at.text_area):
        at.switch_page("pages/navigate.py").run()  # the app opens on its Start page
    at.text_area(key="question").input(question)
    return at.button(key="ask").click().run()


def alerts(at: AppTest) -> list[str]:
    return [e.value for e in (*at.success, *at.warning, *at.error, *at.info)]


def verdict(at: AppTest) -> str:
    (label,) = [t for t in alerts(at) if t.startswith(("ANSWER", "HEDGED ANSWER", "ABSTAIN"))]
    return label


def html(at: AppTest) -> str:
    return "\n".join(e.value for e in at.html)


def test_an_answer_about_something_else_abstains_and_names_the_missing_term(
    demo_app: AppTest,
) -> None:
    ask(demo_app, TB_VITAMIN)
    assert not demo_app.exception
    banner = verdict(demo_app)
    assert banner.startswith("ABSTAIN — uncovered term.")
    assert "never mentions ‘tuberculosis’" in banner
    assert "'c1'" not in banner and "conclusion c1" not in banner
    # The closest sentence is shown only as what was found, never as the answer.
    assert "Not an answer" in html(demo_app) and "answer-unlicensed" in html(demo_app)
    assert "answer-licensed" not in html(demo_app)


def test_a_contradicting_source_is_said_beside_the_verdict(demo_app: AppTest) -> None:
    ask(demo_app, TB_ART)
    banner = verdict(demo_app)
    # The source says "incidence", never "rates": verified text, not all of the question.
    assert banner.startswith("HEDGED ANSWER — verified text, not all of the question")
    assert "never says ‘rates’" in banner
    # Said as a contradiction or, in a band measured right too rarely, a possible tension.
    stance = [t for t in alerts(demo_app) if t.startswith("The cited source") and "contradict" in t]
    assert stance and "reduction" in stance[0] and "increases" in stance[0]
    answer = html(demo_app)
    assert "answer-hedged" in answer and "answer-licensed" in answer
    assert "Antiretroviral therapy is strongly associated" in answer
    assert not any(f">{head}" in answer for head in SECTION_HEADS)


def test_a_topic_question_answers_about_the_topic_in_plain_words(demo_app: AppTest) -> None:
    ask(demo_app, BRCA1)
    banner = verdict(demo_app)
    assert "'c1'" not in banner
    if banner.startswith("ABSTAIN"):
        assert "covers" in banner or "never mentions" in banner
    else:
        assert "BRCA1" in html(demo_app)
    demo_app.switch_page("pages/reasoning_dag.py").run()
    assert not demo_app.exception
    assert any(s.value.startswith("Why it") for s in demo_app.subheader)


def test_a_hedged_answer_shows_its_conclusion_as_an_inference_with_its_premises(
    lab_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    st.cache_data.clear()
    monkeypatch.setenv("SYNAPSE_WORKSPACE", str(lab_path))
    at = AppTest.from_file(APP, default_timeout=120).run()
    ask(at, "Are momentum profits likely to persist in future samples?")
    assert verdict(at).startswith("HEDGED ANSWER")
    body = html(at)
    assert "Inferred conclusion (not verified)" in body and "verified premises" in body
    assert "answer-hedged" in body


def test_a_contested_answer_names_the_contradicting_note_and_links_to_the_matrix(
    lab_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    save_contradiction_overlay(lab_path)
    # Unreviewed contradictions contest only when the workspace opts in.
    config = lab_path / "workspace.toml"
    config.write_text('contest = "unreviewed"\n' + config.read_text(encoding="utf-8"))
    st.cache_data.clear()
    monkeypatch.setenv("SYNAPSE_WORKSPACE", str(lab_path))
    at = AppTest.from_file(APP, default_timeout=120).run()
    ask(at, SIGNAL)
    banner = verdict(at)
    assert banner.startswith("ABSTAIN") and "contradicts (not yet reviewed)" in banner
    at.switch_page("pages/reasoning_dag.py").run()
    lines = [m.value for m in at.markdown]
    assert any("not yet reviewed" in line and "Claim matrix" in line for line in lines)
    links = [link for link in at.get("page_link") if isinstance(link, PageLink)]
    assert any("Claim matrix" in link.value for link in links)

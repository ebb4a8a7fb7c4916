"""Page tests: the whole app driven through Streamlit's AppTest, no browser."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from engine.datasets.scifact import import_scifact
from engine.workspace.stores import load_workspace
from present.graph_page import LIBRARY_SCRIPT, SERVED_LIBRARY
from tests.apptest import clear_caches  # noqa: F401 (empties Streamlit's caches per test)
from tests.browser_support import save_contradiction_overlay, save_review_overlay
from tests.chat_server import (
    ChatServer,
    chat_server_fixture,  # noqa: F401 (registers chat_server)
    reply,
    status,
)
from tests.conftest import ROOT

APP = str(ROOT / "app.py")
PAGES = (
    "pages/home.py",
    "pages/navigate.py",
    "pages/reasoning_dag.py",
    "pages/traceability.py",
    "pages/claim_matrix.py",
    "pages/audit.py",
)
CRASH = "Do momentum crashes occur after market rebounds?"
SIGNAL = "Does the momentum signal skip the most recent month?"
PERSIST = "Are momentum profits likely to persist in future samples?"


@pytest.fixture(scope="session")
def scifact_slice(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small SciFact workspace: the first abstracts and the claims citing them."""
    out = tmp_path_factory.mktemp("scifact") / "slice"
    data = ROOT / "data" / "scifact"
    import_scifact(data / "corpus.jsonl.gz", data / "claims_train.jsonl", out, limit=120)
    return out


@pytest.fixture
def lab_app(lab_path: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv("SYNAPSE_WORKSPACE", str(lab_path))
    return AppTest.from_file(APP, default_timeout=120).run()


def slice_question(root: Path) -> str:
    """The text of one of the slice's practice entries, which its abstracts should answer."""
    first = sorted((root / ".memory").glob("*.md"))[0].stem
    return load_workspace(root).notes[f"mem:_memory:{first}"].title


def ask(at: AppTest, question: str) -> AppTest:
    if not any(t.key == "question" for t in at.text_area):
        at.switch_page("pages/navigate.py").run()
    at.text_area(key="question").input(question)
    return at.button(key="ask").click().run()


def banner(at: AppTest) -> str:
    texts = [e.value for e in (*at.success, *at.warning, *at.error)]
    labels: list[str] = [t for t in texts if t.startswith(("ANSWER", "HEDGED ANSWER", "ABSTAIN"))]
    assert len(labels) == 1, texts
    return labels[0]


def html(at: AppTest) -> str:
    return "\n".join(element.value for element in at.html)


def visit_every_page(at: AppTest) -> None:
    for page in PAGES:
        at.switch_page(page).run()
        assert not at.exception, (page, at.exception)


def test_every_page_renders_on_momentum_lab(lab_app: AppTest) -> None:
    assert not lab_app.exception
    visit_every_page(lab_app)
    lab_app.switch_page("pages/navigate.py").run()
    ask(lab_app, CRASH)
    visit_every_page(lab_app)


def test_every_page_renders_on_the_scifact_demo(
    scifact_slice: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SYNAPSE_WORKSPACE", str(scifact_slice))
    at = AppTest.from_file(APP, default_timeout=120).run()
    assert not at.exception
    assert at.text_input(key="workspace_path").value == str(scifact_slice)
    ask(at, slice_question(scifact_slice))
    assert not at.exception
    assert banner(at).startswith(("ANSWER", "HEDGED ANSWER", "ABSTAIN"))
    visit_every_page(at)


def test_sidebar_shows_the_workspace_and_its_load_report(lab_app: AppTest, lab_path: Path) -> None:
    assert lab_app.text_input(key="workspace_path").value == str(lab_path)
    assert any("Load report" in e.label for e in lab_app.sidebar.expander)
    lab_app.text_input(key="workspace_path").input(str(lab_path / "missing")).run()
    assert not lab_app.exception
    assert "Cannot open this workspace" in lab_app.sidebar.error[0].value


def test_asking_sets_the_banner_and_the_shared_link(lab_app: AppTest) -> None:
    ask(lab_app, CRASH)
    assert not lab_app.exception
    assert banner(lab_app).startswith("ABSTAIN — refuted source.")
    assert lab_app.query_params["q"] == CRASH
    ask(lab_app, SIGNAL)
    assert banner(lab_app).startswith("ANSWER — grounded")
    assert "outdated" in banner(lab_app)
    ask(lab_app, PERSIST)
    assert banner(lab_app).startswith("HEDGED ANSWER")


def test_a_shared_link_answers_its_question(
    lab_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SYNAPSE_WORKSPACE", str(lab_path))
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["q"] = SIGNAL
    at.run()
    assert not at.exception
    at.switch_page("pages/navigate.py").run()
    assert at.text_area(key="question").value == SIGNAL
    assert banner(at).startswith("ANSWER")


def test_the_step_slider_redraws_the_neighbourhood(lab_app: AppTest) -> None:
    ask(lab_app, SIGNAL)
    slider = lab_app.slider(key="nav_step")
    assert slider.value == slider.max > 0
    last = lab_app.get("iframe")[0].proto.srcdoc
    slider.set_value(0).run()
    assert not lab_app.exception
    assert any(c.value.startswith("step 0: retrieve") for c in lab_app.caption)
    first = lab_app.get("iframe")[0].proto.srcdoc
    assert first != last and "vis.Network" in first
    # The page references the library the server serves (.streamlit/config.toml turns static
    # serving on) instead of carrying 0.7 MB of it.
    assert f'src="{SERVED_LIBRARY}{LIBRARY_SCRIPT}"' in first and len(first) < 60_000
    lab_app.button(key="nav_play").click().run()
    assert not lab_app.exception and lab_app.session_state["playing"]


def test_switching_pages_keeps_the_answer(lab_app: AppTest) -> None:
    ask(lab_app, CRASH)
    lab_app.switch_page("pages/reasoning_dag.py").run()
    assert banner(lab_app).startswith("ABSTAIN")
    assert "Showing the answer to" in lab_app.caption[0].value
    assert "dag-table" in html(lab_app)
    assert any("refuted source" in m.value for m in lab_app.markdown)
    lab_app.switch_page("pages/traceability.py").run()
    assert banner(lab_app).startswith("ABSTAIN")
    lab_app.switch_page("pages/navigate.py").run()
    assert banner(lab_app).startswith("ABSTAIN")
    assert lab_app.text_area(key="question").value == CRASH


def route_example(at: AppTest, key: str) -> AppTest:
    at.switch_page("pages/audit.py").run()
    at.selectbox(key="audit_example").set_value(key).run()
    at.button(key="audit_load").click().run()
    return at.button(key="audit_route").click().run()


def test_traceability_highlights_the_orphans_of_a_known_payload(lab_app: AppTest) -> None:
    route_example(lab_app, "orphan-prose")
    assert not lab_app.exception
    lab_app.switch_page("pages/traceability.py").run()
    markup = html(lab_app)
    assert "Showing the payload routed on the Audit page." in lab_app.caption[0].value
    assert (
        '<span class="trace-orphan" '
        'style="background:#f9c9c9;color:#1f2328;border-radius:3px;padding:1px 0" '
        'title="orphan sentence: has &quot;always&quot; where c1 has &quot;returns&quot;">'
        "Momentum always wins, by </span>"
    ) in markup
    assert 'class="trace-number"' in markup and 'class="trace-uncited"' in markup
    assert 'class="trace-licensed"' in markup
    assert [m.value for m in lab_app.metric] == ["1", "2", "4", "2"]


def test_audit_rejects_a_cyclic_dag_with_its_message(lab_app: AppTest) -> None:
    route_example(lab_app, "cyclic")
    assert not lab_app.exception
    assert lab_app.error[0].value == "Invalid payload: premise cycle among claims \\['c1', 'c2'\\]"
    lab_app.text_area(key="audit_text").input("{not json").run()
    lab_app.button(key="audit_route").click().run()
    assert not lab_app.exception
    assert lab_app.error[0].value.startswith("Invalid payload: payload is not valid JSON")


def test_audit_shows_the_verdict_dag_and_traceability(lab_app: AppTest) -> None:
    route_example(lab_app, "hedged")
    assert banner(lab_app).startswith("HEDGED ANSWER")
    assert len(lab_app.tabs) == 2
    assert "vis.Network" in lab_app.get("iframe")[0].proto.srcdoc
    lab_app.switch_page("pages/reasoning_dag.py").run()
    assert banner(lab_app).startswith("HEDGED ANSWER")


def test_pages_without_a_result_say_how_to_get_one(lab_app: AppTest) -> None:
    for page in ("pages/reasoning_dag.py", "pages/traceability.py"):
        lab_app.switch_page(page).run()
        assert not lab_app.exception
        assert "Nothing to show yet" in lab_app.info[0].value


def visible_cells(at: AppTest) -> tuple[int, int]:
    caption = next(c.value for c in at.caption if c.value.endswith("edges pass the filters."))
    counts = re.match(r"([\d,]+) of ([\d,]+) edges pass", caption)
    assert counts is not None
    shown, total = counts.groups()
    return int(shown.replace(",", "")), int(total.replace(",", ""))


CONTRADICTION = "exp-2009-backtest|finance|z-sig-03"


def test_matrix_builds_the_overlay_when_there_is_none(lab_app: AppTest) -> None:
    lab_app.switch_page("pages/claim_matrix.py").run()
    assert "No claim overlay yet" in lab_app.info[0].value
    lab_app.button(key="matrix_build").click().run()
    assert not lab_app.exception
    shown, total = visible_cells(lab_app)
    assert shown == total > 0
    lab_app.multiselect(key="matrix_relations").set_value([]).run()
    assert visible_cells(lab_app) == (0, total)


def test_matrix_filters_change_the_cell_count(
    lab_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    save_contradiction_overlay(lab_path)
    monkeypatch.setenv("SYNAPSE_WORKSPACE", str(lab_path))
    at = AppTest.from_file(APP, default_timeout=120).run()
    at.switch_page("pages/claim_matrix.py").run()
    assert visible_cells(at) == (2, 2)
    at.slider(key="matrix_min_conf").set_value(0.7).run()
    assert visible_cells(at) == (1, 2)
    at.slider(key="matrix_min_conf").set_value(0.0).run()
    at.multiselect(key="matrix_relations").set_value(["supports"]).run()
    assert visible_cells(at) == (1, 2)
    at.multiselect(key="matrix_relations").set_value(["supports", "contradicts"]).run()
    at.checkbox(key="matrix_high_value").check().run()
    assert visible_cells(at) == (1, 2)
    assert not at.exception


def test_matrix_cell_shows_brief_quotes_and_rationale(
    lab_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    save_contradiction_overlay(lab_path)
    monkeypatch.setenv("SYNAPSE_WORKSPACE", str(lab_path))
    at = AppTest.from_file(APP, default_timeout=120).run()
    at.switch_page("pages/claim_matrix.py").run()
    assert not at.exception
    picker = at.selectbox(key="matrix_pick")
    assert picker.value == CONTRADICTION  # pending contradictions first
    assert "contradicts 0.90" in picker.format_func(CONTRADICTION)
    assert any(s.value.startswith("Brief") for s in (*at.success, *at.warning))
    assert any("Rationale" in m.value and "backtest" in m.value for m in at.markdown)
    assert any("Cue" in m.value for m in at.markdown)
    at.checkbox(key="matrix_contested").check().run()
    assert visible_cells(at) == (0, 2)  # unreviewed: it contests nothing by default
    at.checkbox(key="matrix_contested").uncheck().run()
    at.button(key="triage_confirmed").click().run()
    at.checkbox(key="matrix_contested").check().run()
    assert visible_cells(at) == (1, 2)


def test_triage_decisions_reach_the_log_and_the_router(
    lab_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    save_contradiction_overlay(lab_path)
    monkeypatch.setenv("SYNAPSE_WORKSPACE", str(lab_path))
    at = AppTest.from_file(APP, default_timeout=120).run()
    ask(at, SIGNAL)
    # The overlay's contradiction is unreviewed: disclosed on the answer, not contesting it.
    assert banner(at).startswith("ANSWER")
    assert "1 unreviewed contradiction against a cited source — review it" in html(at)
    at.switch_page("pages/claim_matrix.py").run()
    at.text_input(key=f"triage_note_{CONTRADICTION}").input("The backtest predates the rule.")
    at.button(key="triage_dismissed").click().run()
    assert not at.exception
    log = (lab_path / ".synapse" / "triage.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(log) == 1 and '"dismissed"' in log[0] and "predates the rule" in log[0]
    assert "Not a contradiction" in html(at)
    assert any("Not a contradiction: “2009 backtest of the momentum book” contradicts" in c.value
               for c in at.caption)  # fmt: skip
    at.switch_page("pages/navigate.py").run()
    assert banner(at).startswith("ANSWER") and "unreviewed contradiction" not in html(at)
    at.switch_page("pages/claim_matrix.py").run()
    at.button(key="triage_confirmed").click().run()
    assert len((lab_path / ".synapse" / "triage.jsonl").read_text().splitlines()) == 2
    # The answer on screen is re-routed without asking again: now contested.
    at.switch_page("pages/navigate.py").run()
    assert banner(at).startswith("ABSTAIN")
    assert any(c.value.startswith("Re-routed after a triage decision") for c in at.caption)


def test_an_unreviewed_contradiction_contests_under_the_workspace_setting(
    lab_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    save_contradiction_overlay(lab_path)
    settings = lab_path / "workspace.toml"
    settings.write_text('contest = "unreviewed"\n' + settings.read_text())
    monkeypatch.setenv("SYNAPSE_WORKSPACE", str(lab_path))
    at = AppTest.from_file(APP, default_timeout=120).run()
    ask(at, SIGNAL)
    assert banner(at).startswith("ABSTAIN")
    assert "1 contradiction contests a cited source" in html(at)


def everything_shown(at: AppTest) -> str:
    """Every value, label and body the app rendered, as one string."""
    parts = []
    for kind in ("markdown", "caption", "error", "success", "warning", "info", "text", "html"):
        parts += [str(getattr(e, "value", "")) for e in getattr(at, kind)]
    parts += [str(e.value) for e in at.text_input if e.key != "llm_api_key"]
    return "\n".join(parts)


def test_openai_reasoner_connection_test_never_echoes_the_key(
    lab_app: AppTest, chat_server: ChatServer
) -> None:
    key = "sk-app-test-91b7e2"
    chat_server.script(status(401, {"error": {"message": f"Incorrect API key: {key}"}}))
    lab_app.radio(key="reasoner").set_value("openai").run()
    lab_app.text_input(key="llm_base_url").input(chat_server.base_url)
    lab_app.text_input(key="llm_model").input("test-model")
    lab_app.text_input(key="llm_api_key").input(key).run()
    lab_app.button(key="llm_test").click().run()
    assert not lab_app.exception
    assert lab_app.sidebar.error[0].value.startswith("No connection")
    chat_server.script(reply('{"ok": true}'))
    lab_app.button(key="llm_test").click().run()
    assert lab_app.sidebar.success[0].value.startswith("Connected: test-model replied in")
    assert chat_server.chat_requests[-1].headers["authorization"] == f"Bearer {key}"
    ask(lab_app, SIGNAL)  # the model answers nonsense: a labelled abstention, not a crash
    assert not lab_app.exception
    assert banner(lab_app).startswith("ABSTAIN")
    assert key not in everything_shown(lab_app)


def test_an_unreachable_or_invalid_endpoint_is_reported(lab_app: AppTest) -> None:
    lab_app.radio(key="reasoner").set_value("openai").run()
    lab_app.text_input(key="llm_base_url").input("not a url").run()
    lab_app.button(key="llm_test").click().run()
    assert "must be an http(s) URL" in lab_app.sidebar.error[0].value
    ask(lab_app, SIGNAL)
    assert not lab_app.exception
    assert "must be an http(s) URL" in lab_app.error[0].value


def test_the_dag_page_shows_the_re_routed_answer_after_a_decision(
    lab_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    save_contradiction_overlay(lab_path)
    monkeypatch.setenv("SYNAPSE_WORKSPACE", str(lab_path))
    at = AppTest.from_file(APP, default_timeout=120).run()
    ask(at, SIGNAL)
    at.switch_page("pages/reasoning_dag.py").run()
    assert banner(at).startswith("ANSWER")
    at.switch_page("pages/claim_matrix.py").run()
    at.button(key="triage_confirmed").click().run()
    at.switch_page("pages/reasoning_dag.py").run()
    assert banner(at).startswith("ABSTAIN") and not at.exception
    assert any(c.value.startswith("Re-routed after a triage decision") for c in at.caption)


def test_a_triage_click_records_the_edge_selected_when_it_lands(
    lab_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    save_review_overlay(lab_path)
    monkeypatch.setenv("SYNAPSE_WORKSPACE", str(lab_path))
    at = AppTest.from_file(APP, default_timeout=120).run()
    at.switch_page("pages/claim_matrix.py").run()
    first = "exp-2009-backtest|finance|z-sig-03"
    assert at.selectbox(key="matrix_pick").value == first
    # A new selection and a click on the button drawn for the previous one, in one rerun:
    # as when the reviewer picks another edge and clicks before the page has redrawn.
    at.selectbox(key="matrix_pick").select("chk-2024-q1|finance|z-crash-05")
    at.button(key="triage_confirmed").click().run()
    assert not at.exception
    log = (lab_path / ".synapse" / "triage.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(log) == 1 and '"z-crash-05"' in log[0] and '"z-sig-03"' not in log[0]


def test_reviewers_who_disagree_on_a_pair_are_shown_as_such(
    lab_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from engine.review.relations import EdgeKey
    from engine.review.triage import record

    save_contradiction_overlay(lab_path)
    pair = EdgeKey(*CONTRADICTION.split("|"))
    record(lab_path, pair, "confirmed", by="ann")
    record(lab_path, pair, "dismissed", by="bob")
    monkeypatch.setenv("SYNAPSE_WORKSPACE", str(lab_path))
    at = AppTest.from_file(APP, default_timeout=120).run()
    at.switch_page("pages/claim_matrix.py").run()
    assert not at.exception
    (warning,) = [w.value for w in at.warning if "Reviewers disagree" in w.value]
    assert "ann" in warning and "bob" in warning
    assert "the literature claim is contested" in warning

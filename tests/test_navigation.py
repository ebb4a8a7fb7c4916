import json
import shutil

import pytest

from engine.api import ask, open_workspace
from engine.core.errors import ConfigError
from engine.navigation.navigator import Action, ActionKind
from engine.navigation.substrate import Budget
from engine.review.overlay import EdgeKey
from engine.review.triage import record
from tests.conftest import MOMENTUM_LAB

QUESTIONS = [json.loads(line) for line in (MOMENTUM_LAB / "questions.jsonl").open()]


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    target = tmp_path_factory.mktemp("nav") / "lab"
    shutil.copytree(MOMENTUM_LAB, target, ignore=shutil.ignore_patterns(".synapse"))
    opened = open_workspace(target)
    yield opened
    opened.close()


@pytest.mark.parametrize("case", QUESTIONS, ids=[q["id"] for q in QUESTIONS])
def test_every_decision_path_is_reached(lab, case):
    out = ask(lab, case["question"]).to_dict()
    assert (out["label"], out["status"], out["reasons"]) == (
        case["label"],
        case["status"],
        case["reasons"],
    ), out["detail"]
    if "cites" in case:
        assert case["cites"] in out["cited"]
    assert out["decision"].get("outdated", False) is case.get("outdated", False)


def test_labels_cover_all_three_outcomes():
    assert {q["label"] for q in QUESTIONS} == {"ANSWER", "HEDGED ANSWER", "ABSTAIN"}
    reasons = {r for q in QUESTIONS for r in q["reasons"]}
    assert reasons == {"missing-hop", "stale", "false-premise", "low-coverage"}


def test_trace_records_every_step_within_budget(lab):
    budget = Budget(hops=1, max_nodes=8, max_steps=4)
    result = ask(lab, QUESTIONS[0]["question"], budget=budget)
    actions = [s.action for s in result.steps]
    assert actions[0] is ActionKind.RETRIEVE
    assert len(actions) - 1 <= budget.max_steps
    assert len(result.neighbourhood.nodes) <= budget.max_nodes
    assert max(result.neighbourhood.hops.values()) <= budget.hops
    added = [a for s in result.steps for a in s.nodes_added]
    assert sorted(added) == sorted(result.neighbourhood.nodes)


def test_no_edge_dangles(lab):
    result = ask(lab, "Does the momentum signal skip the most recent month?")
    nodes = result.neighbourhood.nodes
    assert result.neighbourhood.edges
    assert all(e.src in nodes and e.dst in nodes for e in result.neighbourhood.edges)


def test_same_question_same_json(lab):
    question = QUESTIONS[0]["question"]
    assert ask(lab, question).to_json(timings=False) == ask(lab, question).to_json(timings=False)


def test_offline_answer_copies_text_verbatim(lab):
    result = ask(lab, QUESTIONS[0]["question"])
    bodies = " ".join(n.body for n in lab.workspace.notes.values())
    for claim in result.decision.dag.claims:
        assert claim.text in bodies


class Exploding:
    name = "exploding"

    def decide(self, state):
        raise RuntimeError("policy blew up")


class Dawdling:
    name = "dawdling"

    def decide(self, state):
        return Action.ground(next(iter(state.neighbourhood.nodes)), "again")


@pytest.mark.parametrize(
    ("policy", "failure"),
    [(Exploding(), "policy blew up"), (Dawdling(), "step budget of 12 exhausted")],
    ids=["policy-raises", "never-answers"],
)
def test_failures_inside_become_labelled_abstentions(lab, policy, failure):
    out = ask(lab, QUESTIONS[0]["question"], reasoner=policy).to_dict()
    assert out["label"] == "ABSTAIN" and failure in out["failure"]


def test_unknown_reasoner_is_a_labelled_abstention(lab):
    out = ask(lab, "anything", reasoner="crystal-ball").to_dict()
    assert out["label"] == "ABSTAIN" and "unknown reasoner" in out["failure"]


def test_openai_reasoner_without_endpoint_abstains(lab, monkeypatch):
    monkeypatch.delenv("SYNAPSE_LLM_BASE_URL", raising=False)
    out = ask(lab, "anything", reasoner="openai").to_dict()
    assert out["label"] == "ABSTAIN" and "SYNAPSE_LLM_BASE_URL" in out["failure"]


@pytest.mark.parametrize(
    "fields", [{"hops": -1}, {"max_nodes": 0}, {"max_steps": "3"}], ids=["hops", "nodes", "steps"]
)
def test_bad_budget_is_refused(fields):
    with pytest.raises(ConfigError):
        Budget(**fields)


def test_broken_index_becomes_an_abstention(lab_path):
    opened = open_workspace(lab_path)
    opened.index.close()
    out = ask(opened, QUESTIONS[0]["question"]).to_dict()
    assert out["label"] == "ABSTAIN" and "navigation failed" in out["failure"]


def test_confirmed_triage_changes_the_answer(lab_path):
    question = QUESTIONS[0]["question"]
    opened = open_workspace(lab_path)
    before = ask(opened, question).to_dict()
    assert before["label"] == "ANSWER" and "zk:finance:z-mom-01" in before["cited"]
    record(lab_path, EdgeKey("exp-2009-backtest", "finance", "z-mom-01"), "confirmed")
    after = ask(opened, question).to_dict()
    assert after["label"] == "ABSTAIN" and after["reasons"] == ["low-coverage"]
    assert after["decision"]["nodes"]["zk:finance:z-mom-01"]["flags"] == ["contested"]
    opened.close()


def test_a_link_less_corpus_expands_to_related_notes_deterministically(scifact_slice):
    opened = open_workspace(scifact_slice)
    try:
        question = "Egr2 regulates the homeostasis of B and T cells."
        result = ask(opened, question).to_dict(timings=False)
        again = ask(opened, question).to_dict(timings=False)
    finally:
        opened.close()
    expands = [s for s in result["trace"] if s["action"] == "expand"]
    assert expands and any(s["nodes_added"] for s in expands)
    related = [e for s in expands for e in s["edges_added"]]
    assert related and {e["relation"] for e in related} == {"related"}
    assert all(e["src"] == s["target"] for s in expands for e in s["edges_added"])
    assert result == again


def test_a_linked_corpus_never_expands_to_related_notes(lab):
    result = ask(lab, "Does the momentum signal skip the most recent month?").to_dict()
    relations = {e["relation"] for s in result["trace"] for e in s["edges_added"]}
    assert "related" not in relations

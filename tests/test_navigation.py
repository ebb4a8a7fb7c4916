import json
from collections import Counter
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from engine.api import OpenWorkspace, ask, open_workspace
from engine.core.errors import ConfigError
from engine.core.model import Edge
from engine.core.registry import Registry
from engine.core.verifiers import VERIFIERS, Verifier, VerifierResult, VerifyContext
from engine.importers.sources import add_pdfs, collect_pdfs
from engine.navigation import navigator, substrate
from engine.navigation.navigator import Action, ActionKind, NavState
from engine.navigation.substrate import Adapter, Budget, Node
from engine.review.relations import EdgeKey
from engine.review.triage import record
from engine.workspace.notes import Note
from tests.conftest import MOMENTUM_LAB
from tests.workspaces import make_workspace

assert MOMENTUM_LAB is not None
QUESTIONS = [json.loads(line) for line in (MOMENTUM_LAB / "questions.jsonl").open()]


def opened_copy(tmp_path_factory: pytest.TempPathFactory, variant: str) -> Iterator[OpenWorkspace]:
    """A fresh, opened copy of a named workspace variant; closed after the module."""
    opened = open_workspace(make_workspace(tmp_path_factory.mktemp("nav"), variant))
    yield opened
    opened.close()


def decided_as_listed(opened: OpenWorkspace, case: dict[str, Any]) -> dict[str, Any]:
    """Ask a listed question; its label, status, reasons and cited note are as listed."""
    out = ask(opened, case["question"]).to_dict()
    assert (out["decision"]["label"], out["decision"]["status"], out["decision"]["reasons"]) == (
        case["label"],
        case["status"],
        case["reasons"],
    ), out["decision"]["detail"]
    if "cites" in case:
        assert case["cites"] in out["cited"]
    return out


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[OpenWorkspace]:
    yield from opened_copy(tmp_path_factory, "momentum-lab")


@pytest.mark.parametrize("case", QUESTIONS, ids=[q["id"] for q in QUESTIONS])
def test_every_decision_path_is_reached(lab: OpenWorkspace, case: dict[str, Any]) -> None:
    out = decided_as_listed(lab, case)
    assert out["decision"].get("outdated", False) is case.get("outdated", False)


def test_the_listed_questions_fixture_reaches_every_label_and_reason() -> None:
    assert {q["label"] for q in QUESTIONS} == {"ANSWER", "HEDGED ANSWER", "ABSTAIN"}
    reasons = {r for q in QUESTIONS for r in q["reasons"]}
    assert reasons == {"missing-hop", "stale", "false-premise", "low-coverage"}


def counting_verifiers() -> tuple[Registry[Verifier], Counter[tuple[str, str]]]:
    """The built-in verifiers, each wrapped to count its calls per (type, payload)."""
    calls: Counter[tuple[str, str]] = Counter()
    registry: Registry[Verifier] = Registry("verifier")
    for name in VERIFIERS.names():

        def counted(
            payload: Mapping[str, Any],
            context: VerifyContext,
            _check: Verifier = VERIFIERS[name],
            _name: str = name,
        ) -> VerifierResult:
            calls[_name, json.dumps(payload, sort_keys=True)] += 1
            return _check(payload, context)

        registry.register(name, counted)
    return registry, calls


@pytest.mark.parametrize("case", QUESTIONS, ids=[q["id"] for q in QUESTIONS])
def test_each_cited_ground_is_verified_once(lab: OpenWorkspace, case: dict[str, Any]) -> None:
    verifiers, calls = counting_verifiers()
    run = ask(lab, case["question"], verifiers=verifiers)
    assert (run.label, run.to_dict()["decision"]["reasons"]) == (case["label"], case["reasons"])
    groundings = run.route_input.groundings if run.route_input else {}
    cited = set(run.decision.cited) if run.decision else set()
    checked = {ref: spec for ref, spec in groundings.items() if ref in cited}
    per_node = {
        ref: calls[spec.type, json.dumps(dict(spec.payload), sort_keys=True)]
        for ref, spec in checked.items()
    }
    assert per_node == dict.fromkeys(checked, 1)


def test_trace_records_every_step_within_budget(lab: OpenWorkspace) -> None:
    budget = Budget(hops=1, max_nodes=8, max_steps=4)
    result = ask(lab, QUESTIONS[0]["question"], budget=budget)
    actions = [s.action for s in result.steps]
    assert actions[0] is ActionKind.RETRIEVE
    assert len(actions) - 1 <= budget.max_steps
    assert len(result.neighbourhood.nodes) <= budget.max_nodes
    assert max(result.neighbourhood.hops.values()) <= budget.hops
    added = [a for s in result.steps for a in s.nodes_added]
    assert sorted(added) == sorted(result.neighbourhood.nodes)


def test_no_edge_dangles(lab: OpenWorkspace) -> None:
    result = ask(lab, "Does the momentum signal skip the most recent month?")
    nodes = result.neighbourhood.nodes
    assert result.neighbourhood.edges
    assert all(e.src in nodes and e.dst in nodes for e in result.neighbourhood.edges)


def test_same_question_same_json(lab: OpenWorkspace) -> None:
    question = QUESTIONS[0]["question"]
    assert ask(lab, question).to_json(timings=False) == ask(lab, question).to_json(timings=False)


def test_offline_answer_copies_text_verbatim(lab: OpenWorkspace) -> None:
    result = ask(lab, QUESTIONS[0]["question"])
    bodies = " ".join(n.body for n in lab.workspace.notes.values())
    assert result.decision is not None
    for claim in result.decision.dag.claims:
        assert claim.text in bodies


class Exploding:
    name = "exploding"

    def decide(self, state: NavState) -> Action:
        raise RuntimeError("policy blew up")


class Dawdling:
    name = "dawdling"

    def decide(self, state: NavState) -> Action:
        return Action.ground(next(iter(state.neighbourhood.nodes)), "again")


@pytest.mark.parametrize(
    ("policy", "failure"),
    [(Exploding(), "policy blew up"), (Dawdling(), "step budget of 12 exhausted")],
    ids=["policy-raises", "never-answers"],
)
def test_failures_inside_become_labelled_abstentions(
    lab: OpenWorkspace, policy: Exploding | Dawdling, failure: str
) -> None:
    out = ask(lab, QUESTIONS[0]["question"], reasoner=policy).to_dict()
    assert out["decision"]["label"] == "ABSTAIN" and failure in out["failure"]


class FailingExpansion:
    """A real adapter whose one-hop expansion raises: retrieval and fetch-back still work."""

    def __init__(self, adapter: Adapter) -> None:
        self.inner, self.store, self.source = adapter, adapter.store, adapter.source

    def retrieve(self, query: str, k: int) -> list[Node]:
        return self.inner.retrieve(query, k)

    def expand(self, node: Node) -> tuple[list[Node], list[Edge]]:
        raise OSError("link store unreadable")

    def get(self, address: str) -> Note | None:
        return self.inner.get(address)


def test_an_expansion_that_raises_adds_no_neighbours_and_the_run_goes_on(
    lab: OpenWorkspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    question = QUESTIONS[0]["question"]
    healthy = ask(lab, question).to_dict()
    real = substrate.build_adapters
    monkeypatch.setattr(
        navigator, "build_adapters", lambda *a: [FailingExpansion(x) for x in real(*a)]
    )
    out = ask(lab, question).to_dict()
    expansions = [s for s in out["trace"] if s["action"] == "expand"]
    assert expansions and all(not s["nodes_added"] for s in expansions)
    assert all(
        "expansion failed (OSError: link store unreadable)" in s["reason"] for s in expansions
    )
    assert not out["failure"] and out["decision"]["label"] != "" and out["decision"] is not None
    assert healthy["decision"]["label"] == "ANSWER"


def test_unknown_reasoner_is_a_labelled_abstention(lab: OpenWorkspace) -> None:
    out = ask(lab, "anything", reasoner="crystal-ball").to_dict()
    assert out["decision"]["label"] == "ABSTAIN" and "unknown reasoner" in out["failure"]


def test_openai_reasoner_without_endpoint_abstains(
    lab: OpenWorkspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SYNAPSE_LLM_BASE_URL", raising=False)
    out = ask(lab, "anything", reasoner="openai").to_dict()
    assert out["decision"]["label"] == "ABSTAIN" and "SYNAPSE_LLM_BASE_URL" in out["failure"]


@pytest.mark.parametrize(
    "fields", [{"hops": -1}, {"max_nodes": 0}, {"max_steps": "3"}], ids=["hops", "nodes", "steps"]
)
def test_bad_budget_is_refused(fields: dict[str, Any]) -> None:
    with pytest.raises(ConfigError):
        Budget(**fields)


def test_broken_index_becomes_an_abstention(lab_path: Path) -> None:
    opened = open_workspace(lab_path)
    opened.index.close()
    out = ask(opened, QUESTIONS[0]["question"]).to_dict()
    assert out["decision"]["label"] == "ABSTAIN" and "navigation failed" in out["failure"]


def test_confirmed_triage_changes_the_answer(lab_path: Path) -> None:
    question = QUESTIONS[0]["question"]
    opened = open_workspace(lab_path)
    before = ask(opened, question).to_dict()
    assert before["decision"]["label"] == "ANSWER" and "zk:finance:z-mom-01" in before["cited"]
    record(lab_path, EdgeKey("exp-2009-backtest", "finance", "z-mom-01"), "confirmed")
    after = ask(opened, question).to_dict()
    assert after["decision"]["label"] == "ABSTAIN" and after["decision"]["reasons"] == [
        "low-coverage"
    ]
    assert after["decision"]["nodes"]["zk:finance:z-mom-01"]["flags"] == ["contested"]
    opened.close()


assert MOMENTUM_LAB is not None
VAULT_LAB = MOMENTUM_LAB.parent / "vault-lab"
VAULT_QUESTIONS = [json.loads(line) for line in (VAULT_LAB / "questions.jsonl").open()]


@pytest.fixture(scope="module")
def vault_lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[OpenWorkspace]:
    yield from opened_copy(tmp_path_factory, "vault-lab")


@pytest.mark.parametrize("case", VAULT_QUESTIONS, ids=[q["id"] for q in VAULT_QUESTIONS])
def test_every_decision_path_is_reached_in_a_vault(
    vault_lab: OpenWorkspace, case: dict[str, Any]
) -> None:
    out = decided_as_listed(vault_lab, case)
    if "page" in case:
        assert out["decision"]["verifiers"][case["cites"]]["page"] == case["page"]


def test_the_vault_questions_fixture_reaches_all_three_outcomes() -> None:
    assert {q["label"] for q in VAULT_QUESTIONS} == {"ANSWER", "HEDGED ANSWER", "ABSTAIN"}
    reasons = {r for q in VAULT_QUESTIONS for r in q["reasons"]}
    assert reasons == {"missing-hop", "stale", "false-premise", "low-coverage"}


def test_the_vault_example_sources_are_what_sources_add_extracts(tmp_path: Path) -> None:
    report = add_pdfs(tmp_path, collect_pdfs([str(VAULT_LAB / "papers")]))
    assert not report.failures
    for shipped in (VAULT_LAB / "sources").iterdir():
        made = tmp_path / "sources" / shipped.name
        if shipped.name.endswith(".pdf.json"):
            # Where the PDF is kept ("file") depends on where the workspace found it: here
            # outside it, so it was copied in; the rest of what was read must be the same.
            read = json.loads(made.read_text(encoding="utf-8"))
            read.pop("file", None)
            assert read == json.loads(shipped.read_text(encoding="utf-8")), shipped.name
        else:
            assert made.read_bytes() == shipped.read_bytes(), shipped.name


def test_asking_in_a_vault_writes_only_under_synapse(vault_lab: OpenWorkspace) -> None:
    root = vault_lab.root
    before = {
        p: p.read_bytes() for p in root.rglob("*") if ".synapse" not in p.parts and p.is_file()
    }
    for case in VAULT_QUESTIONS:
        ask(vault_lab, case["question"])
    after = {
        p: p.read_bytes() for p in root.rglob("*") if ".synapse" not in p.parts and p.is_file()
    }
    assert after == before


def test_a_budget_that_runs_out_is_told_apart_from_nothing_found(lab: OpenWorkspace) -> None:
    tight = ask(lab, "Do momentum crashes occur after market rebounds?", budget=Budget(max_steps=1))
    out = tight.to_dict()
    assert out["decision"]["label"] == "ABSTAIN"
    assert "step budget" in (out["failure"] or "") + out["trace"][-1]["reason"]


def test_a_link_less_corpus_expands_to_related_notes_deterministically(scifact_slice: Path) -> None:
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


def test_a_linked_corpus_never_expands_to_related_notes(lab: OpenWorkspace) -> None:
    result = ask(lab, "Does the momentum signal skip the most recent month?").to_dict()
    relations = {e["relation"] for s in result["trace"] for e in s["edges_added"]}
    assert "related" not in relations

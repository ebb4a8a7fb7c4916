"""The navigator: a policy picks expand, ground, answer or abstain; an executor applies it."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from engine.core.epistemics import Verdict
from engine.core.model import Edge
from engine.core.router import Decision, route
from engine.core.verifiers import VerifierResult
from engine.core.wire import parse_payload
from engine.navigation.coverage import CoverageReport, QuestionTerms
from engine.navigation.grounding import NodeGround, for_claim, ground_node
from engine.navigation.substrate import Adapter, Budget, Neighbourhood, Node, build_adapters, owner
from engine.workspace.index import Index
from engine.workspace.notes import Store
from engine.workspace.stores import Workspace

SEEDS_PER_SOURCE = 6


class ActionKind(StrEnum):
    RETRIEVE = "retrieve"
    EXPAND = "expand"
    GROUND = "ground"
    ANSWER = "answer"
    ABSTAIN = "abstain"


@dataclass(frozen=True)
class Action:
    """What the policy wants next; an answer carries the draft `{dag, prose, asserted}`."""

    kind: ActionKind
    target: str | None = None
    reason: str = ""
    draft: Mapping | None = None

    @classmethod
    def expand(cls, target: str, reason: str = "") -> Action:
        return cls(ActionKind.EXPAND, target, reason)

    @classmethod
    def ground(cls, target: str, reason: str = "") -> Action:
        return cls(ActionKind.GROUND, target, reason)

    @classmethod
    def answer(cls, draft: Mapping, reason: str = "") -> Action:
        return cls(ActionKind.ANSWER, None, reason, draft)

    @classmethod
    def abstain(cls, reason: str) -> Action:
        return cls(ActionKind.ABSTAIN, None, reason)


@dataclass(frozen=True)
class Step:
    """One recorded step of a navigation."""

    index: int
    action: ActionKind
    target: str | None
    reason: str
    nodes_added: tuple[str, ...] = ()
    edges_added: tuple[Edge, ...] = ()
    ms: float = 0.0

    def to_dict(self) -> dict:
        return {
            "index": self.index,
            "action": self.action.value,
            "target": self.target,
            "reason": self.reason,
            "nodes_added": list(self.nodes_added),
            "edges_added": [e.to_dict() for e in self.edges_added],
            "ms": round(self.ms, 3),
        }


@dataclass(frozen=True)
class Checked:
    """A grounded node: how it is checked and what the check said at grounding time."""

    ground: NodeGround | None
    result: VerifierResult | None
    verdict: Verdict

    @property
    def resolved(self) -> bool:
        return self.ground is not None


@dataclass(frozen=True)
class NavState:
    """What a policy sees when it decides."""

    question: str
    neighbourhood: Neighbourhood
    grounded: Mapping[str, Checked]
    budget: Budget
    steps_taken: int
    workspace: Workspace
    terms: QuestionTerms | None = None

    @property
    def steps_left(self) -> int:
        return self.budget.max_steps - self.steps_taken


class Policy(Protocol):
    """Chooses the next action; the offline reasoner is the default implementation."""

    name: str

    def decide(self, state: NavState) -> Action: ...


class StanceRelation(StrEnum):
    SUPPORTS = "supports"
    CONTRADICTS = "contradicts"
    NEITHER = "neither"


@dataclass(frozen=True)
class Stance:
    """Whether the answer's evidence supports or contradicts the claim a question states.

    `cue` names what decided it in plain words; `evidence` is the cited sentence compared.
    Shown beside the router's verdict, never changing it.
    """

    relation: StanceRelation
    cue: str
    confidence: float
    evidence: str = ""

    def to_dict(self) -> dict:
        return {
            "relation": self.relation.value,
            "cue": self.cue,
            "confidence": round(self.confidence, 4),
            "evidence": self.evidence,
        }


@dataclass(frozen=True)
class NavResult:
    """Everything one navigation produced: decision, draft, neighbourhood and trace."""

    question: str
    reasoner: str
    budget: Budget
    neighbourhood: Neighbourhood
    steps: tuple[Step, ...]
    decision: Decision | None = None
    payload: Mapping | None = None
    failure: str = ""
    latency_ms: float = 0.0
    stance: Stance | None = None

    @property
    def label(self) -> str:
        return self.decision.label if self.decision else "ABSTAIN"

    def to_dict(self, *, timings: bool = True) -> dict:
        """JSON-ready result; without `timings` it is identical across identical runs."""
        decision = self.decision.to_dict() if self.decision else _failed_decision(self.failure)
        dag = self.decision.dag if self.decision else None
        cited = list(self.decision.cited) if self.decision else []
        steps = [s.to_dict() for s in self.steps]
        if not timings:
            for step in steps:
                step.pop("ms")
        out = {
            "question": self.question,
            "reasoner": self.reasoner,
            "budget": self.budget.to_dict(),
            **{k: decision[k] for k in ("verdict", "label", "status", "reasons", "detail")},
            "cited": cited,
            "stance": self.stance.to_dict() if self.stance else None,
            "prose": (self.payload or {}).get("prose", ""),
            "dag": dag.to_dict() if dag else None,
            "decision": decision,
            "payload": dict(self.payload) if self.payload else None,
            "failure": self.failure or None,
            "reasoner_note": self.steps[-1].reason if self.steps else "",
            "trace": steps,
            "neighbourhood": {
                "nodes": [n.to_dict() for n in self.neighbourhood.nodes.values()],
                "edges": [e.to_dict() for e in self.neighbourhood.edges],
                "hops": dict(self.neighbourhood.hops),
                "expanded": sorted(self.neighbourhood.expanded),
            },
        }
        if timings:
            out["latency_ms"] = round(self.latency_ms, 3)
        return out

    def to_json(self, *, timings: bool = True) -> str:
        return json.dumps(self.to_dict(timings=timings), sort_keys=True, ensure_ascii=False)


def _failed_decision(failure: str) -> dict:
    return {
        "verdict": "abstain",
        "label": "ABSTAIN",
        "status": None,
        "reasons": ["low-coverage"],
        "detail": failure or "no answer was produced",
    }


def navigate(
    workspace: Workspace,
    index: Index,
    question: str,
    policy: Policy,
    *,
    budget: Budget | None = None,
    edges: Iterable[Edge] = (),
) -> NavResult:
    """Run the navigation loop; any failure inside becomes a labelled abstention, never a raise.

    `edges` are extra edges the router honours (overlay contradictions, confirmed triage).
    """
    budget = budget or Budget()
    started = time.perf_counter()
    run = _Run(workspace, index, question, policy, budget=budget, edges=tuple(edges))
    try:
        run.execute()
    except Exception as exc:  # any failure inside becomes a labelled abstention
        run.failure = f"navigation failed: {type(exc).__name__}: {exc}"
    return NavResult(
        question=question,
        reasoner=getattr(policy, "name", type(policy).__name__),
        budget=budget,
        neighbourhood=run.hood,
        steps=tuple(run.steps),
        decision=run.decision,
        payload=run.payload,
        failure=run.failure,
        latency_ms=(time.perf_counter() - started) * 1000.0,
    )


class _Run:
    """The executor's mutable bookkeeping for one navigation."""

    def __init__(self, workspace, index, question, policy, *, budget, edges):
        self.workspace, self.index, self.question = workspace, index, question
        self.policy, self.budget, self.edges = policy, budget, edges
        self.adapters: list[Adapter] = []
        self.hood = Neighbourhood()
        self.grounded: dict[str, Checked] = {}
        self.steps: list[Step] = []
        self.decision: Decision | None = None
        self.payload: dict | None = None
        self.failure = ""
        self.step_note = ""
        self.terms: QuestionTerms | None = None

    def execute(self) -> None:
        if not self.question.strip():
            self.failure = "empty question"
            return
        self.adapters = build_adapters(self.workspace, self.index)
        self.terms = QuestionTerms(
            self.question, self.index.rarity, notes=self.index.count(), known=in_canon(self.index)
        )
        self._record(ActionKind.RETRIEVE, None, "seed from the index", self._retrieve)
        while len(self.steps) - 1 < self.budget.max_steps:
            state = NavState(
                self.question,
                self.hood,
                dict(self.grounded),
                self.budget,
                len(self.steps) - 1,
                self.workspace,
                self.terms,
            )
            action = self.policy.decide(state)
            if action.kind is ActionKind.ABSTAIN:
                self._record(action.kind, None, action.reason, lambda: ((), ()))
                self.failure = action.reason or "the reasoner abstained"
                return
            if action.kind is ActionKind.ANSWER:
                self._record(action.kind, None, action.reason, self._answer, action)
                return
            apply = self._expand if action.kind is ActionKind.EXPAND else self._ground
            self._record(action.kind, action.target, action.reason, apply, action.target)
        self.failure = f"step budget of {self.budget.max_steps} exhausted before an answer"

    def _record(self, kind, target, reason, fn, *args) -> None:
        start = time.perf_counter()
        self.step_note = ""
        nodes, edges = fn(*args)
        ms = (time.perf_counter() - start) * 1000.0
        if self.step_note:
            reason = f"{reason}; {self.step_note}" if reason else self.step_note
        self.steps.append(
            Step(len(self.steps), kind, target, reason, tuple(nodes), tuple(edges), ms)
        )

    def _retrieve(self):
        seeds: list[Node] = []
        for adapter in self.adapters:
            seeds += adapter.retrieve(self.question, SEEDS_PER_SOURCE)
        self.hood, added, edges = self.hood.grow(seeds, (), hop=0, max_nodes=self.budget.max_nodes)
        return added, edges

    def _expand(self, target: str | None):
        node = self.hood.nodes.get(target or "")
        hop = self.hood.hops.get(target or "", 0)
        if node is None or target in self.hood.expanded or hop >= self.budget.hops:
            return (), ()
        adapter = owner(self.adapters, node.address)
        try:
            neighbours, edges = adapter.expand(node) if adapter is not None else ([], [])
        except Exception as exc:  # expansion is best effort: a failing adapter adds nothing
            neighbours, edges = [], []
            self.step_note = f"expansion failed ({type(exc).__name__}: {exc}); no neighbours"
        self.hood = self.hood.mark_expanded(node.address)
        self.hood, added, new_edges = self.hood.grow(
            neighbours, edges, hop=hop + 1, max_nodes=self.budget.max_nodes
        )
        return added, new_edges

    def _ground(self, target: str | None):
        if not target or target not in self.hood.nodes or target in self.grounded:
            return (), ()
        ground = ground_node(self.workspace, target)
        if ground is None:
            self.grounded[target] = Checked(None, None, Verdict.unresolved_inference())
        else:
            self.grounded[target] = Checked(ground, *ground.check(self.workspace))
        return (), ()

    def _answer(self, action: Action):
        draft = dict(action.draft or {})
        dag = draft.get("dag") or {}
        cited = sorted({ref for c in dag.get("claims", []) for ref in c.get("cites", [])})
        texts = {}
        for claim in dag.get("claims", []):
            for ref in claim.get("cites", []):
                texts.setdefault(ref, claim.get("text"))
        groundings, status, bodies = {}, {}, {}
        for ref in cited:
            checked = self.grounded.get(ref)
            if checked is None or checked.ground is None:
                continue  # never grounded or unresolvable: the router reports a missing hop
            ground = for_claim(self.workspace, checked.ground, texts.get(ref))
            if ground.spec is not None:
                groundings[ref] = {"type": ground.spec.type, "payload": dict(ground.spec.payload)}
            if ground.status is not None:
                status[ref] = {
                    "tier": ground.status.tier.value,
                    **{f: True for f in ground.status.flags()},
                }
            if ground.body.strip():
                bodies[ref] = ground.body
        payload = {
            "dag": dag,
            "prose": draft.get("prose", ""),
            "asserted": draft.get("asserted", {}),
            "groundings": groundings,
            "node_status": status,
            "node_bodies": bodies,
            "edges": [e.to_dict() for e in _relevant_edges(self.hood.edges, self.edges)],
            "coverage_report": self._coverage(dag).to_dict(),
        }
        self.payload = payload
        self.decision = route(parse_payload(payload), workspace=self.workspace.root)
        return (), ()

    def _coverage(self, dag: Mapping) -> CoverageReport:
        """How the conclusion's closure covers the question: its claims and the notes they
        cite (title and checked body); one cited note is one source, so its whole text counts."""
        claims = {c.get("id"): c for c in dag.get("claims", []) if isinstance(c, Mapping)}
        seen, todo, texts = set(), [dag.get("conclusion")], []
        while todo:
            cid = todo.pop()
            claim = claims.get(cid)
            if claim is None or cid in seen:
                continue
            seen.add(cid)
            texts.append(str(claim.get("text") or ""))
            for ref in claim.get("cites") or []:
                node = self.hood.nodes.get(ref)
                if node is not None:
                    texts.append(node.title)
                checked = self.grounded.get(ref)
                if checked is not None and checked.ground is not None:
                    texts.append(checked.ground.body)
            todo.extend(claim.get("premises") or [])
        terms = self.terms or QuestionTerms(
            self.question, self.index.rarity, notes=self.index.count()
        )
        return terms.measure(texts)


def in_canon(index: Index) -> Callable[[str], bool]:
    """Whether any canon note contains a ranking word; practice entries do not count."""
    return lambda word: bool(index.search(word, k=1, store=Store.CANON))


def _relevant_edges(hood_edges: Iterable[Edge], extra: Iterable[Edge]) -> list[Edge]:
    seen: dict[tuple[str, str, str], Edge] = {}
    for edge in [*hood_edges, *extra]:
        if edge.relation == "contradicts":
            seen.setdefault((edge.src, edge.dst, edge.relation), edge)
    return [seen[k] for k in sorted(seen)]

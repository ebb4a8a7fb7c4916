"""The navigator: a policy picks expand, ground, answer or abstain; an executor applies it."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from engine.core.epistemics import Verdict
from engine.core.grounds import GroundingSpec, VerifiedGround
from engine.core.model import CONTRADICTS, Edge, ReasoningDAG
from engine.core.paraphrase import Paraphrased
from engine.core.reads import FileRead
from engine.core.registry import Registry
from engine.core.router import Decision, route
from engine.core.verifiers import Verifier, VerifierResult
from engine.core.wire import RouteInput
from engine.navigation.budget import Budget
from engine.navigation.coverage import CoverageReport, QuestionTerms
from engine.navigation.grounding import NodeGround, for_claim, ground_node
from engine.navigation.outcomes import AlsoStated, Failure, FailureKind, GiveUp
from engine.navigation.premises import with_missing_premises
from engine.navigation.result import NavResult as NavResult
from engine.navigation.steps import Action as Action
from engine.navigation.steps import ActionKind as ActionKind
from engine.navigation.steps import Step as Step
from engine.navigation.substrate import (
    Adapter,
    Neighbourhood,
    Node,
    build_adapters,
    owner,
    unwritten_nodes,
)
from engine.reading.asked import Question, read_question
from engine.workspace.index import Index
from engine.workspace.notes import Store
from engine.workspace.semantic import Semantic
from engine.workspace.stores import Workspace

if TYPE_CHECKING:
    from engine.models.paraphraser import Paraphraser

SEEDS_PER_SOURCE = 6


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
    """What a policy sees when it decides: the question as read once, never to tokenise again."""

    question: Question
    neighbourhood: Neighbourhood
    grounded: Mapping[str, Checked]
    budget: Budget
    steps_taken: int
    workspace: Workspace
    terms: QuestionTerms | None = None
    # The workspace's sentence vectors, when an encoder is present: meaning for the gate.
    semantic: Semantic | None = None
    # The trained reader as a judge of paraphrase, for a sentence words alone leave.
    paraphraser: Paraphraser | None = None

    @property
    def steps_left(self) -> int:
        return self.budget.max_steps - self.steps_taken


class Policy(Protocol):
    """A reasoner: chooses the navigator's next action; the offline reasoner is the default.

    `name` labels the result. `decide` receives a `NavState` (the question, the
    neighbourhood so far, every node grounded with its verdict, the budget and steps
    taken, the workspace) and returns an `Action`: expand or ground a node, answer with a
    `Draft`, or abstain with a reason. It is called until it answers or abstains or the
    step budget runs out; it should not mutate the state. It may raise: the navigator turns
    any exception into a labelled abstention, so a reasoner bug never crashes a page. Its
    draft only proposes: the router verifies every cite and derives every status.
    """

    name: str

    def decide(self, state: NavState) -> Action: ...


# Sees each state a policy decided from and the action it chose; never changes the walk.
Observer = Callable[["NavState", Action], None]


def navigate(
    workspace: Workspace,
    index: Index,
    question: str | Question,
    policy: Policy,
    *,
    budget: Budget | None = None,
    edges: Iterable[Edge] = (),
    verifiers: Registry[Verifier] | None = None,
    observer: Observer | None = None,
    semantic: Semantic | None = None,
    paraphraser: Paraphraser | None = None,
) -> NavResult:
    """Run the navigation loop; any failure inside becomes a labelled abstention, never a raise.

    `edges` are extra edges the router honours (overlay contradictions, confirmed triage).
    `verifiers` (the built-in registry by default) checks each ground once, at grounding
    time; the router reuses those results. `observer`, when given, sees every state the
    policy decided from with the action it chose (tuning and tracing watch the walk with
    it instead of wrapping the reasoner). `semantic` (the workspace's sentence vectors)
    fuses meaning into retrieval and lets the reasoner weigh it; it never licenses anything.
    `paraphraser` (the trained reader with its measured bands) lets the reasoner answer, at
    most hedged, with a sentence words alone leave but the reader reads as an answer.
    A question given as text is read here (`read_question`, which raises ConfigError for
    one over the length limit).
    """
    asked = read_question(question)
    budget = budget or Budget()
    started = time.perf_counter()
    run = _Run(
        workspace,
        index,
        asked,
        policy,
        budget=budget,
        edges=tuple(edges),
        verifiers=verifiers,
        observer=observer,
    )
    run.semantic, run.paraphraser = semantic, paraphraser
    try:
        run.execute()
    except Exception as exc:  # any failure inside becomes a labelled abstention
        run.failure = Failure(
            FailureKind.INTERNAL, f"navigation failed: {type(exc).__name__}: {exc}"
        )
    return NavResult(
        question=asked.text,
        reasoner=getattr(policy, "name", type(policy).__name__),
        budget=budget,
        neighbourhood=run.hood,
        steps=tuple(run.steps),
        decision=run.decision,
        route_input=run.route_input,
        coverage=run.coverage,
        failure=run.failure,
        latency_ms=(time.perf_counter() - started) * 1000.0,
        given_up=run.given_up,
        also_stated=run.also_stated,
        reads=tuple(run.reads),
    )


class _Run:
    """The executor's mutable bookkeeping for one navigation."""

    def __init__(
        self,
        workspace: Workspace,
        index: Index,
        question: Question,
        policy: Policy,
        *,
        budget: Budget,
        edges: tuple[Edge, ...],
        verifiers: Registry[Verifier] | None,
        observer: Observer | None = None,
    ) -> None:
        self.workspace, self.index, self.question = workspace, index, question
        self.policy, self.budget, self.edges = policy, budget, edges
        self.verifiers: Registry[Verifier] | None = verifiers
        self.observer = observer
        self.adapters: list[Adapter] = []
        self.hood = Neighbourhood()
        self.grounded: dict[str, Checked] = {}
        self.steps: list[Step] = []
        self.decision: Decision | None = None
        self.route_input: RouteInput | None = None
        self.coverage: CoverageReport | None = None
        self.failure: Failure | None = None
        self.given_up: GiveUp | None = None
        self.also_stated: AlsoStated | None = None
        self.step_note = ""
        self.terms: QuestionTerms | None = None
        self.semantic: Semantic | None = None
        self.paraphraser: Paraphraser | None = None
        self.paraphrased: Paraphrased | None = None
        # Every file grounding and the verifiers read, hashed as read: the answer's stamp.
        self.reads: list[FileRead] = []

    def execute(self) -> None:
        if self.question.blank:
            self.failure = Failure(FailureKind.EMPTY)
            return
        self.adapters = build_adapters(self.workspace, self.index, self.semantic)
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
                self.semantic,
                self.paraphraser,
            )
            action = self.policy.decide(state)
            if self.observer is not None:
                self.observer(state, action)
            if action.kind is ActionKind.ABSTAIN:
                self._record(action.kind, None, action.reason, lambda: ((), ()))
                self.failure = action.failure or Failure(FailureKind.ABSTAINED, action.reason)
                return
            if action.kind is ActionKind.ANSWER:
                self.given_up = action.given_up
                self.also_stated = action.also_stated
                self.paraphrased = action.paraphrased
                self._record(action.kind, None, action.reason, self._answer, action)
                return
            apply = self._expand if action.kind is ActionKind.EXPAND else self._ground
            self._record(action.kind, action.target, action.reason, apply, action.target)
        self.failure = Failure(
            FailureKind.BUDGET, f"step budget of {self.budget.max_steps} exhausted before an answer"
        )

    def _record(
        self,
        kind: ActionKind,
        target: str | None,
        reason: str,
        fn: Callable[..., tuple[Iterable[str], Iterable[Edge]]],
        *args: Any,
    ) -> None:
        start = time.perf_counter()
        self.step_note = ""
        nodes, edges = fn(*args)
        ms = (time.perf_counter() - start) * 1000.0
        if self.step_note:
            reason = f"{reason}; {self.step_note}" if reason else self.step_note
        self.steps.append(
            Step(len(self.steps), kind, target, reason, tuple(nodes), tuple(edges), ms)
        )

    def _retrieve(self) -> tuple[tuple[str, ...], tuple[Edge, ...]]:
        seeds: list[Node] = []
        for adapter in self.adapters:
            seeds += adapter.retrieve(self.question.text, SEEDS_PER_SOURCE)
        self.hood, added, edges = self.hood.grow(seeds, (), hop=0, max_nodes=self.budget.max_nodes)
        return added, edges

    def _expand(self, target: str | None) -> tuple[Iterable[str], Iterable[Edge]]:
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

    def _ground(self, target: str | None) -> tuple[tuple[str, ...], tuple[Edge, ...]]:
        if not target or target not in self.hood.nodes or target in self.grounded:
            return (), ()
        ground = ground_node(self.workspace, target)
        if ground is None:
            self.grounded[target] = Checked(None, None, Verdict.unresolved_inference())
        else:
            result, verdict = ground.check(self.workspace, verifiers=self.verifiers)
            self.grounded[target] = Checked(ground, result, verdict)
            self.reads += [*ground.reads, *(result.reads if result is not None else ())]
        return (), ()

    def _answer(self, action: Action) -> tuple[tuple[str, ...], tuple[Edge, ...]]:
        draft = action.draft
        if draft is None:
            raise TypeError("an answer action carries no draft")
        draft = with_missing_premises(draft, self.workspace)
        dag = draft.dag
        texts: dict[str, str] = {}
        for claim in dag.claims:
            for ref in claim.cites:
                texts.setdefault(ref, claim.text)
        groundings: dict[str, GroundingSpec] = {}
        status: dict[str, Verdict] = {}
        bodies: dict[str, str] = {}
        verified: dict[str, VerifiedGround] = {}
        for ref in sorted(texts):
            checked = self.grounded.get(ref)
            if checked is None or checked.ground is None:
                continue  # never grounded or unresolvable: the router reports a missing hop
            ground = for_claim(self.workspace, checked.ground, texts[ref])
            if ground.spec is not None:
                groundings[ref] = ground.spec
            known = checked.ground.verified(checked.result)
            if known is not None:
                verified[ref] = known
            if ground.status is not None:
                status[ref] = ground.status
            if ground.body.strip():
                bodies[ref] = ground.body
        self.coverage = self._coverage(dag)
        # A paraphrase the reader vouches for names the words it never uses instead of
        # stopping on them; the router keeps it at most hedged.
        paraphrased = self.paraphrased
        self.route_input = RouteInput.from_draft(
            draft,
            groundings=groundings,
            node_status=status,
            node_bodies=bodies,
            edges=tuple(_relevant_edges(self.hood.edges, self.edges)),
            blocking_count=0 if paraphrased else self.coverage.blocking_count,
            uncovered=() if paraphrased else tuple(self.coverage.uncovered),
            unmentioned=self.coverage.named(paraphrase=paraphrased is not None),
            paraphrased=paraphrased,
            verified=verified,
        )
        self.decision = route(
            self.route_input, workspace=self.workspace.root, verifiers=self.verifiers
        )
        # The router checks again any ground whose quote the claim chose anew.
        for result in self.decision.verifier_results.values():
            self.reads += result.reads
        # A cited note not written yet joins the neighbourhood under the name its link gave
        # it, so the missing hop is shown and named rather than silently absent.
        unwritten, links = unwritten_nodes(self.workspace, self.decision.missing_refs)
        size = len(self.hood.nodes) + len(unwritten)
        self.hood, added, new_edges = self.hood.grow(unwritten, links, hop=1, max_nodes=size)
        return added, new_edges

    def _coverage(self, dag: ReasoningDAG) -> CoverageReport:
        """How the conclusion's closure covers the question: its claims and the notes they
        cite (title and checked body); one cited note is one source, so its whole text counts."""
        seen, todo, texts, quoted = set(), [dag.conclusion], [], []
        while todo:
            cid = todo.pop()
            if cid in seen:
                continue
            seen.add(cid)
            claim = dag.claim(cid)
            texts.append(claim.text)
            quoted.append(claim.text)
            for ref in claim.cites:
                node = self.hood.nodes.get(ref)
                if node is not None:
                    texts.append(node.title)
                    quoted.append(node.title)
                checked = self.grounded.get(ref)
                if checked is not None and checked.ground is not None:
                    texts.append(checked.ground.body)
            todo.extend(claim.premises)
        terms = self.terms or QuestionTerms(
            self.question, self.index.rarity, notes=self.index.count()
        )
        return terms.measure(texts, quoted=quoted)


def in_canon(index: Index) -> Callable[[str], bool]:
    """Whether any canon note contains a ranking word; practice entries do not count."""
    return lambda word: bool(index.search(word, k=1, store=Store.CANON))


def _relevant_edges(hood_edges: Iterable[Edge], extra: Iterable[Edge]) -> list[Edge]:
    seen: dict[tuple[str, str, str], Edge] = {}
    for edge in [*hood_edges, *extra]:
        if edge.relation == CONTRADICTS:
            seen.setdefault((edge.src, edge.dst, edge.relation), edge)
    return [seen[k] for k in sorted(seen)]

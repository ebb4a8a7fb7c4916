"""The engine's Python API: open a workspace, ask a question, route a wire payload.

Here navigation meets review: the contradictions a workspace's review scope lets contest
(`engine.review.contest`) are handed to the router, and every contradiction touching an
answer's cited nodes, contesting or only disclosed, comes back with the answer.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.core.model import Claim, ClaimKind, Edge
from engine.core.registry import Registry
from engine.core.router import Decision, route
from engine.core.stance import NO_CUE, Overstated, Stance, StanceRelation
from engine.core.verifiers import Verifier
from engine.core.wire import RouteInput, parse_json, parse_payload
from engine.navigation.budget import Budget
from engine.navigation.coverage import CoverageReport
from engine.navigation.navigator import Observer, navigate
from engine.navigation.outcomes import Failure, FailureKind
from engine.navigation.reasoners.reasoner_registry import ReasonerSpec, make_reasoner
from engine.navigation.result import NavResult
from engine.navigation.substrate import Neighbourhood
from engine.reading.asked import (
    MAX_QUESTION_CHARS,
    Question,
    claim_shaped,
    question_problem,
    read_question,
)
from engine.review.claim_stance import read_by, stance_toward
from engine.review.contest import Disclosure
from engine.review.next_withdrawal import following_sentences
from engine.review.snapshot import ReviewSnapshot, review_stamp
from engine.workspace.freshness import Freshness, content_stamp, freshness
from engine.workspace.in_context import InContext, in_context
from engine.workspace.opened import OpenWorkspace, open_workspace
from engine.workspace.watch import Seen, Watcher

if TYPE_CHECKING:
    from engine.importers.sources import AddReport
    from engine.models.paraphraser import Paraphraser

__all__ = [
    "MAX_QUESTION_CHARS",
    "Answer",
    "Freshness",
    "OpenWorkspace",
    "answer",
    "ask",
    "claim_shaped",
    "contests_now",
    "open_workspace",
    "question_problem",
    "question_stance",
    "quoted_in_context",
    "review_edges",
    "review_stamp",
    "route_json",
    "route_payload",
    "sentences_stance",
    "stance_toward",
]


def review_edges(root: str | Path) -> list[Edge]:
    """The `contradicts` edges that contest nodes for the workspace at `root`.

    Confirmed triage contradictions; overlay ones not dismissed as well only when the
    workspace sets `contest = "unreviewed"`. Raises ConfigError for a bad setting.
    """
    return ReviewSnapshot.load(root).edges()


@dataclass(frozen=True)
class Answer:
    """A navigation run with the contradictions on its cited nodes and the review it saw."""

    run: NavResult
    contests: Disclosure | None  # None for a routed payload, which cites no workspace
    review_stamp: str  # changes when the triage log, overlay or settings change
    review_stale: bool = False  # a triage decision on a cited pair came after it
    rerouted: bool = False  # asked again after such a decision, or after `files_changed`
    content_stamp: str = ""  # the bytes its cited nodes rest on, hashed as they were read
    files_changed: bool = False  # a file it rests on changed on disk after it was routed

    @classmethod
    def from_route(cls, decision: Decision, payload: dict[str, Any]) -> Answer:
        """A routed wire payload as an answer, with no contests and no review behind it."""
        return cls(NavResult.from_route(decision, payload), None, "")

    @property
    def label(self) -> str:
        return self.run.label

    def to_dict(self, *, timings: bool = True) -> dict[str, Any]:
        """The run's JSON with `contests` (scope, summary, items) and `review_stamp` added."""
        out = {
            **self.run.to_dict(timings=timings),
            "contests": self.contests.to_dict() if self.contests else None,
            "review_stamp": self.review_stamp,
        }
        flags = ("review_stale", "rerouted", "files_changed")
        out.update({k: True for k in flags if getattr(self, k)})
        return out

    def freshness(self, opened: OpenWorkspace, watcher: Watcher | None = None) -> Freshness:
        """Whether the files this answer rests on are still what it was routed on.

        With the workspace's `watcher`, the files' hashes as on disk now are the watcher's
        (each file stat-ed, read only when it moved); without one, every file is read.
        """
        return self.checked(opened, watcher, None)[0]

    def checked(
        self, opened: OpenWorkspace, watcher: Watcher | None, seen: Seen | None
    ) -> tuple[Freshness, Seen | None]:
        """`freshness`, and where it was found current to skip the next check while the
        watcher publishes no change to its files (`seen`, that of the previous check).

        Nothing is stat-ed or read when `seen` still holds: sessions compare stamps.
        """
        if not self.content_stamp or not self.run.question:
            return Freshness.CURRENT, None
        if watcher is None:
            return freshness(opened.workspace, self.run.cited, self.content_stamp), None
        return watcher.freshness(opened.workspace, self.run.cited, self.content_stamp, seen)


def answer(
    opened: OpenWorkspace,
    question: str | Question,
    *,
    reasoner: ReasonerSpec = "offline",
    budget: Budget | None = None,
    review: ReviewSnapshot | None = None,
    verifiers: Registry[Verifier] | None = None,
    observer: Observer | None = None,
) -> Answer:
    """Answer `question` under the workspace's review, disclosing contradictions.

    `review` is the snapshot of the workspace's review the answer is made under, read now
    when not given; `verifiers` and `observer` are `ask`'s. Raises ConfigError for an
    unusable `contest` setting or a question `question_problem` refuses; nothing else raises.
    A question given as text is read here, once (`read_question`).
    """
    asked = read_question(question)
    if review is None:
        review = ReviewSnapshot.load(opened.root)
    run = ask(
        opened,
        asked,
        reasoner=reasoner,
        budget=budget,
        edges=review.edges(),
        verifiers=verifiers,
        observer=observer,
    )
    cited = run.decision.cited if run.decision is not None else ()
    files = content_stamp(opened.workspace, run.cited, reads=run.reads)
    contests = review.disclose(cited, opened.workspace)
    return Answer(run, contests, review.stamp, content_stamp=files)


def add_pdf_folder(
    folder: str | Path, workspace: str | Path, *, progress: Callable[[int, int], None] | None = None
) -> AddReport:
    """Add every PDF under `folder` to the workspace at `workspace` (created when absent).

    A folder of sources is a workspace of its own. Raises ConfigError for a folder that
    does not exist.
    """
    # Imported here: asking never reads a PDF, and the PDF reader is slow to import.
    from engine.importers.sources import add_pdfs, collect_pdfs

    return add_pdfs(workspace, collect_pdfs([str(folder)]), progress=progress)


def quoted_in_context(opened: OpenWorkspace, run: NavResult) -> tuple[InContext, ...]:
    """Each verified restatement of the answer in its source: citation, page, neighbours."""
    decision = run.decision
    if decision is None:
        return ()
    out = []
    for cid in decision.dag.premise_closure(decision.conclusion):
        claim = decision.dag.claim(cid)
        if claim.kind is not ClaimKind.RESTATEMENT or not decision.claim_verdicts[cid].verified:
            continue
        for ref in claim.cites:
            check = decision.verifier_results.get(ref)
            page = check.page if check is not None else None
            found = in_context(opened.workspace, ref, claim.text, page)
            if found is not None:
                out.append(found)
    return tuple(out)


def contests_now(
    opened: OpenWorkspace, cited: Iterable[str], review: ReviewSnapshot | None = None
) -> Disclosure:
    """The contradictions on `cited` nodes as the workspace's review stands now."""
    if review is None:
        review = ReviewSnapshot.load(opened.root)
    return review.disclose(cited, opened.workspace)


def ask(
    opened: OpenWorkspace,
    question: str | Question,
    *,
    reasoner: ReasonerSpec = "offline",
    budget: Budget | None = None,
    edges: Iterable[Edge] | None = None,
    verifiers: Registry[Verifier] | None = None,
    observer: Observer | None = None,
    paraphraser: Paraphraser | None = None,
) -> NavResult:
    """Answer `question` over the workspace; never raises for a failure inside the run.

    `observer` sees every state the reasoner decided from and the action it chose.
    `paraphraser` judges paraphrases in place of the shipped reader and its bands (which
    judge only where a band was measured to answer); either only beside sentence vectors.

    `reasoner` is a registered name (`offline`, `openai`) or a policy object. A reasoner
    that cannot be built (say, no endpoint configured) becomes a labelled abstention.
    `edges` default to `review_edges`: confirmed triage contradictions (and unreviewed
    overlay ones when the workspace opts in), which make their endpoints contested.
    `verifiers` defaults to the built-in verifier registry. A question given as text is read
    here, once (`read_question`: ConfigError for one `question_problem` refuses).
    """
    asked = read_question(question)
    if edges is None:
        edges = review_edges(opened.root)
    if isinstance(reasoner, str):
        try:
            policy = make_reasoner(reasoner)
        except Exception as exc:  # a misconfigured reasoner is reported, not raised
            return NavResult(
                question=asked.text,
                reasoner=reasoner,
                budget=budget or Budget(),
                neighbourhood=Neighbourhood(),
                steps=(),
                failure=Failure(
                    FailureKind.UNAVAILABLE, f"reasoner {reasoner!r} unavailable: {exc}"
                ),
            )
    else:
        policy = reasoner
    result = navigate(
        opened.workspace,
        opened.index,
        asked,
        policy,
        budget=budget,
        edges=edges,
        verifiers=verifiers,
        observer=observer,
        semantic=opened.meaning.semantic,
        paraphraser=_paraphraser(opened, paraphraser),
    )
    started = time.perf_counter()
    # A typo the coverage report corrected is read as the sources spell it ("asprin").
    spelled = result.coverage.respell(asked.text) if result.coverage is not None else asked.text
    as_spelled = asked if spelled == asked.text else Question.of(spelled)
    stance = question_stance(as_spelled, result.decision, result.coverage, result.route_input)
    result = _hold_back(replace(result, stance=stance), opened, verifiers)
    spent = (time.perf_counter() - started) * 1000.0
    return replace(result, latency_ms=result.latency_ms + spent)


def _paraphraser(opened: OpenWorkspace, given: Paraphraser | None) -> Paraphraser | None:
    """The reader as a judge of paraphrase, beside sentence vectors only (as it was measured)."""
    if opened.meaning.semantic is None or not opened.paraphrase:
        return None
    if given is not None:
        return given
    from engine.models.paraphraser import load_paraphraser

    return load_paraphraser()


def _hold_back(
    result: NavResult, opened: OpenWorkspace, verifiers: Registry[Verifier] | None
) -> NavResult:
    """Route again, hedged, a green answer its stance cannot call a yes to what was asked.

    Two things hold it back. A relation word of the question the stance cannot read in the
    text (`_unread_relations`) is unmet. A yes the yes rules withhold (the claim says more
    than the quoted sentence: a hedge or condition left out, a direction, a prefix or a
    comparison turned around, a word put out for another) goes into the report as
    `withheld`. The sentence is still what the source says, so it stands, hedged, with the
    reason named; a green would tell the reader the question was answered as asked. A stated
    claim is held the same way for a withheld yes: a green beside it reads as "confirmed".
    And a reading of neither holds it back too (`Overstated.UNREAD`): text whose words say
    neither yes nor no has not answered the claim or the yes/no question it stands beside.
    """
    coverage, decision, inp, stance = (
        result.coverage,
        result.decision,
        result.route_input,
        result.stance,
    )
    if coverage is None or decision is None or inp is None or stance is None:
        return result
    if decision.label != "ANSWER":
        return result
    held = replace(
        _unread_relations(coverage, stance),
        withheld=_withheld(stance, inp),
        withheld_no=stance.withheld_no,
    )
    if held == coverage:
        return result
    unsaid = held.named(paraphrase=inp.paraphrased is not None)
    again = replace(inp, unmentioned=unsaid, withheld=held.withheld, withheld_no=held.withheld_no)
    rerouted = route(again, workspace=opened.workspace.root, verifiers=verifiers)
    return replace(result, decision=rerouted, route_input=again, coverage=held)


def _withheld(stance: Stance, inp: RouteInput) -> Overstated | None:
    """The rule that keeps the answer from a yes or a no to what was asked: the one the stance
    names, or, where its words read as neither, `Overstated.UNREAD` (a green would tell the
    reader the claim or the yes/no question was answered; a paraphrase is hedged already)."""
    if stance.overstated is not None:
        return stance.overstated
    if stance.relation is StanceRelation.NEITHER and inp.paraphrased is None:
        return Overstated.UNREAD
    return None


def _unread_relations(coverage: CoverageReport, stance: Stance) -> CoverageReport:
    """The report with each relation word the stance cannot read as a yes or a no unmet.

    Coverage lets a relation the source states ("downregulated") meet the one a question
    asks ("promote"), since which relation it is is the stance's to read. Unless the
    yes/no reading of a question reads that word (`read_by`), the asked relation was never
    said ("Does surgery lead to negative outcomes?" against "weight loss … mental health
    improved"). Only a question asks for a yes or a no: a stated claim's relation is met by
    any the source states, as its stance then reads.
    """
    if not stance.asked or not coverage.related:
        return coverage
    read = read_by(stance, coverage.related)
    if len(read) == len(coverage.related):
        return coverage
    return coverage.unread(read)


def question_stance(
    question: str | Question,
    decision: Decision | None,
    coverage: CoverageReport | None = None,
    routed: RouteInput | None = None,
) -> Stance | None:
    """How the answer's verified sentences relate to the claim the question states or asks.

    A yes/no question ("Does X reduce Y?") is read as the claim it asks about, and the
    stance is its answer: yes (supports), no (contradicts) or mixed (neither). None for any
    other question, or when nothing verified answers it. Precision
    first: `contradicts` or `supports` only on an explicit cue (opposite or shared direction
    words, a changed or repeated number, a negation, a null result); otherwise `neither`.
    An answer whose quoted text never says a word that sets the question apart (by
    `coverage`; without it, any word the decision names) reads `neither`. With `routed`
    (what was routed, its node bodies), a yes the next sentence of its source takes back
    ("However, this relationship is no longer observed after adjusting …") reads `neither`.
    """
    if decision is None or not decision.answered:
        return None
    off_topic = (
        any(t.distinct and t.unmet for t in coverage.terms)
        if coverage is not None
        else bool(decision.unmentioned)
    )
    claims = _verified_claims(decision)
    after = following_sentences(claims, routed.node_bodies) if routed is not None else {}
    sentences = list(dict.fromkeys(claim.text for claim in claims))
    return sentences_stance(question, sentences, off_topic=off_topic, after=after)


def sentences_stance(
    question: str | Question,
    sentences: list[str],
    *,
    off_topic: bool,
    after: Mapping[str, str] | None = None,
) -> Stance | None:
    """How verbatim `sentences` relate to the claim the question states or asks.

    The reading `question_stance` gives an answer, for any sentences (a row of the evidence
    table). `off_topic`: the sentences never say a word that sets the question apart, so
    they read `neither`. None for a what, how or why question, or without sentences.
    `after` maps a sentence to the one after it in its source (`stance_toward`).
    """
    read = question if isinstance(question, Question) else Question.of(question)
    if off_topic and (read.claim_shaped or read.asks is not None):
        # Text that never says what the question asks about cannot answer yes or no to it.
        evidence = next(iter(sentences), "")
        return Stance(StanceRelation.NEITHER, NO_CUE, 0.0, evidence, asked=not read.claim_shaped)
    if read.claim_shaped:
        return stance_toward(read.text, sentences, after=after)
    asked = read.asks
    if asked is None:
        return None  # a what, how or why question has no yes or no to read
    found = stance_toward(asked, sentences, after=after)
    return replace(found, asked=True, denied=read.denies) if found is not None else None


def _verified_claims(decision: Decision) -> list[Claim]:
    """The verified restatements the conclusion rests on, conclusion first."""
    dag = decision.dag
    out = []
    for cid in [decision.conclusion, *sorted(dag.premise_closure(decision.conclusion))]:
        claim = dag.claim(cid)
        verdict = decision.claim_verdicts.get(cid)
        if claim.kind is ClaimKind.RESTATEMENT and verdict is not None and verdict.verified:
            out.append(claim)
    return out


def route_payload(
    payload: dict[str, Any], *, workspace: str | Path | None = None
) -> dict[str, Any]:
    """Route a decoded wire payload; raises `PayloadError` naming the problem when malformed.

    The result is JSON-serialisable and identical for identical input.
    """
    return route(parse_payload(payload), workspace=workspace).to_dict()


def route_json(text: str | bytes, *, workspace: str | Path | None = None) -> Decision:
    """Route wire-format JSON text to the router's `Decision`, its DAG included.

    Raises `PayloadError` naming the problem when the text is not a valid payload.
    """
    return route(parse_json(text), workspace=workspace)

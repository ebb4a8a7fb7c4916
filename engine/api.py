"""The engine's Python API: open a workspace, ask a question, route a wire payload.

Here navigation meets review: the contradictions a workspace's review scope lets contest
(`engine.review.contest`) are handed to the router, and every contradiction touching an
answer's cited nodes, contesting or only disclosed, comes back with the answer.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from engine.core.model import Edge
from engine.core.router import Decision, route
from engine.core.wire import parse_json, parse_payload
from engine.navigation.navigator import NavResult, navigate
from engine.navigation.reasoners.offline import make_reasoner
from engine.navigation.substrate import Budget, Neighbourhood
from engine.review.contest import Disclosure, ReviewScope, disclose, review_scope, review_stamp
from engine.workspace.opened import OpenWorkspace, open_workspace

__all__ = [
    "Answer",
    "OpenWorkspace",
    "answer",
    "ask",
    "contests_now",
    "open_workspace",
    "review_edges",
    "route_json",
    "route_payload",
]


def review_edges(root: str | Path) -> list[Edge]:
    """The `contradicts` edges that contest nodes for the workspace at `root`.

    Confirmed triage contradictions; overlay ones not dismissed as well only when the
    workspace sets `contest = "unreviewed"`. Raises ConfigError for a bad setting.
    """
    return review_scope(root).edges()


@dataclass(frozen=True)
class Answer:
    """A navigation run with the contradictions on its cited nodes and the review it saw."""

    run: NavResult
    contests: Disclosure
    review_stamp: str  # changes when the triage log, overlay or settings change

    @property
    def label(self) -> str:
        return self.run.label

    def to_dict(self, *, timings: bool = True) -> dict:
        """The run's JSON with `contests` (scope, summary, items) and `review_stamp` added."""
        return {
            **self.run.to_dict(timings=timings),
            "contests": self.contests.to_dict(),
            "review_stamp": self.review_stamp,
        }


def answer(
    opened: OpenWorkspace,
    question: str,
    *,
    reasoner: str | object = "offline",
    budget: Budget | None = None,
) -> Answer:
    """Answer `question` under the workspace's review scope, disclosing contradictions.

    Raises ConfigError for an unusable `contest` setting; nothing else raises.
    """
    stamp = review_stamp(opened.root)
    review: ReviewScope = review_scope(opened.root)
    run = ask(opened, question, reasoner=reasoner, budget=budget, edges=review.edges())
    cited = run.decision.cited if run.decision is not None else ()
    return Answer(run, disclose(review, cited, opened.workspace), stamp)


def contests_now(opened: OpenWorkspace, cited: Iterable[str]) -> Disclosure:
    """The contradictions on `cited` nodes as the workspace's review stands now."""
    return disclose(review_scope(opened.root), cited, opened.workspace)


def ask(
    opened: OpenWorkspace,
    question: str,
    *,
    reasoner: str | object = "offline",
    budget: Budget | None = None,
    edges: Iterable[Edge] | None = None,
) -> NavResult:
    """Answer `question` over the workspace; never raises for a failure inside the run.

    `reasoner` is a registered name (`offline`, `openai`) or a policy object. A reasoner
    that cannot be built (say, no endpoint configured) becomes a labelled abstention.
    `edges` default to `review_edges`: confirmed triage contradictions (and unreviewed
    overlay ones when the workspace opts in), which make their endpoints contested.
    """
    if edges is None:
        edges = review_edges(opened.root)
    if isinstance(reasoner, str):
        try:
            policy = make_reasoner(reasoner)
        except Exception as exc:  # a misconfigured reasoner is reported, not raised
            return NavResult(
                question=question,
                reasoner=reasoner,
                budget=budget or Budget(),
                neighbourhood=Neighbourhood(),
                steps=(),
                failure=f"reasoner {reasoner!r} unavailable: {exc}",
            )
    else:
        policy = reasoner
    return navigate(opened.workspace, opened.index, question, policy, budget=budget, edges=edges)


def route_payload(payload: dict, *, workspace: str | Path | None = None) -> dict:
    """Route a decoded wire payload; raises `PayloadError` naming the problem when malformed.

    The result is JSON-serialisable and identical for identical input.
    """
    return route(parse_payload(payload), workspace=workspace).to_dict()


def route_json(text: str | bytes, *, workspace: str | Path | None = None) -> Decision:
    """Route wire-format JSON text to the router's `Decision`, its DAG included.

    Raises `PayloadError` naming the problem when the text is not a valid payload.
    """
    return route(parse_json(text), workspace=workspace)

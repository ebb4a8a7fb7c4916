"""The engine's Python API: open a workspace, ask a question, route a wire payload."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from engine.core.model import Edge
from engine.core.router import Decision, route
from engine.core.wire import parse_json, parse_payload
from engine.navigation.navigator import NavResult, navigate
from engine.navigation.reasoners.offline import make_reasoner
from engine.navigation.substrate import Budget, Neighbourhood
from engine.review.triage import review_edges
from engine.workspace.opened import OpenWorkspace, open_workspace

__all__ = ["OpenWorkspace", "ask", "open_workspace", "route_json", "route_payload"]


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
    `edges` default to the workspace's review edges: confirmed triage contradictions and
    overlay contradictions not dismissed, which make their endpoints contested.
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

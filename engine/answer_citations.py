"""An answer's citations as the workspace knows them: names, and the evidence each one opens.

Here a routed result meets the workspace's notes: each cited address gets the name a
reader knows it by and opens its note, abstract or source page with the quoted sentences
marked. An audited payload routed inside a workspace names the notes it cites by title too.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from engine.api import Answer, route_json
from engine.navigation.result import NavResult
from engine.navigation.substrate import Neighbourhood, Node
from engine.workspace.cited_notes import Evidence, cite_label, evidence
from engine.workspace.opened import OpenWorkspace
from engine.workspace.stores import Workspace

__all__ = ["answer_evidence", "audit_answer", "cite_labels", "cited_refs"]


def cited_refs(run: NavResult) -> tuple[str, ...]:
    """Every address a claim of the result cites, in the order the claims cite them."""
    decision = run.decision
    if decision is None:
        return run.cited
    refs = [ref for claim in decision.dag.claims for ref in claim.cites]
    return tuple(dict.fromkeys(refs))


def cite_labels(workspace: Workspace, refs: Iterable[str]) -> dict[str, str]:
    """Address -> "Author Year", note title, or the address when the workspace lacks it."""
    return {ref: cite_label(workspace, ref) for ref in refs}


def quotes_of(run: NavResult, ref: str) -> tuple[str, ...]:
    """What the answer quotes from `ref`: its claims' texts and the text a verifier confirmed."""
    decision = run.decision
    if decision is None:
        return ()
    said = [c.text for c in decision.dag.claims if ref in c.cites and c.text.strip()]
    check = decision.verifier_results.get(ref)
    if check is not None and check.confirmed_source_text:
        said.append(check.confirmed_source_text)
    return tuple(dict.fromkeys(said))


def answer_evidence(opened: OpenWorkspace, run: NavResult) -> tuple[Evidence, ...]:
    """Each cited address of the result and what its citation opens, in citing order."""
    decision = run.decision
    out = []
    for ref in cited_refs(run):
        check = decision.verifier_results.get(ref) if decision is not None else None
        page = check.page if check is not None else None
        out.append(evidence(opened.workspace, ref, quotes_of(run, ref), page))
    return tuple(out)


def audit_answer(text: str | bytes, opened: OpenWorkspace | None = None) -> Answer:
    """Route a pasted payload; inside a workspace its cited notes are known by their titles.

    Raises PayloadError for a payload that does not parse or route.
    """
    routed = route_json(text, workspace=opened.root if opened is not None else None)
    payload: Any = json.loads(text)
    result = Answer.from_route(routed, payload)
    if opened is None:
        return result
    nodes = {}
    for ref in cited_refs(result.run):
        note = opened.workspace.note(ref)
        if note is not None:
            nodes[ref] = Node.from_note(note)
    if not nodes:
        return result
    run = replace(result.run, neighbourhood=Neighbourhood(nodes=nodes))
    return replace(result, run=run)

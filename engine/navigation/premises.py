"""A claim note's premises as the draft must carry them: one not written yet is never dropped.

A canon claim note says what it is derived from by typed links (`derives-from:: [[note]]`).
When a draft cites such a note and leaves out a premise that no note holds, the draft gains
that premise as a claim citing the unwritten address, so the router sees a missing hop
(no verdict) and no answer can rest on the claim. Any reasoner's draft goes through here.
"""

from __future__ import annotations

from dataclasses import replace

from engine.core.model import Claim, ClaimKind
from engine.core.wire import Draft
from engine.workspace.notes import NoteKind
from engine.workspace.stores import Workspace

# Relations by which a canon claim note points at the notes it is derived from.
PREMISE_RELATIONS = frozenset(
    {"derives-from", "derived-from", "rests-on", "supported-by", "premise"}
)


def with_missing_premises(draft: Draft, workspace: Workspace) -> Draft:
    """`draft` with every unwritten premise of a cited claim note added as a claim it rests
    on; the same draft when none is missing."""
    dag = draft.dag
    closure = set(dag.premise_closure(dag.conclusion))
    cited = {ref for claim in dag.claims for ref in claim.cites}
    taken = {claim.id for claim in dag.claims}
    added: list[Claim] = []
    rests: dict[str, list[str]] = {}
    for claim in dag.claims:
        if claim.id not in closure:
            continue
        for ref in claim.cites:
            note = workspace.note(ref)
            if note is None or note.type is not NoteKind.CLAIM:
                continue
            for link in note.links:
                target = link.target_address
                if link.relation not in PREMISE_RELATIONS or target in cited:
                    continue
                if workspace.note(target) is not None:
                    continue
                cid = _fresh_id(taken)
                name = link.label or target.rsplit(":", 1)[-1]
                added.append(Claim(cid, name, ClaimKind.RESTATEMENT, (target,)))
                rests.setdefault(claim.id, []).append(cid)
                cited.add(target)
    if not added:
        return draft
    claims = [
        replace(c, premises=c.premises + tuple(rests[c.id])) if c.id in rests else c
        for c in dag.claims
    ]
    return Draft.build(
        [*claims, *added],
        dag.conclusion,
        dag.prose_citations,
        prose=draft.prose,
        asserted=draft.asserted,
    )


def kept_premises(workspace: Workspace, premises: list[str], most: int) -> list[str]:
    """The premises a draft rests on: the first `most` written ones, and every one not
    written yet, in the note's order. A missing hop is never dropped to fit a budget."""
    written = [p for p in premises if workspace.note(p) is not None][:most]
    return [p for p in dict.fromkeys(premises) if p in written or workspace.note(p) is None]


def link_name(workspace: Workspace, address: str, target: str) -> str:
    """How the note at `address` names its link to `target` (its id when it names none)."""
    note = workspace.note(address)
    for link in note.links if note is not None else ():
        if link.target_address == target and link.label:
            return link.label
    return target.rsplit(":", 1)[-1]


def _fresh_id(taken: set[str]) -> str:
    n = 1
    while f"missing-{n}" in taken:
        n += 1
    taken.add(f"missing-{n}")
    return f"missing-{n}"

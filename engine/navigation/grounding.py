"""Groundings from the nodes themselves: which verifier checks a note, and its tether status."""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.core.epistemics import Tier, Verdict
from engine.core.grounds import GroundingSpec, VerifiedGround, check, merge_status
from engine.core.model import Address
from engine.core.reads import FileRead
from engine.core.registry import Registry
from engine.core.verifiers import Verifier, VerifierResult
from engine.navigation.substrate import CODE_STORE, MAX_CODE_BYTES
from engine.text.tokens import word_sequence
from engine.workspace.notes import Note, Quote, Store
from engine.workspace.stores import TetherState, Workspace, tether_state

_TETHER_FLAGS = {
    TetherState.FRESH: {},
    TetherState.OUTDATED: {"outdated": True},
    TetherState.STALE: {"stale": True},
    TetherState.UNRESOLVED: {"unresolved": True},
}


@dataclass(frozen=True)
class NodeGround:
    """How a node is grounded: the verifier spec, an explicit status, and the full body."""

    address: str
    spec: GroundingSpec | None
    status: Verdict | None
    body: str
    tether: TetherState | None = None
    # The files grounding read besides the note itself (a code file, a tethered file).
    reads: tuple[FileRead, ...] = ()

    def check(
        self, workspace: Workspace, *, verifiers: Registry[Verifier] | None = None
    ) -> tuple[VerifierResult | None, Verdict]:
        """Run the verifier now and merge with the explicit status by the router's rule."""
        result = (
            check(self.spec, workspace=workspace.root, verifiers=verifiers) if self.spec else None
        )
        verdict = merge_status(result, self.status)
        return result, verdict if verdict is not None else Verdict.unresolved_inference()

    def verified(self, result: VerifierResult | None) -> VerifiedGround | None:
        """This ground's spec with `result`, for the router to reuse; None if nothing ran."""
        if self.spec is None or result is None:
            return None
        return VerifiedGround(self.spec, result)


def ground_node(workspace: Workspace, address: str) -> NodeGround | None:
    """Fetch a node back in full and say how to check it; None when it does not resolve.

    Evidence is chosen in a fixed order: data recomputation, decision tree, equation,
    figure, then the note's first quote (`for_claim` picks the quote a claim copies), then
    its tethered file, whose current text is what it confirms; a tether adds its freshness
    as flags. A note with nothing checkable is an inference.
    """
    if address.startswith(f"{CODE_STORE}:"):
        path = Address.parse(address).id
        data = workspace.read_file(path, limit=MAX_CODE_BYTES)
        if data is None:
            return None
        text = data.decode("utf-8", errors="replace")
        return NodeGround(
            address, None, Verdict(Tier.GROUNDED), text, reads=(FileRead.of(path, data),)
        )
    note = workspace.note(address)
    if note is None:
        return None
    spec = _spec(note, None)
    if spec is None and note.tether is not None:
        # The tethered file's current text is what a restatement of it may be licensed by.
        spec = GroundingSpec("tether", {"path": note.tether.path})
    tether: TetherState | None = None
    reads: tuple[FileRead, ...] = ()
    if note.tether is not None:
        data = workspace.read_file(note.tether.path)
        tether, reads = tether_state(note, data), (FileRead.of(note.tether.path, data),)
    status = None
    if tether is not None:
        measured = spec is not None and spec.type == "expr-recompute"
        tier = Tier.MEASURED if measured else Tier.GROUNDED
        status = Verdict(tier, **_TETHER_FLAGS[tether])
    elif spec is None:
        status = Verdict(Tier.INFERRED)
    return NodeGround(address, spec, status, note.body, tether, reads)


def for_claim(workspace: Workspace, ground: NodeGround, claim_text: str | None) -> NodeGround:
    """The same grounding, checking the quote that `claim_text` copies when there is one.

    Only the quote choice depends on the claim; the tether and the body are reused.
    """
    note = workspace.note(ground.address)
    if note is None or ground.spec is None or ground.spec.type != "quote":
        return ground
    return replace(ground, spec=_spec(note, claim_text))


def _spec(note: Note, claim_text: str | None) -> GroundingSpec | None:
    evidence = note.evidence
    if evidence.data is not None:
        return GroundingSpec("expr-recompute", evidence.data.payload())
    if evidence.tree is not None:
        return GroundingSpec("decision-tree", evidence.tree.payload())
    if evidence.equation is not None:
        return GroundingSpec("equation", {"body": evidence.equation})
    if evidence.figure is not None:
        return GroundingSpec("figure", {"path": evidence.figure})
    if note.quotes and note.store is Store.CANON:
        quote = _matching_quote(note, claim_text)
        return GroundingSpec("quote", {"body": quote.body, "source": note.citekey or ""})
    return None


def _matching_quote(note: Note, claim_text: str | None) -> Quote:
    if claim_text:
        wanted = word_sequence(claim_text)
        for quote in note.quotes:
            if word_sequence(quote.body) == wanted:
                return quote
    return note.quotes[0]

"""Papers that state the answer's sentence word for word: which one is cited, which are named.

A library often holds one paper twice (the preprint and the published version, the same
PDF under two names), so its sentences occur verbatim in both and neither paper stands out
from the other. They are one piece of evidence, not rivals: the answer cites the first by
year (then by citekey, then by address, so the choice never depends on retrieval order)
and names the others.

Two sentences are the same only when their folded characters are (`engine.text.fold.
same_text`: the Unicode fold and spacing, nothing else): a changed number, sign, negation
or word makes another sentence, which stays a rival as before. Only checked text (a
quote a verifier confirms against its source) is ever cited; a note's own words that say
the sentence (a Zotero item's abstract as recorded) are named, and are no rival either.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from engine.navigation.navigator import NavState
from engine.navigation.outcomes import AlsoStated
from engine.navigation.substrate import RELATED
from engine.text.fold import same_text
from engine.workspace.cited_notes import cite_label
from engine.workspace.passage_notes import passage_place
from engine.workspace.references import paper_year as year_of
from engine.workspace.source_texts import ABSTRACT_SUFFIX
from engine.workspace.stores import Workspace

_NO_YEAR = 10_000

Key = tuple[str, str]  # (note address, the sentence's `same_text`)


def paper_of(workspace: Workspace, address: str) -> str | None:
    """The paper a note belongs to (its citekey, an abstract's folded into its paper)."""
    note = workspace.note(address)
    if note is None or not note.citekey:
        return None
    return note.citekey.removesuffix(ABSTRACT_SUFFIX)


def paper_year(workspace: Workspace, address: str) -> int | None:
    """The year of the note's paper (its reference's, else the year its citekey spells)."""
    paper = paper_of(workspace, address)
    return year_of(workspace.root, paper) if paper is not None else None


def citing_order(workspace: Workspace, address: str) -> tuple[int, str, str]:
    """The sort key of a twin: year (unknown last), then citekey, then address."""
    year = paper_year(workspace, address)
    return (year if year is not None else _NO_YEAR, paper_of(workspace, address) or "", address)


def same_evidence(state: NavState, address: str, notes: Iterable[str]) -> set[str]:
    """The notes that restate the same evidence as `address`, so none of them is its rival.

    A node linked to it (its tethered file, a note it derives from) and the notes and
    passages of its paper (the paper, its abstract, its reading note). Related-note edges
    come from the index's word overlap, not from the notes, so a related note stays a rival.
    """
    linked = {address}
    for edge in state.neighbourhood.edges:
        if edge.relation != RELATED and address in (edge.src, edge.dst):
            linked |= {edge.src, edge.dst}
    paper = paper_of(state.workspace, address)
    if paper is not None:
        linked |= {a for a in notes if paper_of(state.workspace, a) == paper}
    return linked


def twins(
    state: NavState, address: str, text: str, confirmed: Mapping[Key, bool], linked: Iterable[str]
) -> list[str]:
    """One note for each other paper whose text holds `text` word for word, in citing order.

    `confirmed` maps each (note, sentence key) scored to whether it is checked text; a
    paper's checked note is preferred to its own words (a Zotero item's recorded abstract).
    Notes in `linked` (the same paper, its links) are the same evidence already.
    """
    key = same_text(text)
    mine = paper_of(state.workspace, address)
    skip = set(linked) | {address}
    found: dict[str, tuple[bool, tuple[int, str, str]]] = {}  # paper -> its preferred note
    for (other, said), checked in confirmed.items():
        if said != key or other in skip:
            continue
        paper = paper_of(state.workspace, other) or other
        rank = (not checked, citing_order(state.workspace, other))
        if paper != mine and (paper not in found or rank < found[paper]):
            found[paper] = rank
    return [rank[1][2] for rank in sorted(found.values(), key=lambda r: r[1])]


def reader_name(workspace: Workspace, address: str) -> str:
    """A paper as a reader knows it: "Author Year", else its title, else its citekey."""
    label = cite_label(workspace, address)
    note = workspace.note(address)
    if note is None or label != " ".join(note.title.split()):
        return label
    place = passage_place(address, note.title)
    return place.paper_title if place is not None else label


def also_stated(workspace: Workspace, addresses: Iterable[str]) -> AlsoStated | None:
    """The named twins of an answer, or None when no other paper states its sentence."""
    addresses = tuple(addresses)
    if not addresses:
        return None
    return AlsoStated(addresses, tuple(reader_name(workspace, a) for a in addresses))

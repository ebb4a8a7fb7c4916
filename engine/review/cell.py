"""One claim-matrix cell as a reviewer reads it: its brief, quotes and rationale, and the log.

The brief is synthesised and verified here, in the engine; the page only lays it out.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from engine.core.stance import ContradictionCue
from engine.review.alignment import agreement_cue, contradiction_cue
from engine.review.band_precision import measured
from engine.review.matrix import is_high_value
from engine.review.offline_stance import model
from engine.review.overlay import Overlay, OverlayEdge, note_text
from engine.review.relations import EdgeKey, Relation
from engine.review.sentence_reading import passage
from engine.review.synthesis import Material, cell_material, synthesize
from engine.review.triage import read_log
from engine.text.lines import one_line
from engine.workspace.cited_notes import cite_label
from engine.workspace.notes import Quote
from engine.workspace.opened import OpenWorkspace
from engine.workspace.stores import Workspace


def edge_key(row: Mapping[str, Any]) -> EdgeKey:
    """The triage key of a matrix row."""
    return EdgeKey(row["practice_id"], row["canon_source"], row["canon_id"])


def find_edge(overlay: Overlay | None, row: Mapping[str, Any]) -> OverlayEdge | None:
    """The overlay edge behind a matrix row."""
    key = edge_key(row)
    return next((e for e in (overlay.edges if overlay else ()) if e.key == key), None)


@dataclass(frozen=True)
class CellDetail:
    """What a reviewer reads about one cell: the brief if high value, quotes and rationale.

    `missing` when a note of the edge is gone from the workspace; `brief` is None for a cell
    that is not high value, and `verified` then None too.
    """

    high_value: bool
    rationale: str
    evidence: str
    cue: str
    missing: bool
    quotes: tuple[Quote, ...] = ()
    brief: str | None = None
    verified: bool | None = None
    problem: str = ""
    measured: str = ""  # a candidate's band precision in words, for the caption
    # Both sides as a reviewer reads them: the practice note's text, the canon sentence the
    # typer compared it with, and the words the cue rests on (to highlight in both).
    practice_text: str = ""
    canon_text: str = ""
    cue_words: tuple[str, ...] = ()
    # The two notes as a reader knows them ("Author Year" or the title), and the brief as
    # text for the screen: no address in it (the brief with ids is `brief`, for a tooltip).
    practice_name: str = ""
    canon_name: str = ""
    reading: str = ""


def cell_detail(opened: OpenWorkspace, edge: OverlayEdge, typer: str = "offline") -> CellDetail:
    """What a reviewer reads about one cell: the brief if high value, quotes and rationale."""
    material = cell_material(opened, edge)
    detail = CellDetail(
        high_value=is_high_value(edge.relation, edge.claim_strength, edge.confidence),
        rationale=edge.rationale,
        evidence=edge.evidence,
        cue=cue_label(edge.cue) if edge.relation.candidate else "",
        missing=material is None,
        measured=measured(edge.relation, edge.confidence, typer),
    )
    if material is None:
        return detail
    practice, canon = compared_texts(opened, edge, material)
    detail = replace(
        detail,
        quotes=tuple(material.quotes),
        practice_text=practice,
        canon_text=canon,
        cue_words=cue_words(practice, canon, contrary=edge.relation.candidate),
        practice_name=material.practice_title or material.practice_id,
        canon_name=cite_label(opened.workspace, edge.key.canon_address),
    )
    if not detail.high_value:
        return detail
    brief = synthesize(material)
    problem = ""
    if not brief.verified:
        failure = brief.check.failure.value if brief.check.failure else "failed"
        problem = f"{failure}: {brief.check.detail}".rstrip(": ")
    reading = reading_brief(detail, material, edge)
    return replace(
        detail, brief=brief.text, verified=brief.verified, problem=problem, reading=reading
    )


_SAYS = {
    Relation.CONTRADICTS: "They contradict each other",
    Relation.TENSION: "They may be in tension",
    Relation.SUPPORTS: "The practice note agrees with it",
    Relation.EXTENDS: "The practice note goes beyond it",
}


def reading_brief(detail: CellDetail, material: Material, edge: OverlayEdge) -> str:
    """The brief as a reader reads it: both notes by name, the two sentences, the relation
    with its cue and the typer's reason, from the same material as the verified brief.

    Every part is the material's own text; only the names replace the addresses.
    """
    kind = f" ({material.practice_type})" if material.practice_type else ""
    said = material.practice_body.strip() or detail.practice_text
    # "Author Year" stands as it is; a title is set in quotation marks, as the practice's is.
    canon = detail.canon_name
    canon = f"“{canon}”" if canon == one_line(material.canon_title) else canon
    page = next((q.page for q in material.quotes if q.body == detail.canon_text), None)
    where = f", p. {page}" if page is not None else ""
    lines = [
        f"Our practice note “{detail.practice_name}”{kind} says: {one_line(said)}",
        f"{canon} says: “{one_line(detail.canon_text)}”{where}",
    ]
    verdict = f"{_SAYS.get(edge.relation, edge.relation.value)} (confidence {edge.confidence:.2f})"
    if detail.cue:
        verdict += f"; cue: {detail.cue}"
    if detail.cue_words:
        words = " and ".join(f"“{w}”" for w in detail.cue_words)
        verdict += f" — the word{'s' * (len(detail.cue_words) > 1)} {words}"
    lines.append(verdict + ".")
    if material.rationale.strip():
        lines.append(f"Why: {one_line(material.rationale)}")
    return "\n".join(lines)


def compared_texts(opened: OpenWorkspace, edge: OverlayEdge, material: Material) -> tuple[str, str]:
    """The two sides a reviewer compares: the practice note's text, and the canon sentence the
    typer compared it with (its evidence, else the note's best quote, else its body)."""
    practice_note = opened.workspace.note(edge.key.practice_address)
    practice = note_text(practice_note) if practice_note is not None else material.practice_body
    canon = edge.evidence or (material.quotes[0].body if material.quotes else material.canon_body)
    return practice, canon


def cue_words(practice: str, canon: str, *, contrary: bool = True) -> tuple[str, ...]:
    """The words a cue rests on, as written, to mark in both texts; () when none stands out.

    `contrary` reads the disagreement cue (a contradiction or possible tension), otherwise the
    agreement cue.
    """
    claim, sentence = passage(practice), passage(canon)
    rarity = model().rarity
    cue = (contradiction_cue if contrary else agreement_cue)(claim, sentence, rarity)
    return tuple(w for w in dict.fromkeys((cue.theirs, cue.mine)) if w and w.strip())


def cue_label(value: str) -> str:
    """A stored cue as words (`direction`: "opposite direction on …"), as-is if unknown."""
    try:
        return ContradictionCue(value).label
    except ValueError:
        return value


def triage_history(
    root: str | os.PathLike[str], workspace: Workspace | None = None, *, last: int = 10
) -> list[dict[str, Any]]:
    """The newest triage log lines as table rows, newest first, naming both notes as a reader
    knows them ("Author Year" or the title; the address only for a note that is gone)."""
    entries = read_log(root).entries[-last:]

    def title(address: str) -> str:
        return cite_label(workspace, address) if workspace is not None else address

    return [
        {
            "at": e.at[:16].replace("T", " "),
            "decision": e.decision.value,
            "practice": title(e.edge.practice_address),
            "relation": "contradicts",
            "canon": title(e.edge.canon_address),
            "note": e.note,
            "by": e.by,
        }
        for e in reversed(entries)
    ]

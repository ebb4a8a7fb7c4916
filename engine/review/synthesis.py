"""Briefs for high-value matrix cells, and the check that a brief traces to its material.

A brief says what the practice entry did, what the canon note asserts and how they relate,
citing the practice id and quoting the note's stored quotes verbatim. `verify_brief` is a
traceability check, not an entailment check: it catches invented specifics (a number, a
quotation, an uncited entry, vocabulary from nowhere) and cannot catch a brief that
inverts the meaning with the material's own words, restates a figure in other units
("2.5%" for "250 bps"), or phrases a made-up figure as a multiplier, fraction or ordinal
("tenfold", "a quarter", "a third"). A brief that fails is kept and flagged, never dropped.

The four checks, in order (the first failure is reported):
  a. the practice id appears verbatim;
  b. every figure (see `engine.review.figures`) traces to the material the figures may come
     from (`Material.figure_texts`: the practice entry's title and text, the canon note's
     title and text, the quote bodies and their references), a spelled figure by its value
     or by the same words.
     The typer's rationale and evidence and the scores are not that material: a figure
     found only there is untraced. The node addresses, the practice id and the brief's own
     score label (`(confidence 0.81)`) are removed first, so an id such as `deci-a7688a22`
     never lends "7688" or "22" to the brief;
  c. every span in “…”, "…", «…», ‘…’ or '…' is, case and spacing aside, inside one of the
     quotes;
  d. at least `COVERAGE_FLOOR` of the brief's content words occur in the material (or
     among the few labels the offline brief uses); the words of spelled figures, already
     traced by (b), are left out of the count.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from engine.models.llm import ChatModel, LLMConfig, OpenAIChat
from engine.review.figures import untraced_figures, without_spelled_figures
from engine.review.matrix import is_high_value
from engine.review.overlay import Overlay, OverlayEdge, note_text
from engine.review.relations import EdgeKey
from engine.text.controls import bidi_controls, control_names
from engine.text.lines import one_line
from engine.text.tokens import ranking_tokens
from engine.workspace.notes import Quote
from engine.workspace.opened import OpenWorkspace
from engine.workspace.references import cite

COVERAGE_FLOOR = 0.6
MAX_QUOTES = 3
BRIEF_LABELS = frozenset({"practice", "literature", "relation", "confidence"})

Synthesizer = Callable[["Material"], str]

# Every quotation style, in the order spans are settled; a single quote opens only after a
# non-word character and closes only before one, so apostrophes (don't, patients') are not
# quotation marks.
_QUOTED = (
    re.compile(r"“([^”]*)”"),
    re.compile(r"«([^»]*)»"),
    re.compile(r'"([^"]*)"'),
    re.compile(r"(?<!\w)‘(.*?)’(?!\w)"),
    re.compile(r"(?<!\w)'(.*?)'(?!\w)"),
)


@dataclass(frozen=True)
class Material:
    """What a brief may draw on: the practice entry, the canon note, its quotes, the edge."""

    practice_id: str
    practice_address: str
    practice_title: str
    practice_type: str
    practice_body: str
    canon_address: str
    canon_title: str
    canon_body: str
    quotes: tuple[Quote, ...]
    relation: str
    confidence: float
    rationale: str = ""
    evidence: str = ""
    # "Author Year" of the canon note's source, and "Author Year, p. N" per quote.
    citation: str = ""
    quote_citations: tuple[str, ...] = ()

    def texts(self) -> tuple[str, ...]:
        """Every text of the material, quotes included."""
        return (
            self.practice_title,
            self.practice_type,
            self.practice_body,
            self.canon_title,
            self.canon_body,
            self.relation,
            f"{self.confidence:.2f}",
            self.rationale,
            self.evidence,
            *(quote.body for quote in self.quotes),
            self.citation,
            *self.quote_citations,
        )

    def figure_texts(self) -> tuple[str, ...]:
        """The texts a brief's figures may come from: both notes, the quotes, their references."""
        return (
            self.practice_title,
            self.practice_body,
            self.canon_title,
            self.canon_body,
            *(quote.body for quote in self.quotes),
            self.citation,
            *self.quote_citations,
        )

    def identifiers(self) -> tuple[str, ...]:
        """Addresses and the practice id, longest first, to strip before reading figures."""
        return (self.practice_address, self.canon_address, self.practice_id)


class BriefFailure(StrEnum):
    """Why a brief failed verification."""

    EMPTY = "empty"
    MISSING_ID = "missing-memory-id"
    UNTRACED_NUMBER = "untraced-number"
    UNTRACED_QUOTE = "untraced-quote"
    LOW_COVERAGE = "low-coverage"
    FORMAT_CONTROL = "format-control"


@dataclass(frozen=True)
class BriefCheck:
    """The verdict of `verify_brief`: a failure reason with detail, or none."""

    failure: BriefFailure | None
    detail: str = ""
    coverage: float = 0.0

    @property
    def ok(self) -> bool:
        return self.failure is None

    @classmethod
    def passed(cls, coverage: float) -> BriefCheck:
        return cls(None, "", coverage)

    @classmethod
    def failed(cls, failure: BriefFailure, detail: str, coverage: float = 0.0) -> BriefCheck:
        return cls(failure, detail, coverage)


@dataclass(frozen=True)
class Brief:
    """A brief as produced, whether it verified, why not, and the quotes it was given."""

    text: str
    verified: bool
    check: BriefCheck
    quote_ids: tuple[str, ...]


@dataclass(frozen=True)
class CellBrief:
    """The brief of one high-value overlay edge."""

    edge: OverlayEdge
    brief: Brief

    @property
    def key(self) -> EdgeKey:
        return self.edge.key


def cell_material(opened: OpenWorkspace, edge: OverlayEdge) -> Material | None:
    """The material of one overlay edge, or None when either note is no longer there.

    Quotes are the canon note's stored quotes, verbatim: the one holding the typer's
    evidence sentence first, then those sharing most words with the practice entry.
    """
    workspace = opened.workspace
    key = edge.key
    practice, canon = workspace.note(key.practice_address), workspace.note(key.canon_address)
    if practice is None or canon is None:
        return None
    practice_words = set(ranking_tokens(note_text(practice)))
    evidence = one_line(edge.evidence).lower()

    def rank(quote: Quote) -> tuple[int, int]:
        body = one_line(quote.body).lower()
        holds_evidence = bool(evidence) and (evidence in body or body in evidence)
        return (not holds_evidence, -len(practice_words & set(ranking_tokens(quote.body))))

    quotes = tuple(sorted(canon.quotes, key=rank)[:MAX_QUOTES])
    return Material(
        practice_id=practice.id,
        practice_address=practice.address,
        practice_title=practice.title,
        practice_type=practice.type.value if practice.type else "",
        practice_body=practice.body,
        canon_address=canon.address,
        canon_title=canon.title,
        canon_body=canon.body,
        quotes=quotes,
        relation=edge.relation.value,
        confidence=edge.confidence,
        rationale=edge.rationale,
        evidence=edge.evidence,
        citation=cite(workspace, canon) or "",
        quote_citations=tuple(cite(workspace, canon, q.page) or "" for q in quotes),
    )


def offline_brief(material: Material) -> str:
    """A brief assembled from the material alone: nothing in it is written by a model."""
    # Only the quote bodies are written between quotation marks: titles, bodies and the
    # typer's rationale are set off by brackets, and the rationale loses its own marks (it
    # may clip a sentence inside them), so none of them reads as a verbatim quotation.
    kind = f", {material.practice_type}" if material.practice_type else ""
    lines = [
        f"Practice {material.practice_address} [{_unquoted(material.practice_title)}{kind}]: "
        f"{_unquoted(_clip(material.practice_body or material.practice_title))}"
    ]
    if material.quotes:
        cited = material.quote_citations or ("",) * len(material.quotes)
        quoted = "; ".join(
            f"“{quote.body.strip()}” [{quote.id}{'; ' + where if where else ''}]"
            for quote, where in zip(material.quotes, cited, strict=False)
        )
    else:
        quoted = _unquoted(_clip(material.canon_body or material.canon_title))
    title = _unquoted(material.canon_title)
    source = f", {material.citation}" if material.citation else ""
    lines.append(f"Literature {material.canon_address} [{title}{source}]: {quoted}")
    rationale = _unquoted(material.rationale.strip())
    if untraced_figures(rationale, "\n".join(material.figure_texts())):
        # The typer's own scores ("shares 88% of the words") are not the material's figures.
        rationale = ""
    relation = f"Relation: {material.relation} (confidence {material.confidence:.2f})"
    lines.append(f"{relation}: {rationale}" if rationale else relation + ".")
    return "\n".join(lines)


_SYSTEM = (
    "You write a short brief (at most 120 words) on how a team's practice entry relates to "
    "a claim from the literature. Say what the practice did, what the literature asserts, "
    "and where they agree or conflict. Rules: cite the practice entry by its exact id; "
    'quote only from the QUOTES given, word for word, inside double quotes "..."; use no '
    "number, percentage or figure that is not in the material; add no facts. Plain text only."
)


class ModelSynthesizer:
    """Briefs from an OpenAI-compatible chat model; a failed call gives "" (a flagged brief)."""

    name = "openai"

    def __init__(self, chat: ChatModel) -> None:
        self.chat = chat

    @classmethod
    def from_env(cls) -> ModelSynthesizer:
        """Configured by the same environment as the model reasoner and typer."""
        return cls(OpenAIChat(LLMConfig.from_env()))

    def __call__(self, material: Material) -> str:
        payload = {
            "practice_id": material.practice_id,
            "practice_title": material.practice_title,
            "practice_text": material.practice_body,
            "literature_id": material.canon_address,
            "literature_title": material.canon_title,
            "literature_text": material.canon_body,
            "QUOTES": [{"id": quote.id, "text": quote.body} for quote in material.quotes],
            "relation": material.relation,
            "confidence": round(material.confidence, 2),
        }
        messages = [
            {"role": "system", "content": _SYSTEM},
            {"role": "user", "content": json.dumps(payload, ensure_ascii=False)},
        ]
        try:
            reply = self.chat.complete(messages, json_mode=False)
        except Exception:  # the seam promises not to raise; a failure is an empty brief
            return ""
        return reply.text.strip() if reply.ok and reply.text else ""


def verify_brief(brief: str, material: Material) -> BriefCheck:
    """Run the four traceability checks; the first that fails names the reason."""
    brief = (brief or "").strip()
    if not brief:
        return BriefCheck.failed(BriefFailure.EMPTY, "the brief is empty")
    controls = bidi_controls(brief)
    if controls:
        return BriefCheck.failed(
            BriefFailure.FORMAT_CONTROL,
            f"holds invisible bidirectional controls ({control_names(controls)}) that change"
            " the order it is displayed in",
        )
    if material.practice_id not in brief:
        return BriefCheck.failed(
            BriefFailure.MISSING_ID, f"the practice id {material.practice_id} is not cited"
        )
    source = "\n".join(material.figure_texts())
    label = f"(confidence {material.confidence:.2f})"
    untraced = untraced_figures(
        _without(brief, material).replace(label, " "), _without(source, material)
    )
    if untraced:
        return BriefCheck.failed(
            BriefFailure.UNTRACED_NUMBER, f"not in the material: {', '.join(untraced)}"
        )
    stray = _untraced_quotes(brief, [quote.body for quote in material.quotes])
    if stray is not None:
        return BriefCheck.failed(BriefFailure.UNTRACED_QUOTE, f"not a verbatim quote: “{stray}”")
    # Spelled figures were traced by (b); their words are not vocabulary to find again.
    coverage = word_coverage(without_spelled_figures(brief), material)
    if coverage < COVERAGE_FLOOR:
        return BriefCheck.failed(
            BriefFailure.LOW_COVERAGE,
            f"{coverage:.0%} of its content words come from the material "
            f"(at least {COVERAGE_FLOOR:.0%} needed)",
            coverage,
        )
    return BriefCheck.passed(coverage)


def synthesize(material: Material, synth: Synthesizer = offline_brief) -> Brief:
    """Write and verify one brief; a brief that fails is returned with `verified=False`."""
    try:
        text = (synth(material) or "").strip()
    except Exception:  # a synthesiser failure is a flagged empty brief, not a crash
        text = ""
    check = verify_brief(text, material)
    return Brief(text, check.ok, check, tuple(quote.id for quote in material.quotes))


def synthesize_overlay(
    opened: OpenWorkspace,
    overlay: Overlay,
    synth: Synthesizer = offline_brief,
    *,
    limit: int | None = None,
) -> list[CellBrief]:
    """Briefs for the high-value edges only, in the overlay's priority order."""
    out: list[CellBrief] = []
    for edge in overlay.edges:
        if limit is not None and len(out) >= limit:
            break
        if not is_high_value(edge.relation, edge.claim_strength, edge.confidence):
            continue
        material = cell_material(opened, edge)
        if material is not None:
            out.append(CellBrief(edge, synthesize(material, synth)))
    return out


def word_coverage(brief: str, material: Material) -> float:
    """Share of the brief's content words found in the material's words (1.0 if it has none)."""
    words = _content_words(brief)
    if not words:
        return 1.0
    vocabulary = BRIEF_LABELS.union(*(_content_words(t) for t in material.texts()))
    vocabulary |= _content_words(" ".join(material.identifiers()))
    return sum(word in vocabulary for word in words) / len(words)


def _untraced_quotes(brief: str, quote_bodies: list[str]) -> str | None:
    """The first quoted span of `brief` that is not inside a quote body, or None."""
    haystack = "\n".join(one_line(body).lower() for body in quote_bodies)
    remainder = brief
    for pattern in _QUOTED:
        for match in pattern.finditer(remainder):
            span = one_line(match.group(1)).strip(" .…,;:")
            if span and span.lower() not in haystack:
                return match.group(1)
        # Settled spans are blanked so a quotation mark inside one of them cannot pair
        # with a mark of another style elsewhere.
        remainder = pattern.sub(" ", remainder)
    return None


def _content_words(text: str) -> set[str]:
    return {word for word in ranking_tokens(text) if len(word) > 2 and word.isalpha()}


def _without(text: str, material: Material) -> str:
    for identifier in material.identifiers():
        if identifier:
            text = text.replace(identifier, " ")
    return text


def _unquoted(text: str) -> str:
    """`text` without quotation marks of any style (apostrophes inside words stay)."""
    text = re.sub(r"[\"“”«»‘]", "", text)
    return re.sub(r"(?<!\w)'|'(?!\w)|’(?!\w)", "", text)


def _clip(text: str, limit: int = 400) -> str:
    text = one_line(text)
    if len(text) <= limit:
        return text
    return text[:limit].rsplit(" ", 1)[0] + " …"

"""Traceability for the reader: highlighted prose, sentence rows and counts, cited prose."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from engine import (
    InContext,
    NavResult,
    Traceability,
)
from present.markup import HIGHLIGHT_TEXT, esc, quote_mark_style, trace_colours

# Later kinds win where highlights overlap: a number inside an uncited stretch is a number.
_trace_rank = {"licensed": 0, "orphan": 1, "uncited": 2, "number": 3}
_span_kind = {"sentence": "orphan", "uncited": "uncited", "number": "number"}


def highlight_html(prose: str, trace: Traceability | None) -> str:
    """The prose as HTML, each sentence and orphan span highlighted with its reason as a title."""
    marks: list[tuple[int, int, str, str]] = []
    for sentence in trace.sentences if trace else ():
        if sentence.claim:
            marks.append((sentence.start, sentence.end, "licensed", sentence.reason or ""))
    for span in trace.spans if trace else ():
        named = _span_kind.get(span.kind.value, "orphan")
        marks.append((span.start, span.end, named, _span_reason(named, span.reason)))
    cuts = sorted({0, len(prose), *(m[0] for m in marks), *(m[1] for m in marks)})
    # A sweep over the cuts: each mark enters and leaves the active set once, so the work is
    # linear in the marks (plus what overlapping marks share), not marks times pieces.
    opening: dict[int, list[int]] = {}
    closing: dict[int, list[int]] = {}
    for n, mark in enumerate(marks):
        if mark[0] < mark[1]:
            opening.setdefault(mark[0], []).append(n)
            closing.setdefault(mark[1], []).append(n)
    active: dict[int, tuple[int, int, str, str]] = {}
    pieces: list[tuple[str | None, str, str]] = []
    for start, end in itertools.pairwise(cuts):
        for n in closing.get(start, ()):
            active.pop(n, None)
        for n in opening.get(start, ()):
            active[n] = marks[n]
        if start >= end or start >= len(prose):
            continue
        covering = [active[n] for n in sorted(active)]
        kind = max((m[2] for m in covering), key=_trace_rank.__getitem__, default=None)
        reasons = "; ".join(dict.fromkeys(m[3] for m in covering if m[3]))
        text = prose[start:end]
        if pieces and pieces[-1][0] == kind and pieces[-1][2] == reasons:
            pieces[-1] = (kind, pieces[-1][1] + text, reasons)
        else:
            pieces.append((kind, text, reasons))
    body = "".join(_highlight(k, t, r) for k, t, r in pieces)
    return (
        '<div class="trace-prose" style="white-space:pre-wrap;line-height:1.9;'
        f'font-size:1.05em">{body}</div>'
    )


def _span_reason(kind: str, reason: str | None) -> str:
    prefix = {"orphan": "orphan sentence", "uncited": "uncited", "number": "stray number"}[kind]
    return f"{prefix}: {reason}" if reason else prefix


def _highlight(kind: str | None, text: str, reasons: str) -> str:
    if kind is None:
        return esc(text)
    style = (
        f"background:{trace_colours[kind]};color:{HIGHLIGHT_TEXT};border-radius:3px;padding:1px 0"
    )
    if kind == "number":
        style += ";font-weight:600"
    return (
        f'<span class="trace-{kind}" style="{style}" title="{esc(reasons or kind)}">'
        f"{esc(text)}</span>"
    )


def traceability(result: NavResult) -> Traceability | None:
    """The router's verdict on the prose; None when the run never reached the router."""
    return result.decision.traceability if result.decision else None


def sentence_rows(result: NavResult) -> list[dict[str, Any]]:
    """Each prose sentence with the claim that licenses it, or why none does."""
    trace = traceability(result)
    texts = _claim_texts(result)
    rows = []
    for i, sentence in enumerate(trace.sentences if trace else (), 1):
        claim = sentence.claim
        rows.append(
            {
                "#": i,
                "sentence": sentence.text,
                "licensed": bool(claim),
                "claim": claim or "",
                "claim text": texts.get(claim, "") if claim else "",
                "reason": sentence.reason,
            }
        )
    return rows


def trace_counts(result: NavResult) -> dict[str, int]:
    """How many sentences are licensed or orphaned and how many words and numbers are flagged."""
    trace = traceability(result)
    sentences = trace.sentences if trace else ()
    spans = trace.spans if trace else ()
    return {
        "licensed": sum(1 for s in sentences if s.claim),
        "orphan": sum(1 for s in sentences if not s.claim),
        "uncited": sum(1 for s in spans if s.kind.value == "uncited"),
        "number": sum(1 for s in spans if s.kind.value == "number"),
    }


def cited_prose_html(result: NavResult) -> str:
    """The prose as HTML with a claim marker after each cited span."""
    prose = result.prose
    dag = result.decision.dag if result.decision else None
    citations = sorted(dag.prose_citations if dag else (), key=lambda c: (c.end, c.start))
    out, at = [], 0
    for cite in citations:
        end = min(max(cite.end, at), len(prose))
        out.append(esc(prose[at:end]))
        out.append(f'<sup style="font-weight:700">[{esc(cite.claim)}]</sup>')
        at = end
    out.append(esc(prose[at:]))
    return f'<div style="white-space:pre-wrap;line-height:1.7">{"".join(out)}</div>'


def in_context_html(found: Sequence[InContext]) -> str:
    """Each quoted sentence in its source, cited to its page, between its neighbours."""
    if not found:
        return ""
    blocks = []
    for item in found:
        blocks.append(
            "<div class='in-context' style='margin:6px 0'>"
            f"<b>{esc(item.citation)}</b><br>"
            f"<span style='opacity:0.75'>{esc(item.before)}</span> "
            f"<mark class='quoted' style='{quote_mark_style()}'>"
            f"{esc(item.sentence)}</mark> "
            f"<span style='opacity:0.75'>{esc(item.after)}</span>"
            f"{_page_view(item)}</div>"
        )
    return "<div><small>Quoted from</small>" + "".join(blocks) + "</div>"


def _page_view(item: InContext) -> str:
    """The whole cited page, folded, with the quoted sentence marked."""
    if not item.page_text:
        return ""
    parts = item.page_parts()
    if parts is None:
        body = esc(item.page_text)
    else:
        before, sentence, after = parts
        body = (
            esc(before) + f"<mark style='{quote_mark_style()}'>{esc(sentence)}</mark>" + esc(after)
        )
    label = esc(f"Read the page: {item.citation}")
    return (
        f"<details style='margin-top:4px'><summary>{label}</summary>"
        f"<div style='white-space:pre-wrap;font-size:0.9em;max-height:24em;overflow:auto'>"
        f"{body}</div></details>"
    )


def _claim_texts(result: NavResult) -> dict[str, str]:
    return {c.id: c.text for c in result.decision.dag.claims} if result.decision else {}

"""Presentation helpers: verdict banners, the status legend, escaped HTML and plain table rows."""

from __future__ import annotations

import html
import itertools
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from engine.api import OpenWorkspace, route_json
from engine.matrix import is_high_value
from engine.overlay import EdgeKey, Overlay, OverlayEdge
from engine.router import REASON_EXPLANATIONS, Reason
from engine.synthesis import cell_material, synthesize
from engine.triage import read_log


@dataclass(frozen=True)
class Swatch:
    """One legend entry: a name, its colour and what it means."""

    name: str
    colour: str
    meaning: str


# The one status legend the whole app uses: graph nodes, chips in tables and the key.
status_swatches = (
    Swatch("measured", "#1f5fa8", "reproduced from data"),
    Swatch("grounded", "#2e8b57", "verified against a source"),
    Swatch("inferred", "#e0a100", "goes beyond what was verified"),
    Swatch("assumption", "#8e7cc3", "taken as given"),
)
status_colours = {s.name: s.colour for s in status_swatches}
unknown_colour = "#9aa0a6"
flag_mark = Swatch(
    "stale · outdated · contested · unresolved",
    "#c0392b",
    "dashed red border; the flags are named on the node",
)
violation_mark = Swatch(
    "honesty violation",
    "#111111",
    "thick black border and ⚠: asserted above what the engine derived",
)

# Traceability highlights, one colour per finding.
trace_swatches = (
    Swatch("licensed", "#d4efd9", "restates one verified claim"),
    Swatch("orphan", "#f9c9c9", "a sentence no verified claim licenses"),
    Swatch("uncited", "#ffd58a", "words outside every prose citation"),
    Swatch("number", "#d9c8f5", "a number in an orphan sentence"),
)
trace_colours = {s.name: s.colour for s in trace_swatches}

# Stores in the navigation graph.
store_swatches = (
    Swatch("zk", "#4e79a7", "canon notes"),
    Swatch("mem", "#f28e2b", "practice entries"),
    Swatch("code", "#59a14f", "code files"),
)
store_colours = {s.name: s.colour for s in store_swatches}

# Later kinds win where highlights overlap: a number inside an uncited stretch is a number.
_trace_rank = {"licensed": 0, "orphan": 1, "uncited": 2, "number": 3}
_span_kind = {"sentence": "orphan", "uncited": "uncited", "number": "number"}
_markdown_specials = re.compile(r"([\\`*_\[\]<>|~$])")
_markdown_block_start = re.compile(r"^([#+=-]|\d+(?=[.)]))")


def esc(text: object) -> str:
    """`text` as HTML-escaped text, quotes included."""
    return html.escape(str(text), quote=True)


def md_escape(text: object) -> str:
    """`text` on one line with every Markdown control character backslash-escaped."""
    flat = _markdown_specials.sub(r"\\\1", " ".join(str(text).split()))
    # Block syntax only counts at the start of a line: a heading, list or rule marker there.
    return _markdown_block_start.sub(
        lambda m: m.group(1) + "\\" if m.group(1)[0].isdigit() else "\\" + m.group(1), flat
    )


@dataclass(frozen=True)
class Banner:
    """The verdict line: its tone (success, warning or error) and text starting with the label."""

    tone: str
    label: str
    text: str


def banner(result: Mapping) -> Banner:
    """The verdict banner of an answer or audited payload."""
    label = result.get("label") or "ABSTAIN"
    status = result.get("status")
    reasons = list(result.get("reasons") or [])
    detail = result.get("detail") or ""
    if result.get("failure") and result.get("failure") not in detail:
        detail = f"{detail}; {result['failure']}" if detail else result["failure"]
    if label == "ANSWER":
        head, tone = f"ANSWER — {status}", "success"
    elif label == "HEDGED ANSWER":
        head, tone = "HEDGED ANSWER — inferred, not verified", "warning"
    else:
        head, tone = f"ABSTAIN — {', '.join(reasons) or 'low-coverage'}", "error"
    decision = result.get("decision") or {}
    if decision.get("outdated") and label != "ABSTAIN":
        head += " (outdated: built on a superseded pin)"
    return Banner(tone, label, f"{head}. {detail}" if detail else head)


def legend_html() -> str:
    """The app's one status legend as an HTML strip."""
    chips = [_chip(s.name, s.colour, s.meaning) for s in status_swatches]
    chips.append(
        _chip(flag_mark.name, "#ffffff", flag_mark.meaning, border=f"2px dashed {flag_mark.colour}")
    )
    chips.append(
        _chip(
            "⚠ " + violation_mark.name,
            "#ffffff",
            violation_mark.meaning,
            border=f"3px solid {violation_mark.colour}",
        )
    )
    return f'<div style="display:flex;flex-wrap:wrap;gap:6px;margin:4px 0">{"".join(chips)}</div>'


def trace_legend_html() -> str:
    """The traceability highlight key as an HTML strip."""
    chips = [_chip(s.name, s.colour, s.meaning, dark=True) for s in trace_swatches]
    return f'<div style="display:flex;flex-wrap:wrap;gap:6px;margin:4px 0">{"".join(chips)}</div>'


def store_legend_html() -> str:
    """The navigation graph's store colours and marks as an HTML strip."""
    chips = [_chip(s.name, s.colour, s.meaning) for s in store_swatches]
    chips.append(
        _chip("new at this step", "#ffffff", "added or acted on", border="3px solid #e15759")
    )
    chips.append(
        _chip("not expanded", "#ffffff", "links not followed yet", border="2px dashed #555")
    )
    return f'<div style="display:flex;flex-wrap:wrap;gap:6px;margin:4px 0">{"".join(chips)}</div>'


def _chip(name: str, colour: str, meaning: str, *, border: str = "", dark: bool = False) -> str:
    light = dark or colour == "#ffffff"
    style = (
        f"background:{colour};color:{'#222' if light else '#fff'};padding:2px 8px;"
        f"border-radius:10px;font-size:0.85em;border:{border or '1px solid transparent'}"
    )
    return f'<span style="{style}" title="{esc(meaning)}">{esc(name)}</span>'


def status_chip(status: str | None, flags: Sequence[str] = (), *, violation: bool = False) -> str:
    """An HTML chip for a derived status with its flags and violation mark."""
    colour = status_colours.get(status or "", unknown_colour)
    border = "1px solid transparent"
    if flags:
        border = f"2px dashed {flag_mark.colour}"
    if violation:
        border = f"3px solid {violation_mark.colour}"
    text = (status or "no verdict") + "".join(f" · {f}" for f in flags)
    if violation:
        text = "⚠ " + text
    style = (
        f"background:{colour};color:#fff;padding:1px 7px;border-radius:9px;"
        f"white-space:nowrap;border:{border}"
    )
    return f'<span style="{style}">{esc(text)}</span>'


# --- traceability --------------------------------------------------------------------


def highlight_html(prose: str, traceability: Mapping | None) -> str:
    """The prose as HTML, each sentence and orphan span highlighted with its reason as a title."""
    trace = traceability or {}
    marks: list[tuple[int, int, str, str]] = []
    for sentence in trace.get("sentences") or []:
        if sentence.get("claim"):
            marks.append(
                (sentence["start"], sentence["end"], "licensed", sentence.get("reason") or "")
            )
    for span in trace.get("spans") or []:
        kind = _span_kind.get(span.get("kind"), "orphan")
        marks.append((span["start"], span["end"], kind, _span_reason(kind, span.get("reason"))))
    cuts = sorted({0, len(prose), *(m[0] for m in marks), *(m[1] for m in marks)})
    pieces: list[tuple[str | None, str, str]] = []
    for start, end in itertools.pairwise(cuts):
        if start >= end or start >= len(prose):
            continue
        covering = [m for m in marks if m[0] <= start and end <= m[1]]
        kind = max((m[2] for m in covering), key=_trace_rank.__getitem__, default=None)
        reasons = "; ".join(dict.fromkeys(m[3] for m in covering if m[3]))
        text = prose[start:end]
        if pieces and pieces[-1][0] == kind and pieces[-1][2] == reasons:
            pieces[-1] = (kind, pieces[-1][1] + text, reasons)
        else:
            pieces.append((kind, text, reasons))
    body = "".join(_highlight(kind, text, reasons) for kind, text, reasons in pieces)
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
    style = f"background:{trace_colours[kind]};border-radius:3px;padding:1px 0"
    if kind == "number":
        style += ";font-weight:600"
    return (
        f'<span class="trace-{kind}" style="{style}" title="{esc(reasons or kind)}">'
        f"{esc(text)}</span>"
    )


def sentence_rows(result: Mapping) -> list[dict]:
    """Each prose sentence with the claim that licenses it, or why none does."""
    decision = result.get("decision") or {}
    texts = _claim_texts(result)
    rows = []
    for i, sentence in enumerate((decision.get("traceability") or {}).get("sentences") or [], 1):
        claim = sentence.get("claim")
        rows.append(
            {
                "#": i,
                "sentence": sentence.get("text", ""),
                "licensed": bool(claim),
                "claim": claim or "",
                "claim text": texts.get(claim, "") if claim else "",
                "reason": sentence.get("reason", ""),
            }
        )
    return rows


def trace_counts(result: Mapping) -> dict[str, int]:
    """How many sentences are licensed or orphaned and how many words and numbers are flagged."""
    trace = (result.get("decision") or {}).get("traceability") or {}
    sentences = trace.get("sentences") or []
    spans = trace.get("spans") or []
    return {
        "licensed": sum(1 for s in sentences if s.get("claim")),
        "orphan": sum(1 for s in sentences if not s.get("claim")),
        "uncited": sum(1 for s in spans if s.get("kind") == "uncited"),
        "number": sum(1 for s in spans if s.get("kind") == "number"),
    }


def cited_prose_html(result: Mapping) -> str:
    """The prose as HTML with a claim marker after each cited span."""
    prose = result.get("prose") or ""
    dag = result.get("dag") or {}
    citations = sorted(dag.get("prose_citations") or [], key=lambda c: (c["end"], c["start"]))
    out, at = [], 0
    for cite in citations:
        end = min(max(cite["end"], at), len(prose))
        out.append(esc(prose[at:end]))
        out.append(
            f'<sup style="color:#1f5fa8;font-weight:600">[{esc(cite.get("claim", ""))}]</sup>'
        )
        at = end
    out.append(esc(prose[at:]))
    return f'<div style="white-space:pre-wrap;line-height:1.7">{"".join(out)}</div>'


# --- the reasoning DAG ----------------------------------------------------------------


def claim_rows(result: Mapping) -> list[dict]:
    """One plain row per claim: text, kind, asserted and derived status, cites, verifiers."""
    decision = result.get("decision") or {}
    dag = result.get("dag") or {}
    verdicts = decision.get("claims") or {}
    violated = {v["claim"] for v in decision.get("honesty_violations") or []}
    grounds = {row["cite"]: row for row in ground_rows(result)}
    rows = []
    for claim in dag.get("claims") or []:
        cid = claim["id"]
        verdict = verdicts.get(cid) or {}
        rows.append(
            {
                "claim": cid,
                "conclusion": cid == dag.get("conclusion"),
                "text": claim.get("text", ""),
                "kind": claim.get("kind", ""),
                "asserted": verdict.get("asserted") or "",
                "derived": verdict.get("status") or "",
                "flags": list(verdict.get("flags") or []),
                "floored": bool(verdict.get("floored")),
                "violation": cid in violated,
                "premises": list(claim.get("premises") or []),
                "cites": list(claim.get("cites") or []),
                "verifiers": [
                    _ground_summary(grounds.get(ref), ref) for ref in claim.get("cites") or []
                ],
            }
        )
    return rows


def ground_rows(result: Mapping) -> list[dict]:
    """One plain row per cited node: its verdict and what its verifier said."""
    decision = result.get("decision") or {}
    dag = result.get("dag") or {}
    nodes = decision.get("nodes") or {}
    checks = decision.get("verifiers") or {}
    missing = set(decision.get("missing_refs") or [])
    cites = dict.fromkeys(ref for c in dag.get("claims") or [] for ref in c.get("cites") or [])
    rows = []
    for ref in cites:
        node = nodes.get(ref) or {}
        check = checks.get(ref) or {}
        rows.append(
            {
                "cite": ref,
                "status": node.get("status") or ("missing" if ref in missing else ""),
                "flags": list(node.get("flags") or []),
                "verifier": check.get("status") or ("status given" if node else "none"),
                "method": check.get("method") or "",
                "score": check.get("score"),
                "page": check.get("page"),
                "near miss": check.get("near_miss") or "",
                "detail": check.get("detail") or ("" if node else "no verdict: a missing hop"),
            }
        )
    return rows


def _ground_summary(row: Mapping | None, ref: str) -> str:
    if row is None:
        return f"{ref}: no verdict"
    bits = [row["verifier"]]
    if row["method"]:
        bits.append(row["method"])
    if row["score"] is not None:
        bits.append(f"score {row['score']:.1f}")
    text = f"{ref}: {', '.join(bits)}"
    if row["near miss"]:
        text += f" — near miss “{row['near miss']}”"
    return text


def table_html(rows: Sequence[Mapping], columns: Sequence[str] | None = None) -> str:
    """Plain rows as an HTML table that wraps long text; every cell is escaped."""
    names = list(columns or (rows[0].keys() if rows else ()))
    cell = "padding:4px 8px;vertical-align:top;text-align:left"
    head = "".join(f"<th style='{cell}'>{esc(n)}</th>" for n in names)
    body = "".join(
        "<tr style='border-top:1px solid #eee'>"
        + "".join(f"<td style='{cell}'>{esc(_cell(row.get(n)))}</td>" for n in names)
        + "</tr>"
        for row in rows
    )
    return (
        "<table class='plain-table' style='border-collapse:collapse;width:100%;font-size:0.9em'>"
        f"<thead><tr style='border-bottom:1px solid #ccc'>{head}</tr></thead>"
        f"<tbody>{body}</tbody></table>"
    )


def _cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.1f}"
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value)
    return str(value)


def claims_table_html(rows: Sequence[Mapping]) -> str:
    """The claim rows as an HTML table with status chips; every cell is escaped."""
    head = "".join(
        f"<th style='text-align:left;padding:4px 8px'>{h}</th>"
        for h in ("claim", "text", "kind", "asserted", "derived", "cites and verifiers")
    )
    body = []
    for row in rows:
        name = esc(row["claim"]) + (" <b>(conclusion)</b>" if row["conclusion"] else "")
        notes = []
        if row["floored"]:
            notes.append("floored: not licensed by its sources")
        if row["premises"]:
            notes.append("rests on " + ", ".join(row["premises"]))
        text = esc(row["text"]) + "".join(
            f"<br><small style='color:#666'>{esc(n)}</small>" for n in notes
        )
        asserted = status_chip(row["asserted"]) if row["asserted"] else "—"
        derived = status_chip(row["derived"], row["flags"], violation=row["violation"])
        cites = "<br>".join(esc(v) for v in row["verifiers"]) or "—"
        cells = (name, text, esc(row["kind"]), asserted, derived, cites)
        body.append(
            "<tr>"
            + "".join(f"<td style='padding:4px 8px;vertical-align:top'>{c}</td>" for c in cells)
            + "</tr>"
        )
    return (
        "<table class='dag-table' style='border-collapse:collapse;width:100%;font-size:0.9em'>"
        f"<thead><tr style='border-bottom:1px solid #ccc'>{head}</tr></thead>"
        f"<tbody>{''.join(body)}</tbody></table>"
    )


@dataclass(frozen=True)
class Explanation:
    """One abstain reason in plain words with what triggered it here."""

    reason: str
    explanation: str
    specifics: tuple[str, ...]


def explanations(result: Mapping) -> tuple[Explanation, ...]:
    """Each abstain reason of the result explained, with the specifics of this decision."""
    if result.get("label") != "ABSTAIN":
        return ()
    decision = result.get("decision") or {}
    out = []
    for name in result.get("reasons") or []:
        try:
            text = REASON_EXPLANATIONS[Reason(name)]
        except ValueError:
            text = "A reason this app does not know how to explain."
        out.append(Explanation(name, text, tuple(_specifics(name, result, decision))))
    return tuple(out)


def _specifics(name: str, result: Mapping, decision: Mapping) -> Iterable[str]:
    checks = decision.get("verifiers") or {}
    nodes = decision.get("nodes") or {}
    if name == "missing-hop":
        for ref in decision.get("missing_refs") or []:
            yield f"{ref} is cited, but no verifier or status says whether it holds."
    elif name == "stale":
        for ref, node in nodes.items():
            if "stale" in (node.get("flags") or []):
                yield f"{ref} is tethered to a file whose anchored text is gone."
    elif name == "false-premise":
        for ref, check in checks.items():
            if check.get("status") == "failed":
                line = f"{ref}: {check.get('detail') or 'refuted'}"
                if check.get("near_miss"):
                    line += f"; the nearest source text is “{check['near_miss']}”"
                yield line + "."
    elif name == "low-coverage":
        yield from _coverage_specifics(result, decision)


def _coverage_specifics(result: Mapping, decision: Mapping) -> Iterable[str]:
    if result.get("failure"):
        yield f"The run produced no usable answer: {result['failure']}."
    claims = decision.get("claims") or {}
    conclusion = decision.get("conclusion")
    final = claims.get(conclusion) or {}
    if final and final.get("status") not in ("measured", "grounded"):
        flags = ", ".join(final.get("flags") or [])
        yield (
            f"The conclusion {conclusion} is only {final.get('status')}"
            + (f" ({flags})" if flags else "")
            + "."
        )
    for cid in decision.get("floored") or []:
        yield f"Restatement {cid} is not found in the text of the nodes it cites."
    trace = decision.get("traceability") or {}
    if trace and not trace.get("ok", True):
        yield f"Prose: {trace.get('detail') or 'not licensed'}."
    for v in decision.get("honesty_violations") or []:
        yield f"Claim {v['claim']} is asserted {v['asserted']} but only {v['derived']} was derived."
    if (decision.get("confabulation") or {}).get("closed_book"):
        yield "Nothing verified that was retrieved anchors the answer (closed book)."


def _claim_texts(result: Mapping) -> dict[str, str]:
    return {c["id"]: c.get("text", "") for c in (result.get("dag") or {}).get("claims") or []}


# --- audit ----------------------------------------------------------------------------


def audit_result(text: str | bytes, *, workspace: str | Path | None = None) -> dict:
    """Route a pasted or uploaded wire payload to an answer-shaped result; raises PayloadError."""
    routed = route_json(text, workspace=workspace)
    decision, dag = routed.to_dict(), routed.dag
    # The payload parsed, so it is an object whose prose, if any, is a string.
    payload = json.loads(text)
    return {
        "question": None,
        "origin": "audit",
        **{k: decision[k] for k in ("verdict", "label", "status", "reasons", "detail")},
        "cited": list(dag.closure_cites(dag.conclusion)),
        "prose": payload.get("prose", ""),
        "dag": dag.to_dict(),
        "decision": decision,
        "payload": payload,
        "failure": None,
        "trace": [],
        "neighbourhood": None,
    }


# --- the claim matrix -----------------------------------------------------------------

relation_swatches = (
    Swatch("supports", "#2e8b57", "the practice entry agrees with the canon claim"),
    Swatch("contradicts", "#c0392b", "the practice entry contradicts the canon claim"),
    Swatch("extends", "#1f5fa8", "the practice entry goes beyond the canon claim"),
)
relation_colours = {s.name: s.colour for s in relation_swatches}
triage_marks = {"confirmed": "✓", "dismissed": "✗", "follow-up": "?"}


def relation_legend_html() -> str:
    """The matrix colours and cell marks as an HTML strip."""
    chips = [_chip(s.name, s.colour, s.meaning) for s in relation_swatches]
    chips.append(_chip("darker = more confident", "#ffffff", "intensity is the typer's confidence"))
    marks = ", ".join(f"{mark} {name}" for name, mark in triage_marks.items())
    chips.append(_chip(f"⚑ contested · {marks}", "#ffffff", "triage state of the cell"))
    return f'<div style="display:flex;flex-wrap:wrap;gap:6px;margin:4px 0">{"".join(chips)}</div>'


def cell_label(row: Mapping) -> str:
    """One line naming a matrix cell: practice × canon, relation and confidence."""
    mark = triage_marks.get(row.get("triage") or "", "")
    return (
        f"{_clip(row['memory_title'], 50)} × {_clip(row['zk_title'], 50)} — "
        f"{row['relation']} {row['confidence']:.2f}" + (f" {mark}" if mark else "")
    )


def _clip(text: object, width: int) -> str:
    flat = " ".join(str(text).split())
    return flat if len(flat) <= width else flat[: width - 1].rstrip() + "…"


def triage_queue(frame: pd.DataFrame) -> pd.DataFrame:
    """The contradictions of a matrix frame, untriaged first, then by priority."""
    queue = frame[frame["relation"] == "contradicts"].copy()
    queue["pending"] = queue["triage"].fillna("") == ""
    queue = queue.sort_values(["pending", "priority"], ascending=[False, False], kind="stable")
    return queue.drop(columns="pending").reset_index(drop=True)


def find_edge(overlay: Overlay | None, row: Mapping) -> OverlayEdge | None:
    """The overlay edge behind a matrix row."""
    key = EdgeKey(row["memory_id"], row["zk_source"], row["zk_id"])
    return next((e for e in (overlay.edges if overlay else ()) if e.key == key), None)


def edge_key(row: Mapping) -> EdgeKey:
    """The triage key of a matrix row."""
    return EdgeKey(row["memory_id"], row["zk_source"], row["zk_id"])


def cell_detail(opened: OpenWorkspace, edge: OverlayEdge) -> dict:
    """What a reviewer reads about one cell: the brief if high value, quotes and rationale."""
    material = cell_material(opened, edge)
    detail = {
        "high_value": is_high_value(edge.relation, edge.claim_strength, edge.confidence),
        "rationale": edge.rationale,
        "evidence": edge.evidence,
        "quotes": [],
        "brief": None,
        "verified": None,
        "problem": "",
        "missing": material is None,
    }
    if material is None:
        return detail
    detail["quotes"] = [{"id": q.id, "body": q.body, "page": q.page} for q in material.quotes]
    if detail["high_value"]:
        brief = synthesize(material)
        detail["brief"], detail["verified"] = brief.text, brief.verified
        if not brief.verified:
            failure = brief.check.failure.value if brief.check.failure else "failed"
            detail["problem"] = f"{failure}: {brief.check.detail}".rstrip(": ")
    return detail


def quotes_html(quotes: Sequence[Mapping]) -> str:
    """Verbatim quotes as escaped block quotes with their id and page."""
    items = []
    for quote in quotes:
        page = f", p. {esc(quote['page'])}" if quote.get("page") is not None else ""
        items.append(
            "<blockquote style='margin:6px 0;padding:4px 10px;border-left:3px solid #bbb'>"
            f"“{esc(quote['body'])}” <small style='color:#666'>[{esc(quote['id'])}{page}]</small>"
            "</blockquote>"
        )
    return "".join(items) or "<small>No stored quotes.</small>"


def triage_rows(root: str | Path, *, last: int = 10) -> list[dict]:
    """The newest triage log lines, newest first, as plain rows."""
    entries = read_log(root).entries[-last:]
    return [
        {
            "at": e.at,
            "decision": e.decision.value,
            "practice": e.edge.memory_address,
            "canon": e.edge.zk_address,
            "note": e.note,
        }
        for e in reversed(entries)
    ]


def overlay_summary(counts: Mapping) -> str:
    """The overlay's counts in one sentence."""
    kinds = ", ".join(f"{n:,} {name}" for name, n in (counts.get("by_relation") or {}).items())
    return (
        f"{counts.get('practice', 0):,} practice entries, {counts.get('typed', 0):,} pairs typed, "
        f"{counts.get('kept', 0):,} kept" + (f" ({kinds})" if kinds else "") + "."
    )

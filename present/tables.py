"""The reasoning DAG as plain rows (claims, cited grounds) and the HTML tables that show rows."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine import (
    NavResult,
)
from present.checks import check_words, confirmed_words, floor_note
from present.markup import esc, status_chip


def claim_rows(result: NavResult) -> list[dict[str, Any]]:
    """One plain row per claim: text, kind, asserted and derived status, cites, verifiers."""
    decision = result.decision
    if decision is None:
        return []
    violated = {v.claim for v in decision.honesty_violations}
    grounds = {row["cite"]: row for row in ground_rows(result)}
    rows = []
    for claim in decision.dag.claims:
        cid = claim.id
        verdict = decision.claim_verdicts.get(cid)
        asserted = decision.asserted.get(cid)
        rows.append(
            {
                "claim": cid,
                "conclusion": cid == decision.dag.conclusion,
                "text": claim.text,
                "kind": claim.kind.value,
                "asserted": asserted.value if asserted else "",
                "derived": verdict.wire().value if verdict else "",
                "flags": list(verdict.flags()) if verdict else [],
                "floored": floor_note(decision, cid) if cid in decision.floored else "",
                "violation": cid in violated,
                "premises": list(claim.premises),
                "cites": list(claim.cites),
                "verifiers": [_ground_summary(grounds.get(ref), ref) for ref in claim.cites],
            }
        )
    return rows


def ground_rows(
    result: NavResult, *, citations: Mapping[str, str] | None = None
) -> list[dict[str, Any]]:
    """One plain row per cited node: its verdict and what its verifier said.

    `citations` (address → "Author Year, p. N") adds a reference column.
    """
    decision = result.decision
    if decision is None:
        return []
    missing = set(decision.missing_refs)
    cites = dict.fromkeys(ref for c in decision.dag.claims for ref in c.cites)
    rows = []
    for ref in cites:
        node = decision.node_verdicts.get(ref)
        check = decision.verifier_results.get(ref)
        row = {"cite": ref}
        if citations is not None:
            row["reference"] = citations.get(ref, "")
        score = check.to_dict()["score"] if check else None  # a non-finite score is dropped
        # What was confirmed comes first: on a narrow screen it stays in view.
        row["confirmed text"] = confirmed_words(check, bool(node and node.verified))
        rows.append(
            row
            | {
                "status": node.wire().value if node else ("missing" if ref in missing else ""),
                "flags": list(node.flags()) if node else [],
                "verifier": check.status.value if check else ("status given" if node else "none"),
                "method": (check.method if check else "") or "",
                "score": score,
                "page": int(check.page) if check and check.page is not None else None,
                "found": check_words(check),
                "near miss": (check.near_miss if check else "") or "",
                "detail": (check.detail if check else "")
                or ("" if node else "no verdict: a missing hop"),
            }
        )
    return rows


def _ground_summary(row: Mapping[str, Any] | None, ref: str) -> str:
    if row is None:
        return f"{ref}: no verdict"
    bits = [row["verifier"]]
    if row["method"]:
        bits.append(row["method"])
    if row["score"] is not None:
        bits.append(f"score {row['score']:.1f}")
    text = f"{ref}: {', '.join(bits)}"
    if row["found"]:
        text += f" — {row['found']}"
    if row["near miss"]:
        text += f" — near miss “{row['near miss']}”"
    return text


def table_html(rows: Sequence[Mapping[str, Any]], columns: Sequence[str] | None = None) -> str:
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
    # On a narrow screen the table scrolls sideways instead of being cut off.
    return (
        "<div style='overflow-x:auto'>"
        "<table class='plain-table' style='border-collapse:collapse;width:100%;font-size:0.9em'>"
        f"<thead><tr style='border-bottom:1px solid #ccc'>{head}</tr></thead>"
        f"<tbody>{body}</tbody></table></div>"
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


# The claim's text and its checks keep a readable measure; a narrow window scrolls the
# table sideways rather than squeezing the text to a word a line.
_CLAIM_WIDTHS = ("", ";min-width:16em", "", "", "", ";min-width:11em;overflow-wrap:anywhere")


def claims_table_html(rows: Sequence[Mapping[str, Any]]) -> str:
    """The claim rows as an HTML table with status chips; every cell is escaped."""
    head = "".join(
        f"<th style='text-align:left;padding:4px 8px'>{h}</th>"
        # The router's verdict first after the text: on a narrow screen it stays in view.
        for h in ("claim", "text", "derived", "asserted", "kind", "cites and verifiers")
    )
    body = []
    for row in rows:
        name = esc(row["claim"]) + (" <b>(conclusion)</b>" if row["conclusion"] else "")
        notes = []
        if row["floored"]:
            notes.append(row["floored"])
        if row["premises"]:
            notes.append("rests on " + ", ".join(row["premises"]))
        text = esc(row["text"]) + "".join(
            f"<br><small style='opacity:0.8'>{esc(n)}</small>" for n in notes
        )
        asserted = status_chip(row["asserted"]) if row["asserted"] else "—"
        derived = status_chip(row["derived"], row["flags"], violation=row["violation"])
        cites = "<br>".join(esc(v) for v in row["verifiers"]) or "—"
        cells = (name, text, derived, asserted, esc(row["kind"]), cites)
        body.append(
            "<tr>"
            + "".join(
                f"<td style='padding:4px 8px;vertical-align:top{width}'>{c}</td>"
                for c, width in zip(cells, _CLAIM_WIDTHS, strict=True)
            )
            + "</tr>"
        )
    # A narrow window scrolls the table sideways instead of cutting its last column.
    return (
        "<div style='overflow-x:auto'>"
        "<table class='dag-table' style='border-collapse:collapse;width:100%;font-size:0.9em'>"
        f"<thead><tr style='border-bottom:1px solid #ccc'>{head}</tr></thead>"
        f"<tbody>{''.join(body)}</tbody></table></div>"
    )

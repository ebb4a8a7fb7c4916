"""An answer to take away: one Markdown (or simple HTML) report of the verdict and its evidence.

The report holds the question, the verdict and its reasons in words, the stance, the
answer as the router licensed it, the reasoning DAG as a list, each quote with its page
and source, and the orphan sentences. It is a pure function of the answer and the words
the pages already show for it (`ReportWords`, made where every sentence for people is
made), so the same answer always gives the same bytes: no clock, no path, no random id.
Everything from a note, a DAG or a reply is escaped for the format it lands in.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from engine.answer_citations import cited_refs, quotes_of
from engine.api import Answer
from engine.navigation.result import NavResult
from engine.paper_table import EvidenceTable

__all__ = ["ReportReason", "ReportWords", "report_html", "report_markdown", "table_markdown"]

NO_STANCE = "none: the question states no claim for the evidence to support or contradict."
NO_FINDING = "no sentence of it states a finding on the question"
TABLE_HEAD = ("#", "Paper", "Finding (verbatim)", "Page", "Stance", "Row")


@dataclass(frozen=True)
class ReportReason:
    """One reason for the verdict: its name, what it means, and what triggered it here."""

    name: str
    explanation: str
    specifics: tuple[str, ...] = ()


@dataclass(frozen=True)
class ReportWords:
    """The sentences the pages show for an answer, handed to the report as they are."""

    headline: str  # the verdict banner's text
    reasons: tuple[ReportReason, ...] = ()
    stance: str = ""
    names: Mapping[str, str] = field(default_factory=dict)  # address -> "Author Year" or title
    citations: Mapping[str, str] = field(default_factory=dict)  # address -> "Author Year, p. N"


@dataclass(frozen=True)
class _Quote:
    text: str
    source: str
    page: int | None
    check: str


def _name(words: ReportWords, ref: str) -> str:
    return words.names.get(ref, ref)


def _claim_lines(run: NavResult, words: ReportWords) -> list[tuple[int, str]]:
    """(depth, line) for each claim, the conclusion first, premises below the claim they back."""
    decision = run.decision
    if decision is None:
        return []
    dag = decision.dag
    claims = {c.id: c for c in dag.claims}
    out: list[tuple[int, str]] = []
    seen: set[str] = set()

    def walk(cid: str, depth: int) -> None:
        claim = claims.get(cid)
        if claim is None or cid in seen:
            return
        seen.add(cid)
        verdict = decision.claim_verdicts.get(cid)
        status = str(verdict.wire()) if verdict is not None else "no verdict"
        flags = ", ".join(verdict.flags()) if verdict is not None else ""
        role = "conclusion, " if cid == decision.conclusion else ""
        cites = "; ".join(_name(words, r) for r in claim.cites)
        line = f"{claim.text} ({role}{claim.kind.value}, {status}{', ' + flags if flags else ''})"
        if cites:
            line += f" cites {cites}"
        out.append((depth, line))
        for premise in claim.premises:
            walk(premise, depth + 1)

    walk(decision.conclusion, 0)
    for claim in dag.claims:  # claims outside the conclusion's closure, after it
        walk(claim.id, 0)
    return out


def _quotes(run: NavResult, words: ReportWords) -> list[_Quote]:
    decision = run.decision
    if decision is None:
        return []
    out = []
    for ref in cited_refs(run):
        check = decision.verifier_results.get(ref)
        status = check.status.value if check is not None else "not checked"
        method = f", by {check.method}" if check is not None and check.method else ""
        page = check.page if check is not None else None
        source = words.citations.get(ref) or _name(words, ref)
        for text in quotes_of(run, ref)[:1] or ("",):
            out.append(_Quote(text, source, page, status + method))
    return out


def _orphans(run: NavResult) -> tuple[str, ...]:
    decision = run.decision
    return decision.traceability.orphans if decision is not None else ()


def _answer_text(run: NavResult) -> str:
    if run.prose.strip():
        return run.spelt_prose
    decision = run.decision
    if decision is None:
        return ""
    conclusion = {c.id: c for c in decision.dag.claims}.get(decision.conclusion)
    return conclusion.text if conclusion is not None else ""


_MD_SPECIALS = re.compile(r"([\\`*_\[\]<>#|])")


def _md(text: object) -> str:
    """Inline Markdown text: on one line, every control character backslash-escaped."""
    return _MD_SPECIALS.sub(r"\\\1", " ".join(str(text).split()))


def _table_cells(table: EvidenceTable) -> list[tuple[str, str, str, str, str, str]]:
    """Each row's cells as plain text, in `TABLE_HEAD` order."""
    out = []
    for rank, row in enumerate(table.rows, start=1):
        finding = f"“{row.finding.sentence}”" if row.finding is not None else NO_FINDING
        stance = f"{row.reading}: {row.cue}" if row.cue else row.reading
        page = row.page_label or "—"
        out.append((str(rank), row.name, finding, page, stance or "—", row.status.value))
    return out


def table_markdown(table: EvidenceTable) -> str:
    """The evidence table as a Markdown pipe table, every cell on one line and escaped."""
    lines = [
        "| " + " | ".join(TABLE_HEAD) + " |",
        "|" + "---|" * len(TABLE_HEAD),
    ]
    lines += ["| " + " | ".join(_md(c) for c in cells) + " |" for cells in _table_cells(table)]
    return "\n".join(lines) + "\n"


def report_markdown(result: Answer, words: ReportWords, table: EvidenceTable | None = None) -> str:
    """The answer as a Markdown report; the same answer, words and table give the same text.

    `table`, the evidence table of the answer's question, is a section of its own.
    """
    run = result.run
    lines = ["# Synapse Review report", ""]
    if run.question:
        lines += [f"**Question:** {_md(run.question)}", ""]
    lines += ["## Verdict", "", _md(words.headline), ""]
    lines += ["**Stance:** " + _md(words.stance or NO_STANCE), ""]
    if words.reasons:
        lines += ["## Why", ""]
        for reason in words.reasons:
            lines.append(f"- **{_md(reason.name)}**: {_md(reason.explanation)}")
            lines += [f"  - {_md(line)}" for line in reason.specifics]
        lines.append("")
    answer = _answer_text(run)
    if answer:
        licensed = run.label != "ABSTAIN"
        lines += ["## Answer" if licensed else "## Not an answer (not licensed)", ""]
        lines += [f"> {_md(answer)}", ""]
    claims = _claim_lines(run, words)
    if claims:
        lines += ["## Reasoning DAG", ""]
        lines += [f"{'  ' * depth}- {_md(line)}" for depth, line in claims]
        lines.append("")
    quotes = _quotes(run, words)
    if quotes:
        lines += ["## Quotes", ""]
        for q in quotes:
            page = f", p. {q.page}" if q.page is not None and ", p. " not in q.source else ""
            said = f"“{_md(q.text)}” — " if q.text else ""
            lines.append(f"- {said}{_md(q.source)}{page} (check: {_md(q.check)})")
        lines.append("")
    if table is not None and table.rows:
        lines += ["## Evidence table", "", table_markdown(table)]
    lines += ["## Orphans", ""]
    orphans = _orphans(run)
    if orphans:
        lines += [f"- {_md(o)}" for o in orphans]
    elif run.decision is not None:
        lines.append("None: every sentence of the prose traces to a verified claim.")
    else:
        lines.append("No prose was traced: the run never reached the router.")
    return "\n".join(lines).rstrip() + "\n"


def _h(text: object) -> str:
    return html.escape(str(text), quote=True)


def _table_html(table: EvidenceTable) -> str:
    head = "".join(f"<th>{_h(c)}</th>" for c in TABLE_HEAD)
    body = "".join(
        "<tr>" + "".join(f"<td>{_h(c)}</td>" for c in cells) + "</tr>"
        for cells in _table_cells(table)
    )
    return f"<h2>Evidence table</h2><table><tr>{head}</tr>{body}</table>"


def report_html(result: Answer, words: ReportWords, table: EvidenceTable | None = None) -> str:
    """The same report as one small HTML page, every text escaped."""
    run = result.run
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8"><title>Synapse Review report</title>',
        "<style>body{font-family:sans-serif;max-width:50em;margin:2em auto;line-height:1.5;"
        "color:#1f2328;background:#fff}mark{background:#fde68a;color:#1f2328}"
        "td,th{border:1px solid #d0d7de;padding:4px;vertical-align:top}"
        "table{border-collapse:collapse}</style>",
        "</head><body>",
        "<h1>Synapse Review report</h1>",
    ]
    if run.question:
        out.append(f"<p><b>Question:</b> {_h(run.question)}</p>")
    out.append(f"<h2>Verdict</h2><p>{_h(words.headline)}</p>")
    out.append(f"<p><b>Stance:</b> {_h(words.stance or NO_STANCE)}</p>")
    if words.reasons:
        items = []
        for reason in words.reasons:
            inner = "".join(f"<li>{_h(s)}</li>" for s in reason.specifics)
            more = f"<ul>{inner}</ul>" if inner else ""
            items.append(f"<li><b>{_h(reason.name)}</b>: {_h(reason.explanation)}{more}</li>")
        out.append(f"<h2>Why</h2><ul>{''.join(items)}</ul>")
    answer = _answer_text(run)
    if answer:
        head = "Answer" if run.label != "ABSTAIN" else "Not an answer (not licensed)"
        out.append(f"<h2>{head}</h2><blockquote>{_h(answer)}</blockquote>")
    claims = _claim_lines(run, words)
    if claims:
        listed = "".join(
            f'<li style="margin-left:{depth * 1.5}em">{_h(line)}</li>' for depth, line in claims
        )
        out.append(f"<h2>Reasoning DAG</h2><ul>{listed}</ul>")
    quotes = _quotes(run, words)
    if quotes:
        items = []
        for q in quotes:
            page = f", p. {q.page}" if q.page is not None and ", p. " not in q.source else ""
            said = f"<mark>{_h(q.text)}</mark> — " if q.text else ""
            items.append(f"<li>{said}{_h(q.source)}{page} (check: {_h(q.check)})</li>")
        out.append(f"<h2>Quotes</h2><ul>{''.join(items)}</ul>")
    if table is not None and table.rows:
        out.append(_table_html(table))
    orphans = _orphans(run)
    body = (
        "<ul>" + "".join(f"<li>{_h(o)}</li>" for o in orphans) + "</ul>"
        if orphans
        else "<p>None: every sentence of the prose traces to a verified claim.</p>"
    )
    out.append(f"<h2>Orphans</h2>{body}")
    out.append("</body></html>")
    return "\n".join(out) + "\n"

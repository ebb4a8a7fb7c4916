"""The evidence table's cells as HTML: each paper's finding at its page, its stance, its row."""

from __future__ import annotations

from engine import EvidenceTable, RowStatus, TableRow
from present.markup import esc, status_colours, unknown_colour

# Each row's status in words, and its chip's colour: green and hedged are the answer's own
# citation (the colours the app gives grounded and inferred), related is only retrieved.
STATUS_WORDS = {
    RowStatus.GREEN: ("green", "the answer's citation, licensed"),
    RowStatus.HEDGED: ("hedged", "the answer's citation, not green"),
    RowStatus.RELATED: ("related", "bears on the question; not the answer"),
}
_STATUS_COLOURS = {
    RowStatus.GREEN: status_colours["grounded"],
    RowStatus.HEDGED: status_colours["inferred"],
    RowStatus.RELATED: unknown_colour,
}
_STANCE_COLOURS = {"yes": "#2e8b57", "no": "#c0392b", "mixed": "#6b7280"}
NO_FINDING = "No sentence of it, found whole and word for word, states a finding on the question."
HEADINGS = ("Paper", "Finding (verbatim, with its page)", "Stance", "Row")
# The paper's name is a button: it wraps in its column rather than being cut short.
TABLE_CSS = (
    "<style>[class*='st-key-ask_table'] button{text-align:left;height:auto}"
    "[class*='st-key-ask_table'] button p{white-space:normal;overflow:visible;hyphens:auto}</style>"
)
EMPTY = (
    "No paper in this workspace mentions every word of the question, so none is listed. "
    "Try fewer or other words."
)


def _chip(text: str, colour: str, title: str = "") -> str:
    tip = f" title='{esc(title)}'" if title else ""
    return (
        f"<span class='chip'{tip} style='background:{colour};color:#ffffff;border-radius:4px;"
        f"padding:1px 5px;font-size:0.85em;display:inline-block;max-width:100%;"
        f"overflow-wrap:anywhere'>{esc(text)}</span>"
    )


def finding_html(row: TableRow) -> str:
    """The finding quoted, with its page; or why the row shows none."""
    finding = row.finding
    if finding is None:
        return (
            f"<div class='finding none' style='opacity:0.75'><small>{esc(NO_FINDING)}</small></div>"
        )
    shown = finding.label or (str(finding.page) if finding.page else "")
    page = f" <small style='white-space:nowrap'>p. {esc(shown)}</small>" if shown else ""
    return f"<div class='finding'>“{esc(finding.sentence)}”{page}</div>"


def stance_html(row: TableRow) -> str:
    """Yes, no or mixed as a chip with the cue under it; a dash where nothing is read.

    A yes a rule withheld shows the rule in a few words, the whole reason in the tooltip: in
    a narrow column the whole reason made the row a tall strip of words.
    """
    if not row.reading:
        tip = "no finding to read" if row.finding is None else "the question asks no yes or no"
        return f"<div class='stance' title='{esc(tip)}'>—</div>"
    colour = _STANCE_COLOURS.get(row.reading, "#6b7280")
    cue = ""
    if row.brief:
        tip = f" title='{esc(row.cue)}'" if row.brief != row.cue else ""
        cue = f"<br><small{tip}>{esc(row.brief)}</small>"
    return f"<div class='stance'>{_chip(row.answer_words, colour)}{cue}</div>"


def status_html(row: TableRow) -> str:
    """The row's status as a chip, its meaning in the tooltip."""
    word, meaning = STATUS_WORDS[row.status]
    return f"<div class='row-status'>{_chip(word, _STATUS_COLOURS[row.status], meaning)}</div>"


def table_caption(table: EvidenceTable) -> str:
    """How many papers the table lists, and the rule its findings obey."""
    shown = len(table.rows)
    more = f" (the {shown} closest of {table.papers})" if table.papers > shown else ""
    papers = "1 paper bears" if shown == 1 else f"{shown} papers bear"
    return (
        f"{papers} on the question{more}. A finding is shown only when the sentence is found "
        "word for word, whole, in the paper and states a result rather than an aim."
    )

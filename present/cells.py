"""A claim-matrix cell as a reviewer reads it, and the contradiction triage queue and log."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from engine import (
    Quote,
    shorten,
)
from present.markup import esc, md_escape, triage_marks
from present.sides import decision_words


def cell_label(row: Mapping[str, Any]) -> str:
    """One line naming a matrix cell: practice × canon, relation and confidence.

    Uses the frame's distinct labels when it has them, so two notes sharing a title differ.
    """
    mark = triage_marks.get(row.get("triage") or "", "")
    practice = row.get("practice_label") or shorten(row["practice_title"], 60)
    canon = row.get("canon_label") or shorten(row["canon_title"], 60)
    return f"{practice} × {canon} — {row['relation']} {row['confidence']:.2f}" + (
        f" {mark}" if mark else ""
    )


def triage_queue(frame: pd.DataFrame) -> pd.DataFrame:
    """The contradictions of a matrix frame, untriaged first, then by priority."""
    queue = frame[frame["relation"].isin(CANDIDATES)].copy()
    queue["pending"] = queue["triage"].fillna("") == ""
    queue = queue.sort_values(["pending", "priority"], ascending=[False, False], kind="stable")
    return queue.drop(columns="pending").reset_index(drop=True)


def pending_count(queue: pd.DataFrame) -> int:
    """How many contradictions of a triage queue no reviewer has decided yet."""
    return int((queue["triage"] == "").sum())


QUEUE_COLUMNS = ("practice", "canon", "relation", "confidence", "right", "state", "cue")
# Relations a reviewer triages: machine contradictions and possible tensions.
CANDIDATES = ("contradicts", "tension")


def queue_table(frame: pd.DataFrame) -> pd.DataFrame:
    """The edge queue as a reviewer reads it: titles, relation, confidence, cue, triage state.

    Plain text columns (a data grid shows them as text, never as markup).
    """
    state = frame["triage"].map(decision_words)
    if "practice_wrong" in frame:
        flagged = frame["practice_wrong"].astype(bool) & (frame["triage"] != "practice-wrong")
        state = state.where(~flagged, state + " · note marked wrong elsewhere")
    if "disagreement" in frame:
        disputed = frame["disagreement"].astype(bool)
        state = state.where(~disputed, state + " · reviewers disagree")
    state = state.where(frame["relation"].isin(CANDIDATES), "—")
    said = frame["measured"] if "measured" in frame else pd.Series("", index=frame.index)
    right = said.fillna("").astype(str).str.split(" at this confidence").str[0]
    return pd.DataFrame(
        {
            "practice": frame["practice_label"],
            "canon": frame["canon_label"],
            "relation": frame["relation"],
            "confidence": frame["confidence"].round(2),
            "right": right,
            "cue": frame["cue"].fillna(""),
            "state": state,
        },
        columns=list(QUEUE_COLUMNS),
    )


def decision_message(row: Mapping[str, Any], decision: str, note: str) -> str:
    """What a recorded decision says back: both sides by title, the relation and the note."""
    text = (
        f"{decision_words(decision)}: “{shorten(row['practice_title'], 80)}” {row['relation']} "
        f"“{shorten(row['canon_title'], 80)}”"
    )
    return text + (f" — note: {shorten(note, 120)}" if note.strip() else " — no note")


def quotes_html(quotes: Sequence[Quote], source: str = "") -> str:
    """Verbatim quotes as escaped block quotes, each with its source's name and page; the
    quote's id only in the tooltip."""
    items = []
    for quote in quotes:
        page = f"p. {quote.page}" if quote.page is not None else ""
        where = ", ".join(part for part in (source, page) if part)
        mark = f" <small style='opacity:0.8'>({esc(where)})</small>" if where else ""
        items.append(
            "<blockquote style='margin:6px 0;padding:4px 10px;border-left:3px solid #bbb'"
            f" title='quote {esc(quote.id)}'>“{esc(quote.body)}”{mark}</blockquote>"
        )
    return "".join(items) or "<small>No stored quotes.</small>"


def candidate_caption(relation: str, measured_text: str) -> str:
    """The caption over a machine contradiction or possible tension: what it is, and how often
    ones at its confidence were right out of fold."""
    if relation == "contradicts":
        lead = "Machine contradiction, a candidate for review"
    elif relation == "tension":
        lead = (
            "Possible tension: its confidence band was right too rarely to call it a contradiction"
        )
    else:
        return ""
    return f"{lead} — {measured_text}." if measured_text else f"{lead}."


def overlay_summary(counts: Mapping[str, Any]) -> str:
    """The overlay's counts in one sentence, Markdown-escaped (the keys come from a file)."""
    kinds = ", ".join(f"{n:,} {name}" for name, n in (counts.get("by_relation") or {}).items())
    return md_escape(
        f"{counts.get('practice', 0):,} practice entries, {counts.get('typed', 0):,} pairs typed, "
        f"{counts.get('kept', 0):,} kept" + (f" ({kinds})" if kinds else "") + "."
    )


def edge_heading(row: Mapping[str, Any], canon: str = "") -> str:
    """The selected edge in one line: both notes as a reader knows them (the practice note by
    title, the canon note by `canon`, its "Author Year", else its title), the relation and
    the confidence. No address: those stay in tooltips and downloads."""
    return (
        f"{row['practice_title'] or row['practice_id']} — {row['relation']} — "
        f"{canon or row['canon_title'] or row['canon_id']}; confidence {row['confidence']:.2f}"
    )


def edge_tooltip(row: Mapping[str, Any]) -> str:
    """Both addresses of the selected edge, for a tooltip."""
    return f"{row['practice_id']} × {row['canon_address']}"


PRACTICE_EXAMPLE = """---
id: exp-2024-trial
type: experiment
title: Our 2024 pilot
---
In our 2024 pilot, the treatment did not reduce readmissions.
"""


def empty_matrix_words(practice: int) -> str:
    """What an empty claim matrix needs, and how to add it (Markdown, fixed text).

    `practice` is how many practice notes the workspace holds: with none, the matrix has
    nothing to compare; with some, none of them met a canon claim to type.
    """
    if practice == 0:
        return (
            "**The claim matrix needs practice notes.** It sets your team's own notes "
            "(decisions, experiments, checkpoints) beside the claims of the papers, to find "
            "where they disagree. This workspace has papers but no practice notes yet.\n\n"
            "To add one, save a Markdown file in the folder `.memory/` of the workspace, one "
            "note a file, with `id`, `type` (decision, experiment or checkpoint) and `title` "
            "at the top, then press **Build the overlay**. For example "
            "`.memory/exp-2024-trial.md`:"
        )
    return (
        f"**No pair to review yet.** None of the {practice:,} practice notes met a claim of "
        "the papers closely enough to compare. Add practice notes, or papers, that speak of "
        "the same things (a file a note in `.memory/` for practice, like this one), then "
        "press **Build the overlay**:"
    )


# The cue's words, marked the same in both texts: dark text on a light yellow in both themes.
_MARK = "<mark style='background:#ffe08a;color:#1a1a1a;padding:0 2px;border-radius:2px'>"


def mark_words(text: str, words: Sequence[str]) -> str:
    """`text` escaped, with every whole-word occurrence of `words` (case ignored) marked."""
    wanted = sorted({w for w in words if w.strip()}, key=len, reverse=True)
    if not wanted:
        return esc(text)
    pattern = re.compile(
        r"(?<!\w)(" + "|".join(re.escape(w) for w in wanted) + r")(?!\w)", re.IGNORECASE
    )
    out, at = [], 0
    for found in pattern.finditer(text):
        out.append(esc(text[at : found.start()]))
        out.append(f"{_MARK}{esc(found.group(0))}</mark>")
        at = found.end()
    out.append(esc(text[at:]))
    return "".join(out)


def both_sides_html(practice: str, canon: str, words: Sequence[str]) -> str:
    """The practice note's text and the canon sentence side by side, the cue marked in both.

    Side by side while there is room for two columns of about 280 px, stacked below that.
    """
    cue = ", ".join(f"“{esc(w)}”" for w in words)
    caption = f"<small>Cue words marked: {cue}</small>" if cue else ""
    box = (
        "flex:1 1 280px;min-width:0;padding:8px 12px;border:1px solid rgba(128,128,128,.45);"
        "border-radius:6px;white-space:pre-wrap;overflow-wrap:anywhere"
    )
    sides = (
        ("Our practice note", practice, "#f28e2b"),
        ("Canon sentence compared", canon, "#4e79a7"),
    )
    columns = "".join(
        f"<div class='side' style='{box};border-top:4px solid {colour}'>"
        f"<div style='font-weight:600;margin-bottom:4px'>{esc(title)}</div>"
        f"<div>{mark_words(text, words) if text.strip() else '<i>no text</i>'}</div></div>"
        for title, text, colour in sides
    )
    flex = "display:flex;flex-wrap:wrap;gap:10px"
    return f"<div class='both-sides' style='{flex}'>{columns}</div>{caption}"

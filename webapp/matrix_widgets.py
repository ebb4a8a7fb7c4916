"""The claim matrix page's panes: the edge queue, the heatmap, the selected edge, triage."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from engine import (
    EngineError,
    Overlay,
    Page,
    TriageDecision,
    Worker,
    cell_detail,
    edge_key,
    find_edge,
    next_open,
    page_rows,
    previous_pair,
    read_log,
    record,
)
from present import cells, sides
from present.heatmap import column_key_html, heatmap_view, picked_edge
from present.markup import md_escape, relation_legend_html
from present.shortcuts import shortcut_list, triage_shortcuts
from webapp import services
from webapp.state import KEYS

QUEUE_PAGE = 25
QUEUE_ORDER = ("relation", "confidence", "state", "practice", "canon", "cue")
HEAT_ROWS = 12  # the data is sparse (about one edge a row): 12 rows meet about 14 notes
HEAT_COLUMNS = 14  # numbered columns stay legible at 800 px
session = st.session_state


def _pager(label: str, key: str, pages: int) -> int:
    """A 1-based page number input kept inside 1..pages; returns the 0-based page."""
    if int(session.get(key, 1)) > pages:
        session[key] = pages
    return int(st.number_input(label, 1, pages, key=key)) - 1


def queue_pane(visible: pd.DataFrame) -> str | None:
    """The paged edge queue; the edge token of a row the reviewer clicked, else None."""
    left, right = st.columns([1, 3], vertical_alignment="bottom")
    with left:
        pages = Page.of(len(visible), 0, QUEUE_PAGE).pages
        number = _pager("Queue page", KEYS.queue_page, pages)
    at = Page.of(len(visible), number, QUEUE_PAGE)
    right.caption(f"Edge queue: {at.caption('edges')} (page {at.number + 1} of {at.pages}).")
    rows = page_rows(visible, at)
    event = st.dataframe(
        cells.queue_table(rows),
        key=f"{KEYS.queue_table(at.number)}_{session.get(KEYS.queue_round, 0)}",
        on_select="rerun",
        selection_mode="single-row",
        hide_index=True,
        # Relation, confidence and state first, so a narrow window still shows them.
        column_order=QUEUE_ORDER,
        column_config={
            "practice": st.column_config.TextColumn(width="medium"),
            "canon": st.column_config.TextColumn(width="medium"),
            "relation": st.column_config.TextColumn(width="small"),
            "confidence": st.column_config.NumberColumn(width="small", format="%.2f"),
            "state": st.column_config.TextColumn(width="small"),
            "cue": st.column_config.TextColumn(width="small"),
        },
    )
    chosen = list(event.selection.rows) if event else []
    # A row counts as picked when the reviewer's click changes, not when a re-sorted queue
    # puts another pair under the same row (a decision moves the decided pair down).
    clicked = (at.number, tuple(chosen))
    if not chosen or session.get(KEYS.queue_seen) == clicked:
        session[KEYS.queue_seen] = clicked
        return None
    session[KEYS.queue_seen] = clicked
    return str(rows.iloc[chosen[0]]["edge_id"])


def heatmap_pane(visible: pd.DataFrame) -> str | None:
    """One page of the heatmap with its true counts; the edge token of a clicked cell."""
    st.html(relation_legend_html())
    left, right = st.columns(2)
    with left:
        rows = Page.of(visible["practice_id"].nunique(), 0, HEAT_ROWS).pages
        row_page = _pager("Row page", KEYS.heat_row_page, rows)
    columns = heatmap_view(visible, row_page=row_page, rows_per_page=HEAT_ROWS).columns.pages
    with right:
        column_page = _pager("Column page", KEYS.heat_column_page, columns)
    heat = heatmap_view(
        visible,
        row_page=row_page,
        column_page=column_page,
        rows_per_page=HEAT_ROWS,
        columns_per_page=HEAT_COLUMNS,
    )
    st.caption(heat.caption())
    event = st.plotly_chart(
        heat.figure,
        key=KEYS.matrix_chart(row_page, column_page),
        on_select="rerun",
        selection_mode="points",
        theme="streamlit",  # the figure paints no background: the app's theme shows through
        config={"displaylogo": False},
    )
    st.html(column_key_html(heat))
    return picked_edge(event)


def detail_pane(worker: Worker, overlay: Overlay, row: pd.Series) -> None:
    """What a reviewer reads about the selected edge: both notes, cue, brief, quotes."""
    edge = find_edge(overlay, row)
    detail = worker.call(cell_detail, worker.opened, edge, overlay.typer) if edge else None
    canon = detail.canon_name if detail is not None else ""
    st.markdown(md_escape(cells.edge_heading(row, canon)), help=cells.edge_tooltip(row))
    if detail is None or detail.missing:
        st.warning("One of this edge's notes is no longer in the workspace.")
        return
    # A callout, not a caption: the measured precision is what a reviewer weighs first.
    if caption := cells.candidate_caption(row["relation"], detail.measured):
        callout = st.warning if row["relation"] == "contradicts" else st.info
        callout(md_escape(caption))
    if detail.cue:
        st.markdown(f"**Cue** — {md_escape(detail.cue)}")
    if row.get("practice_wrong"):
        st.warning("A reviewer marked this practice note as wrong (on this or another pair).")
    st.html(cells.both_sides_html(detail.practice_text, detail.canon_text, detail.cue_words))
    if detail.brief is None:
        st.caption("Not a high-value cell: no brief is written for it.")
    elif detail.verified:
        st.success("Brief verified against its material.")
    else:
        st.warning(f"Brief flagged, not verified: {md_escape(detail.problem)}")
    if detail.reading:
        brief = st.container(border=True, key="matrix_brief")
        brief.text(detail.reading)
        # The brief as checked, with the notes' ids, for whoever wants to trace it.
        brief.caption("The brief as checked, with the notes' ids: hover here.", help=detail.brief)
    st.markdown("**Verbatim quotes**")
    st.html(cells.quotes_html(detail.quotes, detail.canon_name))
    st.markdown(f"**Rationale** — {md_escape(detail.rationale or 'none given')}")


def _decide(root: str, frame: pd.DataFrame, decision: TriageDecision, tokens: list[str]) -> None:
    """Record the decision on the edge selected now; answers made before it are forgotten.

    The edge comes from the page's one selection at click time, not from the button: a
    click landing while a rerun draws a new selection records the edge the page now shows.
    """
    token = session.get(KEYS.matrix_selected)
    hits = frame[frame["edge_id"] == token]
    if token is None or hits.empty or hits.iloc[0]["relation"] not in cells.CANDIDATES:
        session[KEYS.triage_message] = "Not recorded: the selected edge is not a contradiction."
        return
    row = hits.iloc[0].to_dict()
    session[KEYS.matrix_decided] = token  # the decided pair stays selected until "Next"
    _keep_walk(tokens)
    _forget_queue_click()
    note_key = KEYS.triage_note(token)
    note = session.get(note_key, "")
    try:
        record(root, edge_key(row), decision, note=note)
    except (EngineError, OSError) as exc:
        session[KEYS.triage_message] = f"Not recorded: {exc}"
        return
    session[note_key] = ""
    session[KEYS.triage_message] = cells.decision_message(row, str(decision), note)
    services.answer_cache_clear()


def _forget_queue_click() -> None:
    """Clear the queue's row selection: once the queue re-sorts, that row is another pair."""
    page = int(session.get(KEYS.queue_page, 1)) - 1
    session[KEYS.queue_round] = int(session.get(KEYS.queue_round, 0)) + 1  # a fresh grid
    session[KEYS.queue_seen] = (page, ())


def _keep_walk(tokens: list[str]) -> list[str]:
    """The order Next and Previous walk: the queue as the reviewer first saw it, kept while it
    holds the same pairs (a decision re-sorts the queue; a new filter starts a new walk)."""
    walked = session.get(KEYS.matrix_walk) or []
    if set(walked) != set(tokens):
        walked = session[KEYS.matrix_walk] = list(tokens)
    return list(walked)


def _next(tokens: list[str], frame: pd.DataFrame) -> None:
    """Move the selection on: the next pair after this one that a reviewer can still decide."""
    session.pop(KEYS.matrix_decided, None)
    _forget_queue_click()
    now = session.get(KEYS.matrix_selected)
    open_pairs = set(
        frame[(frame["triage"] == "") & frame["relation"].isin(cells.CANDIDATES)]["edge_id"]
    )
    session[KEYS.matrix_selected] = next_open(_keep_walk(tokens), tokens, open_pairs, now)


def _previous(tokens: list[str], frame: pd.DataFrame) -> None:
    """Move the selection back: the triageable pair before this one, decided or not."""
    session.pop(KEYS.matrix_decided, None)
    _forget_queue_click()
    now = session.get(KEYS.matrix_selected)
    triaged = set(frame[frame["relation"].isin(cells.CANDIDATES)]["edge_id"])
    session[KEYS.matrix_selected] = previous_pair(_keep_walk(tokens), tokens, triaged, now)


SHORTCUTS = triage_shortcuts(KEYS.matrix_next, KEYS.matrix_previous, KEYS.triage)
_KEY = {s.widget: s.key for s in SHORTCUTS}


def triage_pane(root: str, frame: pd.DataFrame, row: pd.Series, tokens: list[str]) -> None:
    """Decide which side of the selected contradiction is wrong, with a note; then "Next"."""
    queue = cells.triage_queue(frame)
    st.caption(
        f"{cells.pending_count(queue)} of {len(queue)} contradictions and possible tensions "
        "not yet reviewed (supports and extends are not triaged)."
    )
    # Side by side, each as wide as its words (columns cut them short at 800 px).
    walk = st.container(horizontal=True)
    walk.button(
        "← Previous pair",
        key=KEYS.matrix_previous,
        on_click=_previous,
        args=(tokens, frame),
        shortcut=_KEY[KEYS.matrix_previous],
    )
    walk.button(
        "Next pair to review →",
        key=KEYS.matrix_next,
        on_click=_next,
        args=(tokens, frame),
        shortcut=_KEY[KEYS.matrix_next],
    )
    st.caption("Keys: " + shortcut_list(SHORTCUTS) + " (not while typing in the note).")
    if row["relation"] not in cells.CANDIDATES:
        st.caption(
            "Triage is for contradictions and possible tensions; pick one in the queue or "
            "the heatmap."
        )
        return
    now = sides.decision_words(row["triage"])
    st.caption(md_escape(f"This pair: {now}. A new decision supersedes your last one."))
    if row["disagreement"]:
        standing = read_log(root).standing().get(edge_key(row), ())
        st.warning(md_escape(sides.disagreement_words(standing, row["triage"])))
    st.text_input("Note", key=KEYS.triage_note(row["edge_id"]), placeholder="Why, in a sentence")
    st.caption("Which side is wrong?")
    for label, decision in sides.TRIAGE_CHOICES:
        key = KEYS.triage(decision)
        st.button(
            label,
            key=key,
            on_click=_decide,
            args=(root, frame, decision, tokens),
            help=sides.decision_effect(decision),
            shortcut=_KEY[key],
        )
    reset = TriageDecision.RESET
    st.button(
        sides.RESET_LABEL,
        key=KEYS.triage(reset),
        on_click=_decide,
        args=(root, frame, reset, tokens),
        disabled=not row["triage"],
        icon=":material/undo:",
        help=sides.decision_effect(reset),
        shortcut=_KEY[KEYS.triage(reset)],
    )

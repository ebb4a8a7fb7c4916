"""Page pieces all pages share: asking, the shared link, the banner, the current result."""

from __future__ import annotations

import streamlit as st

from engine import Answer, EngineError, Freshness
from present.answer import stance_line
from present.contests import contest_lines, contests_html, review_note
from present.graphs import step_count
from present.markup import md_escape
from present.views import banner
from ui import services
from ui import state as app_state
from ui.state import DEFAULTS, KEYS


def ask(question: str) -> bool:
    """Answer `question`, make it the current result and put it in the URL; False on error."""
    state = st.session_state
    try:
        waiting = (
            "Navigating the knowledge base…"
            if services.offline()
            else "Asking the model… (ask again or leave the page to cancel)"
        )
        with st.spinner(waiting):
            result = services.ask(question)
    except EngineError as exc:  # a reasoner that cannot be configured, a question too long
        st.error(f"Cannot ask: {md_escape(exc)}")
        return False
    state[KEYS.answer] = result
    app_state.set_current(result, "answer")
    state[KEYS.answer_id] = app_state.current_id()
    state[KEYS.nav_step] = max(0, step_count(result.run) - 1)
    state[KEYS.playing] = False
    state[KEYS.question_draft] = question
    state[KEYS.url_q] = question
    st.query_params["q"] = question
    return True


def sync_url() -> None:
    """Keep `?q=` and the current answer in step on every page.

    A link or reload carrying a question it has not answered yet answers it, so any page
    reproduces its view; otherwise the current answer's question is put back into the URL,
    which a page switch clears.
    """
    state = st.session_state
    if services.current_worker() is None:
        return
    wanted = st.query_params.get("q", "").strip()
    last = app_state.asked()
    answered = last.run.question if last else ""
    if wanted and wanted != state.get(KEYS.url_q):
        state[KEYS.url_q] = wanted
        if wanted != answered:
            ask(wanted)
        return
    item = app_state.current_item()
    if item is not None and item.origin == "answer" and answered:
        if st.query_params.get("q") != answered:
            st.query_params["q"] = answered
    elif item is not None and item.origin == "audit":
        st.query_params.pop("q", None)


def show_origin() -> None:
    """A caption saying which result the page shows."""
    item = app_state.current_item()
    if item is None:
        return
    if item.origin == "audit":
        st.caption("Showing the payload routed on the Audit page.")
    elif item.result.run.question:
        st.caption(f"Showing the answer to: {md_escape(item.result.run.question)}")


@st.fragment(run_every=DEFAULTS.file_watch)
def watch_files(result: Answer) -> None:
    """Rerun the page when a file the shown answer rests on changes on disk, in every session."""
    w = services.current_worker()
    if w is None or not w.ready() or w.failure() is not None:
        return
    if result.freshness(w.opened) is not Freshness.CURRENT:
        st.rerun(scope="app")


def show_banner(result: Answer) -> None:
    """The verdict banner, then where the evidence stands on a stated claim, all escaped."""
    watch_files(result)
    verdict = banner(result.run, confirmed=services.confirmed_pairs())
    getattr(st, verdict.tone)(md_escape(verdict.text))
    stance = stance_line(result.run)
    if stance is not None:
        getattr(st, stance.tone)(md_escape(stance.text))
    if note := review_note(result):
        st.caption(md_escape(note))
    disclosure = contests_html(result)
    if disclosure:
        st.html(disclosure)
        for line in contest_lines(result)[:3]:
            st.page_link(
                "ui/claim_matrix.py",
                label=md_escape(line.link_label),
                query_params={"edge": line.edge_id},
            )


def refresh(result: Answer, origin: str) -> Answer:
    """`result` after the review since: re-routed ones become current anew, stale ones kept."""
    fresh = services.reviewed(result)
    if fresh is result:
        return result
    if fresh.rerouted:  # a triage decision touched it and it was asked again
        app_state.set_current(fresh, origin)
    else:
        app_state.keep_current(fresh)
    return fresh


def show_current() -> Answer:
    """The current result after its origin caption and banner; stops the page if there is none."""
    item = app_state.current_item()
    if item is None:
        nothing_yet()
    result = refresh(item.result, item.origin)
    show_origin()
    show_banner(result)
    return result


def nothing_yet() -> None:
    """Say how to get a result, then stop the page."""
    st.info("Nothing to show yet: ask a question on Navigate or route a payload on Audit.")
    st.page_link("ui/navigate.py", label="Go to Navigate")
    st.page_link("ui/audit.py", label="Go to Audit")
    st.stop()

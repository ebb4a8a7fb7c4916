"""Session state the pages share: the asked question, its result, the URL, the open workspace."""

from __future__ import annotations

import streamlit as st

from engine.core.errors import EngineError
from pages import shared
from present.graphs import step_count
from present.markup import md_escape

# What belongs to one workspace's results; a workspace switch forgets all of it.
RESULT_KEYS = ("answer", "answer_id", "current", "audit", "nav_step", "playing", "url_q", "ask_now")
QUESTION_KEYS = ("question", "question_draft")


def follow_workspace(root: str | None) -> None:
    """Forget the results, question and shared link of a workspace that is no longer open."""
    state = st.session_state
    if state.get("results_root", root) != root:
        for key in RESULT_KEYS + QUESTION_KEYS:
            state.pop(key, None)
        st.query_params.pop("q", None)
    state["results_root"] = root


def ask(question: str) -> bool:
    """Answer `question`, make it the current result and put it in the URL; False on error."""
    state = st.session_state
    try:
        waiting = (
            "Navigating the knowledge base…"
            if state.get("reasoner", "offline") == "offline"
            else "Asking the model… (ask again or leave the page to cancel)"
        )
        with st.spinner(waiting):
            result = shared.answer(question)
    except EngineError as exc:  # a reasoner that cannot be configured as typed
        st.error(f"Cannot ask: {md_escape(exc)}")
        return False
    state["answer"] = result
    shared.set_current(result, "answer")
    state["answer_id"] = shared.current_id()
    state["nav_step"] = max(0, step_count(result) - 1)
    state["playing"] = False
    state["question_draft"] = question
    state["url_q"] = question
    st.query_params["q"] = question
    return True


def ask_later(question: str) -> None:
    """Have the Navigate page ask `question` on its next run (a landing example)."""
    state = st.session_state
    state["ask_now"] = state["question_draft"] = state["question"] = question


def sync_url() -> None:
    """Keep `?q=` and the current answer in step on every page.

    A link or reload carrying a question it has not answered yet answers it, so any page
    reproduces its view; otherwise the current answer's question is put back into the URL,
    which a page switch clears.
    """
    state = st.session_state
    if shared.current_worker() is None:
        return
    wanted = st.query_params.get("q", "").strip()
    answered = (state.get("answer") or {}).get("question")
    if wanted and wanted != state.get("url_q"):
        state["url_q"] = wanted
        if wanted != answered:
            ask(wanted)
        return
    item = state.get("current") or {}
    if item.get("origin") == "answer" and answered:
        if st.query_params.get("q") != answered:
            st.query_params["q"] = answered
    elif item.get("origin") == "audit":
        st.query_params.pop("q", None)


def question_text() -> str:
    """The question to show in the box: the last typed or asked one."""
    state = st.session_state
    return state.get("question_draft") or (state.get("answer") or {}).get("question") or ""


def persist(widget_key: str, store_key: str) -> None:
    """Restore a widget's text from `store_key`, which outlives pages where it is not drawn."""
    state = st.session_state
    if widget_key not in state and store_key in state:
        state[widget_key] = state[store_key]

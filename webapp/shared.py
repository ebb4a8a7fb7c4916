"""Page pieces all pages share: asking, the shared link, the banner, the current result."""

from __future__ import annotations

from pathlib import Path
from typing import NoReturn
from urllib.parse import urlsplit

import streamlit as st

from engine import (
    Answer,
    EngineError,
    Freshness,
    PayloadError,
    Worker,
    audit_answer,
    load_payload,
    save_payload,
)
from present import gallery
from present.answer import stance_line
from present.contests import contest_lines, contests_html, review_note
from present.graphs import step_count
from present.markup import md_escape
from present.views import banner
from webapp import services, urlstate
from webapp import state as app_state
from webapp.state import DEFAULTS, KEYS


def frame(page: str, height: int) -> None:
    """Show an HTML page (a graph, a key hook) in a frame `height` px tall.

    The frame is a srcdoc iframe: a relative address in the page (the served graph library,
    `app/static/…`) resolves against the app page's own address, on this server.
    """
    st.iframe(page, height=height)
    # st.iframe asks urllib whether the page is an address, and urlsplit remembers its last
    # 128 inputs: each graph page would stay in memory (0.7 MB when the library is inline).
    # The stubs do not say it is cached, so its cache is looked up rather than assumed.
    clear = getattr(urlsplit, "cache_clear", None)
    if clear is not None:
        clear()


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
    app_state.remember_question(question)
    st.query_params["q"] = question
    return True


def _ask_again(question: str) -> None:
    """A recent question, clicked: back in the box and asked on this run."""
    state = st.session_state
    state[KEYS.question] = state[KEYS.question_draft] = state[KEYS.ask_now] = question


def recent_panel(shown: str) -> None:
    """This session's other recent questions, each asking again on a click."""
    recent = [q for q in app_state.recent_questions() if q != shown]
    if not recent:
        return
    with st.expander(f"Recent questions ({len(recent)})", icon=":material/history:"):
        for n, question in enumerate(recent):
            st.button(
                md_escape(question),
                key=KEYS.recent_question(n),
                type="tertiary",
                on_click=_ask_again,
                args=(question,),
            )


def open_worker(missing: str) -> Worker:
    """The sidebar's workspace; when none opened, warn with `missing` and stop the page."""
    worker = services.current_worker()
    if worker is None:
        st.warning(missing)
        st.stop()
    return worker


def refuse_link(folder: str) -> None:
    """Say that a link named a folder it may not open, and how to open it; stops the page.

    Nothing has been read or written in that folder: opening it is this user's own act.
    """
    st.warning("This link names a workspace folder that has not been opened in this app.")
    st.code(folder, language=None, wrap_lines=True)
    st.markdown(
        "A link alone never opens a folder, since opening one reads it and writes the app's "
        "index into it. Nothing has been read or written there.\n\n"
        "**To open it**, type this path into **Workspace folder** in the sidebar and press "
        "Enter. The link's view then opens, and later links to this folder open directly."
    )
    st.caption(
        "A server started with `--workspaces-root FOLDER` opens links to any workspace under "
        "that folder."
    )
    # Named, since the open workspace's path is cut short in the sidebar's field.
    root = st.session_state.get(KEYS.results_root)
    stay = f"Stay in {Path(root).name}" if root else "Stay in the open workspace"
    if st.button(md_escape(stay), key=KEYS.link_continue):
        st.session_state.pop(KEYS.link_refused, None)
        for name in (*urlstate.GLOBAL, "cite"):
            st.query_params.pop(name, None)
        st.rerun()
    st.stop()


def sync_url(page: str) -> None:
    """Keep the URL and the shown results in step on every page (see `ui/urlstate`).

    A link or reload carrying a question or a payload this session has not applied yet
    answers or routes it, so any page reproduces its view; then the workspace, the question
    and the payload are written back, which a page switch in the browser clears.
    """
    state = st.session_state
    worker = services.current_worker()
    root = state.get(KEYS.results_root)
    if worker is None or root is None:
        return
    if not worker.ready() or worker.failure() is not None:
        # Still loading: the link's question and payload wait for the notes.
        if st.query_params.get("ws") != root:
            st.query_params["ws"] = root
        return
    params = st.query_params
    wanted = params.get("q", "").strip()
    last = app_state.asked()
    if wanted and wanted != state.get(KEYS.url_q):
        state[KEYS.url_q] = wanted
        if wanted != (last.run.question if last else ""):
            # Back, Forward or a link: the box shows the question whose answer is shown.
            # No page has drawn the box yet this run, so its text may still be set.
            state[KEYS.question] = state[KEYS.question_draft] = wanted
            ask(wanted)
    ref = ("payload", params["payload"]) if "payload" in params else None
    if ref is None and "example" in params:
        ref = ("example", params["example"])
    if ref is not None and ref != state.get(KEYS.url_payload):
        state[KEYS.url_payload] = ref
        if ref != state.get(KEYS.audit_ref):
            route_linked(root, ref)
        asked = app_state.asked()
        if params.get("shows") != "audit" and asked is not None:
            app_state.set_current(asked, "answer")
    write_url(root, page)


def write_url(root: str, page: str) -> None:
    """The workspace, the asked question and the audited payload into the URL."""
    params = st.query_params
    values = {"ws": root}
    last = app_state.asked()
    if last is not None and last.run.question:
        values["q"] = last.run.question
    ref = st.session_state.get(KEYS.audit_ref)
    if ref is not None and st.session_state.get(KEYS.audit) is not None:
        values[ref[0]] = ref[1]
        st.session_state[KEYS.url_payload] = ref
    item = app_state.current_item()
    if item is not None and item.origin == "audit" and "q" in values:
        values["shows"] = "audit"
    for name in urlstate.GLOBAL:
        if name not in values:
            params.pop(name, None)
        elif params.get(name) != values[name]:
            params[name] = values[name]
    st.session_state[KEYS.url_ws] = params.get("ws", root)
    if "q" in values:
        st.session_state[KEYS.url_q] = values["q"]
    urlstate.keep_only(urlstate.PAGE_PARAMS.get(page, ()))


def route_linked(root: str, ref: tuple[str, str]) -> None:
    """Route the payload a link names (saved in the workspace, or a bundled example)."""
    kind, name = ref
    if kind == "payload":
        text = load_payload(root, name)
    else:
        text = next((e.text for e in gallery.examples() if e.key == name), None)
    if text is None:
        st.warning(
            f"The link names an audited payload this workspace does not hold ({md_escape(name)})."
        )
        return
    state = st.session_state
    try:
        worker = services.current_worker()
        result = audit_answer(text, worker.opened if worker is not None else None)
    except PayloadError as exc:
        st.warning(f"The linked payload does not route: {md_escape(exc)}")
        return
    state[KEYS.audit_text] = state[KEYS.audit_draft] = text
    if kind == "example":  # the picker names the example the box holds
        state[KEYS.audit_example] = state[KEYS.audit_example_kept] = name
    state[KEYS.audit] = result
    state[KEYS.audit_ref] = ref
    app_state.set_current(result, "audit")


def link_audit(root: str, text: str) -> tuple[str, str] | None:
    """The URL reference of a routed payload: a bundled example's key, else its saved hash.

    None when the payload cannot be saved in the workspace (a read-only folder): it is then
    shown, but a link or reload cannot bring it back.
    """
    for item in gallery.examples():
        if item.text == text:
            return ("example", item.key)
    try:
        return ("payload", save_payload(root, text))
    except (EngineError, OSError):
        return None


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
    if services.freshness(w, result) is not Freshness.CURRENT:
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
                "pages/claim_matrix.py",
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


def nothing_yet() -> NoReturn:
    """Say how to get a result, then stop the page."""
    st.info("Nothing to show yet: ask a question on Navigate or route a payload on Audit.")
    st.page_link("pages/navigate.py", label="Go to Navigate")
    st.page_link("pages/audit.py", label="Go to Audit")
    st.stop()

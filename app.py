"""Synapse Review: the Streamlit entry point, with the sidebar and navigation over the pages."""

import streamlit as st

from engine import EngineError, Worker, check_connection, environment
from present.library import holdings_text
from present.markup import fold_sidebar_js, md_escape, page_link_css, question_hint_css
from present.views import BUDGET_HELP
from webapp import papers, services, shared
from webapp import state as app_state
from webapp.state import DEFAULTS, KEYS

st.set_page_config(page_title="Synapse Review", layout="wide")

# Short URL paths, kept from before the pages moved to ui/, so saved links still work.
pages = [
    st.Page("pages/home.py", title="Start", url_path="start", default=True),
    st.Page("pages/navigate.py", title="Navigate", url_path="ask"),
    st.Page("pages/library.py", title="Library", url_path="library"),
    st.Page("pages/reasoning_dag.py", title="Reasoning DAG", url_path="dag"),
    st.Page("pages/traceability.py", title="Traceability", url_path="trace"),
    st.Page("pages/claim_matrix.py", title="Claim matrix", url_path="matrix"),
    st.Page("pages/audit.py", title="Audit", url_path="audit-dag"),
]
page = st.navigation(pages)


@st.fragment(run_every=2.0)
def _meaning_progress(worker: Worker) -> None:
    """The sentence vectors' build, followed every two seconds until they are ready."""
    if worker.meaning.building:
        st.caption(md_escape(f"Meaning: {worker.opened.meaning_notice}."))
    else:
        st.caption("Meaning: sentence vectors ready; new answers use them.")


def workspace_panel() -> None:
    """Workspace path, one status box (opening, ready or failed) and the load report."""
    state = st.session_state
    # A page may ask to open a folder (an import just filled it): applied before the widget.
    if (chosen := state.pop(KEYS.workspace_next, None)) is not None:
        app_state.choose_workspace(chosen)
        state[KEYS.workspace_chosen] = True
    # A link or reload names its workspace (`?ws=`); the field's text outlives page switches.
    # A link alone opens only a folder this user opened before or one under a server root.
    linked = st.query_params.get("ws", "").strip()
    by_link = bool(linked) and linked != state.get(KEYS.url_ws)
    if by_link:
        state[KEYS.url_ws] = linked
        if services.may_open_by_link(linked):
            state.pop(KEYS.link_refused, None)
            app_state.choose_workspace(linked)
        else:
            state[KEYS.link_refused] = linked
            by_link = False
    by_link = by_link or bool(state.pop(KEYS.link_typed, False))
    app_state.persist(KEYS.workspace_path, KEYS.workspace_kept)
    # An emptied field names no folder (resolving it would open the server's working
    # directory): it shows the open workspace again, or the default one.
    if not str(state.get(KEYS.workspace_path, "")).strip():
        state[KEYS.workspace_path] = state.get(KEYS.workspace_kept) or services.default_workspace()
    st.text_input("Workspace folder", key=KEYS.workspace_path, on_change=app_state.chose_workspace)
    state[KEYS.workspace_kept] = state[KEYS.workspace_path]
    root = services.resolve(state[KEYS.workspace_path])
    # The box is drawn on every run, so the widgets below it never shift or go stale.
    box = st.status("Opening and indexing the workspace…", expanded=False)
    worker = services.worker(root)
    if not worker.ready(wait=services.open_wait()):
        # Pages draw now and wait for the load only where they need the notes.
        st.session_state[KEYS.worker] = worker
        app_state.follow_workspace(root, linked=by_link)
        with box:
            wait_for_open(worker)
        # Holds the load report's place, so nothing below shifts when the load ends.
        st.expander("Load report: loading…")
        return
    error = worker.failure()
    if error is not None:
        services.worker.clear(root)  # a later visit tries again: the folder may be fixed
        state.pop(KEYS.workspace_chosen, None)
        st.session_state[KEYS.worker] = None
        app_state.follow_workspace(None, linked=by_link)
        box.update(label="Cannot open this workspace", state="error", expanded=True)
        box.error(f"Cannot open this workspace: {md_escape(error)}")
        return
    st.session_state[KEYS.worker] = worker
    app_state.follow_workspace(root, linked=by_link)
    if state.pop(KEYS.workspace_chosen, False):  # opened by this user's own act: links may
        services.remember(root)
    opened = worker.opened
    if opened.notice:  # a read-only workspace, or a `.synapse/` holding links
        st.info(md_escape(f"Nothing is saved in this workspace: {opened.notice}."))
    if worker.meaning.building:
        _meaning_progress(worker)
    elif opened.meaning_notice:  # no sentence encoder: answers rest on words alone
        st.caption(md_escape(f"Meaning: {opened.meaning_notice}."))
    _, held = papers.shelf(opened)
    box.update(label=f"Workspace ready: {holdings_text(held)}", state="complete")
    with st.expander(f"Load report: {len(opened.report)} problem(s)"):
        stats = opened.stats
        st.caption(
            f"Index: {stats.added} added, {stats.changed} changed, {stats.removed} removed, "
            f"{stats.unchanged} unchanged."
        )
        for problem in opened.report:
            st.text(f"{problem.path}: {problem.problem}")
        if st.button("Reload from disk", key=KEYS.workspace_reload):
            services.worker.clear(root)
            services.answer_cache_clear()
            st.rerun()


@st.fragment(run_every=0.3)
def wait_for_open(worker: Worker) -> None:
    """Rerun the app once the workspace has opened; until then say so."""
    if worker.ready():
        st.rerun(scope="app")
    st.caption("Loading the notes and bringing the search index up to date…")


def reasoner_panel() -> None:
    """Offline or an OpenAI-compatible endpoint, with a connection test."""
    st.radio(
        "Reasoner",
        ["offline", "openai"],
        format_func={"offline": "Offline (built in)", "openai": "OpenAI-compatible"}.get,
        key=KEYS.reasoner,
    )
    if st.session_state[KEYS.reasoner] != "openai":
        return
    settings = environment()
    base_url = settings.llm_base_url or DEFAULTS.base_url
    st.text_input("Base URL", value=base_url, key=KEYS.llm_base_url)
    st.text_input("Model", value=settings.llm_model, key=KEYS.llm_model)
    st.text_input(
        "API key", type="password", key=KEYS.llm_api_key, help="Kept in this session only."
    )
    if st.button("Test connection", key=KEYS.llm_test):
        try:
            config = services.llm_config()
        except EngineError as exc:
            st.error(md_escape(exc))
            return
        with st.spinner("Asking the endpoint…"):
            reply = check_connection(config)
        if reply.ok:
            st.success(f"Connected: {md_escape(config.model)} replied in {reply.latency_ms} ms.")
        else:
            st.error(f"No connection: {md_escape(reply.error)}")


def budget_panel() -> None:
    """Hops, node and step bounds for a navigation."""
    budget, d = DEFAULTS.budget, DEFAULTS
    hops, nodes, steps = d.hops, d.max_nodes, d.max_steps
    st.number_input(
        "Hops", hops.low, hops.high, budget.hops, key=KEYS.budget_hops, help=BUDGET_HELP["hops"]
    )
    st.number_input(
        "Max nodes",
        nodes.low,
        nodes.high,
        budget.max_nodes,
        key=KEYS.budget_nodes,
        help=BUDGET_HELP["max_nodes"],
    )
    st.number_input(
        "Max steps",
        steps.low,
        steps.high,
        budget.max_steps,
        key=KEYS.budget_steps,
        help=BUDGET_HELP["max_steps"],
    )


with st.sidebar:
    st.header("Synapse Review")
    workspace_panel()
    st.divider()
    reasoner_panel()
    # A keyed expander keeps its open state across the reruns its own inputs cause.
    with st.expander("Budget", key=KEYS.budget_open):
        budget_panel()
    # Last in the sidebar, so its one-pixel frame shifts nothing: every page, not only
    # Navigate, starts with the sidebar folded in a narrow window.
    shared.frame(fold_sidebar_js(), 1)

st.html(page_link_css())
st.html(question_hint_css(KEYS.question))
if refused := st.session_state.get(KEYS.link_refused):
    shared.refuse_link(refused)  # says how to open it, and stops before the link is applied
shared.sync_url(page.url_path)
page.run()

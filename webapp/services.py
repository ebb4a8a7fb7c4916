"""The engine as the pages use it: the opened workspace, cached answers and rendered graphs."""

from __future__ import annotations

import threading
import time
from dataclasses import replace
from pathlib import Path

import streamlit as st

from engine import (
    PLACEHOLDER_KEY,
    Answer,
    Budget,
    ConfigError,
    Edge,
    EvidenceTable,
    Freshness,
    LLMConfig,
    ModelReasoner,
    OpenAIChat,
    Question,
    ReviewSnapshot,
    Typer,
    Worker,
    answer,
    build_overlay,
    contests_now,
    environment,
    evidence_table,
    link_may_open,
    model_typer,
    read_question,
    remember_workspace,
    review_stamp,
    workspaces_roots,
)
from present.dag_graph import dag_html
from present.graph_page import SERVED_LIBRARY, served_files
from present.graphs import neighbourhood_html
from webapp.state import DEFAULTS, KEYS

app_dir = Path(__file__).resolve().parent.parent


def default_workspace() -> str:
    """`SYNAPSE_WORKSPACE`, else the built SciFact demo, else the bundled momentum-lab."""
    chosen = environment().workspace
    if chosen:
        return chosen
    demo = app_dir / "demo" / "scifact"
    return str(demo if (demo / ".zettelkasten").is_dir() else app_dir / "examples" / "momentum-lab")


def resolve(path: str) -> str:
    """The absolute form of a workspace path typed in the sidebar."""
    return str(Path(path.strip() or ".").expanduser().resolve())


def may_open_by_link(path: str) -> bool:
    """Whether a link naming the folder `path` may open it; reads nothing inside it.

    Yes for a folder under a workspaces root, one this user opened in the app before, the
    server's default workspace, and the bundled demo and examples.
    """
    bundled = (app_dir / "examples", app_dir / "demo")
    return link_may_open(path, (*workspaces_roots(), *bundled), (default_workspace(),))


def remember(root: str) -> None:
    """Record that this user opened `root` in the app (typed it, or an import filled it)."""
    remember_workspace(root)


@st.cache_resource(show_spinner=False, max_entries=4, on_release=Worker.close)
def worker(root: str) -> Worker:
    """The opened workspace at the resolved path `root`, loaded and indexed once per process."""
    return Worker(root)


def open_wait() -> float:
    """Seconds a page waits for a workspace still loading before it draws (`SYNAPSE_OPEN_WAIT`).

    A small workspace opens within it and the page draws once; a large one draws at once
    with "Opening…" and the sidebar follows the load.
    """
    chosen = environment().open_wait
    return DEFAULTS.open_wait if chosen is None else chosen


def current_worker() -> Worker | None:
    """The sidebar's workspace if it opened, else None."""
    return st.session_state.get(KEYS.worker)


def budget() -> Budget:
    """The budget set in the sidebar."""
    state, default = st.session_state, DEFAULTS.budget
    return Budget(
        hops=int(state.get(KEYS.budget_hops, default.hops)),
        max_nodes=int(state.get(KEYS.budget_nodes, default.max_nodes)),
        max_steps=int(state.get(KEYS.budget_steps, default.max_steps)),
    )


def llm_config() -> LLMConfig:
    """The OpenAI-compatible endpoint typed in the sidebar; raises ConfigError when invalid."""
    state = st.session_state
    key = state.get(KEYS.llm_api_key) or environment().llm_api_key or PLACEHOLDER_KEY
    return LLMConfig(
        base_url=state.get(KEYS.llm_base_url, "").strip(),
        model=state.get(KEYS.llm_model, "").strip(),
        api_key=key,
    )


def offline() -> bool:
    """Whether the sidebar picked the built-in offline reasoner."""
    chosen: str = st.session_state.get(KEYS.reasoner, DEFAULTS.reasoner)
    return chosen == DEFAULTS.reasoner


def reasoner(cancel: threading.Event | None = None) -> tuple[str, ModelReasoner | None]:
    """A cache key naming the reasoner (never its key) and the policy object, if not offline.

    Setting `cancel` ends the model policy's call in progress.
    """
    if offline():
        return DEFAULTS.reasoner, None
    config = llm_config()
    policy = ModelReasoner(OpenAIChat(config, cancel=cancel))
    return f"openai {config.base_url} {config.model}", policy


def typer() -> str | Typer:
    """The overlay's typer: offline, or a model typer on the sidebar's endpoint, model-gated."""
    if offline():
        return DEFAULTS.reasoner
    return model_typer(OpenAIChat(llm_config()))


class _Uncached(Exception):
    """Carries a model run that failed, so it is shown but not cached."""

    def __init__(self, result: Answer) -> None:
        super().__init__("uncached result")
        self.result = result


# cache_data pickles the frozen Answer and hands each caller its own copy; nothing in it
# is mutated, so a copy per hit is only the price of a session never sharing an object.
@st.cache_data(show_spinner=False, max_entries=128)
def _answer(
    root: str,
    question: str,
    *,
    name: str,
    bounds: tuple[int, int, int],
    review_key: tuple[str, ...],
    meaning: bool,
    _question: Question,
    _review: ReviewSnapshot,
    _policy: ModelReasoner | None = None,
    _cancel: threading.Event | None = None,
) -> Answer:
    w = worker(root)
    limits = Budget(*bounds)
    # Cache keys only: a triage decision, or sentence vectors becoming ready, gives a fresh
    # answer.
    del review_key, meaning, question  # the text keys the cache; the value is what is asked
    if _policy is None:
        # On the answer pool, beside other sessions' questions; a rerun drops it if queued.
        result = w.call_answer(
            answer,
            w.opened,
            _question,
            reasoner=name,
            budget=limits,
            review=_review,
            tick=_yield_to_streamlit,
        )
    else:
        # On the model pool, so a slow endpoint never holds the engine thread; the wait
        # hands control back to Streamlit, so asking again or leaving cancels the call.
        result = w.call_model(
            answer,
            w.opened,
            _question,
            reasoner=_policy,
            budget=limits,
            review=_review,
            cancel=_cancel,
            tick=_yield_to_streamlit,
        )
    if name != DEFAULTS.reasoner and result.run.failure:
        raise _Uncached(result)
    return result


def _yield_to_streamlit() -> None:
    """Let Streamlit stop this run here: it raises when the user asked again or left."""
    # Any session-state access is one of Streamlit's interruption points.
    st.session_state.get(KEYS.reasoner)


def ask(question: str) -> Answer:
    """The answer to `question` under the sidebar's workspace, reasoner and budget, cached.

    Raises ConfigError for a question over the length cap, before any work is queued.
    """
    asked = read_question(question)  # read once: the length limit, then its words
    w = current_worker()
    if w is None:
        raise ConfigError("no workspace is open: open one in the sidebar first")
    cancel = threading.Event()
    name, policy = reasoner(cancel)
    b = budget()
    root = str(w.opened.root)
    # The review snapshot's key (its stamp and contesting contradictions) keys the cache: a
    # triage decision or a rebuilt overlay gives a fresh answer.
    snapshot = review(root)
    try:
        bounds = (b.hops, b.max_nodes, b.max_steps)
        return _answer(
            root,
            question,
            name=name,
            bounds=bounds,
            review_key=snapshot.key,
            meaning=w.opened.meaning.semantic is not None,
            _question=asked,
            _review=snapshot,
            _policy=policy,
            _cancel=cancel,
        )
    except _Uncached as exc:
        return exc.result


_reload_lock = threading.Lock()


def reload_notes(root: str, cited: tuple[str, ...]) -> Worker:
    """The workspace at `root` loaded again from disk, once, however many sessions ask.

    Every session shares the reloaded workspace; answers cached before it are forgotten.
    """
    with _reload_lock:
        w = worker(root)
        if (
            not w.ready()
            or w.failure() is not None
            or w.watcher.notes_changed(w.opened.workspace, cited)
        ):
            worker.clear(root)
            w = worker(root)
            answer_cache_clear()
        st.session_state[KEYS.worker] = w
        return w


def freshness(w: Worker, result: Answer) -> Freshness:
    """Whether `result`'s files are unchanged, by the workspace's watcher, shared by sessions.

    While the watcher publishes no change to the files this session last found `result`
    current over, nothing is stat-ed or read.
    """
    state, seen = result.checked(w.opened, w.watcher, st.session_state.get(KEYS.files_seen))
    st.session_state[KEYS.files_seen] = seen
    return state


def current(result: Answer) -> Answer:
    """`result`, or a fresh answer when a file it rests on changed on disk since it was routed.

    A changed note reloads the workspace for every session first. An offline answer is
    asked again; a model answer is kept but marked `files_changed`, so the page says so.
    """
    w = current_worker()
    if w is None or not result.run.question or not w.ready() or w.failure() is not None:
        return result
    state = freshness(w, result)
    if state is Freshness.CURRENT:
        return result
    root = str(w.opened.root)
    if state is Freshness.NOTES_CHANGED:
        reload_notes(root, result.run.cited)
    answer_cache_clear()
    if not offline() or result.run.reasoner != DEFAULTS.reasoner:
        return replace(result, files_changed=True)
    return replace(ask(result.run.question), rerouted=True, files_changed=True)


def reviewed(result: Answer) -> Answer:
    """`result`, or a fresh answer when its files or a triage decision on it changed since.

    An offline answer is asked again (it is deterministic and cheap); a model answer is
    kept but marked `review_stale` or `files_changed`, so the page says its verdict predates
    the change.
    """
    fresh = current(result)
    if fresh is not result:
        return fresh
    w = current_worker()
    if w is None or not result.review_stamp or not result.run.question:
        return result
    root = str(w.opened.root)
    stamp = review_stamp(root)
    if result.review_stamp == stamp:
        return result
    now = w.call(contests_now, w.opened, result.run.cited, review(root))
    if result.contests is not None and now.items == result.contests.items:
        return replace(result, review_stamp=stamp)
    if not offline() or result.run.reasoner != DEFAULTS.reasoner:
        return replace(result, review_stale=True)
    return replace(ask(result.run.question), rerouted=True)


# A page references the graph library the server serves once, so it is tens of KB; the
# caches hold a session's replay of one trace and a few other sessions' graphs.
GRAPH_PAGES_KEPT = 32


def graph_library() -> str | None:
    """Where graph pages load vis-network from: the copy this server serves once, or None
    (inline in every page, 0.7 MB each) when static serving is off or the copy is missing."""
    if not st.get_option("server.enableStaticServing"):
        return None
    return SERVED_LIBRARY if all(path.is_file() for path in served_files()) else None


@st.cache_data(show_spinner=False, max_entries=GRAPH_PAGES_KEPT)
def neighbourhood_page(_result: Answer, result_id: str, step: int, root: str = "") -> str:
    """The neighbourhood graph page at `step`, rendered once per result and step.

    Replaying a trace would otherwise rebuild the page on every rerun. The workspace's
    overlay edges are drawn too.
    """
    return neighbourhood_html(
        _result.run, step, height=600, overlay=overlay_edges(root), library=graph_library()
    )


@st.cache_data(show_spinner=False, max_entries=GRAPH_PAGES_KEPT // 2)
def dag_page(_result: Answer, result_id: str, height: int) -> str:
    """The reasoning DAG page of the current result, rendered once per result."""
    return dag_html(_result.run, height=height, library=graph_library())


@st.cache_data(show_spinner=False, max_entries=GRAPH_PAGES_KEPT)
def paper_table(_result: Answer, result_id: str, root: str) -> EvidenceTable:
    """The evidence table of the current result, computed once per result."""
    w = worker(root)
    return w.call(evidence_table, w.opened, _result)


@st.cache_resource(show_spinner=False, max_entries=4)
def _review(root: str, stamp: str) -> ReviewSnapshot:
    return ReviewSnapshot.load(root)


def review(root: str) -> ReviewSnapshot:
    """The workspace's review (overlay, triage, contest scope), read once per change on disk.

    Shared by every session, never copied: the answer, the banner and the graphs all read
    the same snapshot. Raises ConfigError for an unusable `contest` setting.
    """
    return _review(root, review_stamp(root))


def overlay_edges(root: str) -> tuple[Edge, ...]:
    """The saved overlay's typed edges, practice → canon, from the review snapshot."""
    if not root:
        return ()
    try:
        return review(root).overlay_edges()
    except ConfigError:
        return ()


def confirmed_pairs() -> set[tuple[str, str]]:
    """(practice, canon) addresses of contradictions a reviewer confirmed in this workspace."""
    w = current_worker()
    if w is None:
        return set()
    try:
        return set(review(str(w.opened.root)).confirmed_pairs())
    except ConfigError:
        return set()


def type_overlay(worker: Worker) -> None:
    """Type every practice × canon pair with a progress bar; answers made before are forgotten."""
    bar = st.progress(0.0, text="Typing practice × canon pairs…")
    seen = {"done": 0, "total": 0}
    chosen = typer()
    submit = worker.submit if chosen == DEFAULTS.reasoner else worker.submit_model
    job = submit(
        build_overlay,
        worker.opened,
        typer=chosen,
        progress=lambda done, total: seen.update(done=done, total=total),
    )
    while not job.done():
        share = seen["done"] / seen["total"] if seen["total"] else 0.0
        bar.progress(share, text=f"Typing pairs: {seen['done']:,} of {seen['total']:,}")
        time.sleep(0.2)
    built = job.result()
    bar.progress(1.0, text=f"Overlay built: {built.counts['kept']:,} edges kept")
    answer_cache_clear()


def answer_cache_clear() -> None:
    """Forget every cached answer, say after the workspace changed on disk."""
    _answer.clear()

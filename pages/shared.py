"""App state shared by the pages: the opened workspace, cached answers and the current result."""

from __future__ import annotations

import os
import threading
import time
import uuid
from pathlib import Path

import streamlit as st

from engine.api import answer as answer_question
from engine.api import contests_now, review_edges
from engine.core.llm import ENV_API_KEY, PLACEHOLDER_KEY, LLMConfig, OpenAIChat
from engine.navigation.reasoners.model import ModelReasoner
from engine.navigation.substrate import Budget
from engine.review import overlay
from engine.review.contest import review_stamp
from engine.review.triage import confirmed_edges
from engine.review.typers import Typer, model_typer
from engine.workspace.opened import Worker
from present.answer import stance_line
from present.contests import contest_lines, contests_html, review_note
from present.graphs import dag_html, neighbourhood_html
from present.markup import md_escape
from present.views import banner

app_dir = Path(__file__).resolve().parent.parent


def default_workspace() -> str:
    """`SYNAPSE_WORKSPACE`, else the built SciFact demo, else the bundled momentum-lab."""
    chosen = os.environ.get("SYNAPSE_WORKSPACE", "").strip()
    if chosen:
        return chosen
    demo = app_dir / "demo" / "scifact"
    return str(demo if (demo / ".zettelkasten").is_dir() else app_dir / "examples" / "momentum-lab")


def resolve(path: str) -> str:
    """The absolute form of a workspace path typed in the sidebar."""
    return str(Path(path.strip() or ".").expanduser().resolve())


@st.cache_resource(show_spinner=False, max_entries=4, on_release=Worker.close)
def worker(root: str) -> Worker:
    """The opened workspace at the resolved path `root`, loaded and indexed once per process."""
    return Worker(root)


def open_wait() -> float:
    """Seconds a page waits for a workspace still loading before it draws (`SYNAPSE_OPEN_WAIT`).

    A small workspace opens within it and the page draws once; a large one draws at once
    with "Opening…" and the sidebar follows the load.
    """
    try:
        return max(0.0, float(os.environ.get("SYNAPSE_OPEN_WAIT", "0.5")))
    except ValueError:
        return 0.5


def current_worker() -> Worker | None:
    """The sidebar's workspace if it opened, else None."""
    return st.session_state.get("worker")


def budget() -> Budget:
    """The budget set in the sidebar."""
    state = st.session_state
    return Budget(
        hops=int(state.get("budget_hops", 2)),
        max_nodes=int(state.get("budget_nodes", 40)),
        max_steps=int(state.get("budget_steps", 12)),
    )


def llm_config() -> LLMConfig:
    """The OpenAI-compatible endpoint typed in the sidebar; raises ConfigError when invalid."""
    state = st.session_state
    key = state.get("llm_api_key") or os.environ.get(ENV_API_KEY, "") or PLACEHOLDER_KEY
    return LLMConfig(
        base_url=state.get("llm_base_url", "").strip(),
        model=state.get("llm_model", "").strip(),
        api_key=key,
    )


def reasoner(cancel: threading.Event | None = None) -> tuple[str, object | None]:
    """A cache key naming the reasoner (never its key) and the policy object, if not offline.

    Setting `cancel` ends the model policy's call in progress.
    """
    if st.session_state.get("reasoner", "offline") == "offline":
        return "offline", None
    config = llm_config()
    policy = ModelReasoner(OpenAIChat(config, cancel=cancel))
    return f"openai {config.base_url} {config.model}", policy


def typer() -> str | Typer:
    """The overlay's typer: offline, or a model typer on the sidebar's endpoint, model-gated."""
    if st.session_state.get("reasoner", "offline") == "offline":
        return "offline"
    return model_typer(OpenAIChat(llm_config()))


class _Uncached(Exception):
    """Carries a model run that failed, so it is shown but not cached."""

    def __init__(self, result: dict) -> None:
        super().__init__("uncached result")
        self.result = result


@st.cache_data(show_spinner=False, max_entries=128)
def _answer(
    root: str,
    question: str,
    *,
    name: str,
    bounds: tuple,
    edges: tuple,
    _policy=None,
    _cancel: threading.Event | None = None,
) -> dict:
    w = worker(root)
    limits = Budget(*bounds)
    del edges  # part of the cache key only: the answer reads the review scope itself
    if _policy is None:
        run = w.call(answer_question, w.opened, question, reasoner=name, budget=limits)
    else:
        # On the model pool, so a slow endpoint never holds the engine thread; the wait
        # hands control back to Streamlit, so asking again or leaving cancels the call.
        run = w.call_model(
            answer_question,
            w.opened,
            question,
            reasoner=_policy,
            budget=limits,
            cancel=_cancel,
            tick=_yield_to_streamlit,
        )
    result = run.to_dict()
    if name != "offline" and result.get("failure"):
        raise _Uncached(result)
    return result


def _yield_to_streamlit(waited: float) -> None:
    """Let Streamlit stop this run here: it raises when the user asked again or left."""
    # Any session-state access is one of Streamlit's interruption points.
    st.session_state.get("reasoner")


def answer(question: str) -> dict:
    """The answer to `question` under the sidebar's workspace, reasoner and budget, cached."""
    w = current_worker()
    cancel = threading.Event()
    name, policy = reasoner(cancel)
    b = budget()
    root = str(w.opened.root)
    # The contesting contradictions and the review stamp key the cache: a triage decision
    # or a rebuilt overlay gives a fresh answer.
    edges = (review_stamp(root), *((e.src, e.dst, e.relation) for e in review_edges(root)))
    try:
        bounds = (b.hops, b.max_nodes, b.max_steps)
        return _answer(
            root, question, name=name, bounds=bounds, edges=edges, _policy=policy, _cancel=cancel
        )
    except _Uncached as exc:
        return exc.result


def reviewed(result: dict) -> dict:
    """`result`, or a fresh answer when a triage decision since touches a node it cites.

    An offline answer is asked again (it is deterministic and cheap); a model answer is
    kept but marked `review_stale`, so the page says its verdict predates the decision.
    """
    w = current_worker()
    stamp = result.get("review_stamp")
    if w is None or not stamp or not result.get("question"):
        return result
    root = str(w.opened.root)
    if stamp == review_stamp(root):
        return result
    now = w.call(contests_now, w.opened, result.get("cited") or [])
    if now.to_dict()["items"] == (result.get("contests") or {}).get("items"):
        return {**result, "review_stamp": review_stamp(root)}
    if reasoner()[0] != "offline" or result.get("reasoner") != "offline":
        return {**result, "review_stale": True}
    return {**answer(result["question"]), "rerouted": True}


def set_current(result: dict, origin: str) -> None:
    """Make `result` the one the DAG and Traceability pages show."""
    # A fresh id per result keys its rendered graphs, so no session sees another's.
    st.session_state["current"] = {"result": result, "origin": origin, "id": uuid.uuid4().hex}


def current_id() -> str:
    """The id of the current result, or an empty string when there is none."""
    return (st.session_state.get("current") or {}).get("id", "")


@st.cache_data(show_spinner=False, max_entries=256)
def neighbourhood_page(_result: dict, result_id: str, step: int, root: str = "") -> str:
    """The neighbourhood graph page at `step`, rendered once per result and step.

    The page inlines the graph library (hundreds of KB), so replaying a trace would
    otherwise rebuild it on every rerun. The workspace's overlay edges are drawn too.
    """
    return neighbourhood_html(_result, step, height=600, overlay=overlay_edges(root))


@st.cache_data(show_spinner=False, max_entries=64)
def dag_page(_result: dict, result_id: str, height: int) -> str:
    """The reasoning DAG page of the current result, rendered once per result."""
    return dag_html(_result, height=height)


@st.cache_data(show_spinner=False, max_entries=8)
def _overlay_edges(root: str, stamp: tuple) -> tuple[dict, ...]:
    saved = overlay.load_overlay(root)
    if saved is None:
        return ()
    return tuple(
        {"src": e.key.memory_address, "dst": e.key.zk_address, "relation": e.relation.value}
        for e in saved.edges
    )


def overlay_edges(root: str) -> tuple[dict, ...]:
    """The saved overlay's typed edges as src/dst/relation, reread when the file changes."""
    if not root:
        return ()
    try:
        info = (Path(root) / overlay.OVERLAY_PATH).stat()
    except OSError:
        return ()
    return _overlay_edges(root, (info.st_size, info.st_mtime_ns))


def current() -> dict | None:
    """The last answer or audited payload, whichever came last."""
    item = st.session_state.get("current")
    return item["result"] if item else None


def show_origin() -> None:
    """A caption saying which result the page shows."""
    item = st.session_state.get("current") or {}
    result = item.get("result") or {}
    if item.get("origin") == "audit":
        st.caption("Showing the payload routed on the Audit page.")
    elif result.get("question"):
        st.caption(f"Showing the answer to: {md_escape(result['question'])}")


def show_banner(result: dict) -> None:
    """The verdict banner, then where the evidence stands on a stated claim, all escaped."""
    verdict = banner(result, confirmed=confirmed_pairs())
    getattr(st, verdict.tone)(md_escape(verdict.text))
    stance = stance_line(result)
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


def confirmed_pairs() -> set[tuple[str, str]]:
    """(practice, canon) addresses of contradictions a reviewer confirmed in this workspace."""
    w = current_worker()
    if w is None:
        return set()
    return {(e.src, e.dst) for e in confirmed_edges(w.opened.root)}


def show_current() -> dict:
    """The current result after its origin caption and banner; stops the page if there is none."""
    result = current()
    if result is None:
        nothing_yet()
    if (fresh := reviewed(result)) is not result:  # a triage decision touched it
        item = st.session_state["current"]
        if fresh.get("rerouted"):
            set_current(fresh, item["origin"])
        else:
            item["result"] = fresh
        result = fresh
    show_origin()
    show_banner(result)
    return result


def nothing_yet() -> None:
    """Say how to get a result, then stop the page."""
    st.info("Nothing to show yet: ask a question on Navigate or route a payload on Audit.")
    st.page_link("pages/navigate.py", label="Go to Navigate")
    st.page_link("pages/audit.py", label="Go to Audit")
    st.stop()


def build_overlay(worker: Worker) -> None:
    """Type every practice × canon pair with a progress bar; answers made before are forgotten."""
    bar = st.progress(0.0, text="Typing practice × canon pairs…")
    seen = {"done": 0, "total": 0}
    chosen = typer()
    submit = worker.submit if chosen == "offline" else worker.submit_model
    job = submit(
        overlay.build_overlay,
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

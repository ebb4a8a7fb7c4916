"""App state in one place: every session key, the app's defaults, and the current result."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from pathlib import Path

import streamlit as st

from engine import Answer, Budget


@dataclass(frozen=True)
class Keys:
    """Every `st.session_state` key the app uses; a widget's key is also how tests find it."""

    # the open workspace (sidebar)
    workspace_path: str = "workspace_path"
    workspace_next: str = "workspace_next"  # a folder to open at the next run (an import's)
    workspace_kept: str = "workspace_kept"  # the folder field's text, kept across page switches
    url_ws: str = "url_ws"  # the workspace the URL last named
    link_refused: str = "link_refused"  # a folder a link named that it may not open
    workspace_chosen: str = "workspace_chosen"  # this user chose the folder: remember it
    link_typed: str = "link_typed"  # the user typed the folder a refused link named
    link_continue: str = "link_continue"
    workspace_reload: str = "workspace_reload"
    worker: str = "worker"
    results_root: str = "results_root"
    # the reasoner and the budget (sidebar)
    reasoner: str = "reasoner"
    llm_base_url: str = "llm_base_url"
    llm_model: str = "llm_model"
    llm_api_key: str = "llm_api_key"
    llm_test: str = "llm_test"
    budget_open: str = "budget_open"
    budget_hops: str = "budget_hops"
    budget_nodes: str = "budget_nodes"
    budget_steps: str = "budget_steps"
    # the asked question, its answer and the result the DAG and Traceability pages show
    question: str = "question"
    question_draft: str = "question_draft"
    ask: str = "ask"
    ask_now: str = "ask_now"
    recent: str = "recent"  # the questions asked this session, latest first
    url_q: str = "url_q"
    url_payload: str = "url_payload"  # the audited payload the URL last named
    url_written: str = "url_written"  # page -> the parameters this session last wrote
    url_kept: str = "url_kept"  # page -> widget values kept across page switches
    answer: str = "answer"
    answer_id: str = "answer_id"
    current: str = "current"
    files_seen: str = "files_seen"  # where the workspace's watcher last found it current
    nav_step: str = "nav_step"
    nav_play: str = "nav_play"
    playing: str = "playing"
    nav_download: str = "nav_download"
    nav_payload: str = "nav_payload"
    home_lab: str = "home_lab"
    library_pdfs: str = "library_pdfs"
    library_pdfs_to: str = "library_pdfs_to"
    library_pdfs_go: str = "library_pdfs_go"
    library_zotero: str = "library_zotero"
    library_zotero_to: str = "library_zotero_to"
    library_zotero_go: str = "library_zotero_go"
    import_failed: str = "import_failed"  # why the last import failed, until dismissed
    import_failed_dismiss: str = "import_failed_dismiss"
    # the Library page
    library_find: str = "library_find"
    library_paper: str = "library_paper"  # the selected paper's citekey
    library_page: str = "library_page"  # the page to open its PDF at
    library_table: str = "library_table"
    library_bibtex: str = "library_bibtex"
    # the Audit page
    audit: str = "audit"
    audit_text: str = "audit_text"
    audit_draft: str = "audit_draft"
    audit_example: str = "audit_example"
    audit_example_kept: str = "audit_example_kept"
    audit_upload: str = "audit_upload"
    audit_load: str = "audit_load"
    audit_route: str = "audit_route"
    audit_ref: str = "audit_ref"  # ("payload", hash) or ("example", key) of the routed payload
    audit_download: str = "audit_download"
    nav_report: str = "nav_report"
    nav_report_html: str = "nav_report_html"
    audit_report: str = "audit_report"
    audit_report_html: str = "audit_report_html"
    evidence: str = "evidence"  # the cited address whose evidence the side panel shows
    table_row: str = "table_row"  # the evidence table's open row: its paper's citekey
    nav_table_csv: str = "nav_table_csv"
    nav_table_md: str = "nav_table_md"
    # the Claim matrix page
    matrix_build: str = "matrix_build"
    matrix_rebuild: str = "matrix_rebuild"
    matrix_relations: str = "matrix_relations"
    matrix_search: str = "matrix_search"
    matrix_min_conf: str = "matrix_min_conf"
    matrix_order: str = "matrix_order"
    matrix_high_value: str = "matrix_high_value"
    matrix_contested: str = "matrix_contested"
    matrix_pending: str = "matrix_pending"
    matrix_view: str = "matrix_view"
    matrix_selected: str = "matrix_selected"
    matrix_pick: str = "matrix_pick"
    matrix_decided: str = "matrix_decided"  # the pair just decided: kept in view until "Next"
    matrix_next: str = "matrix_next"
    matrix_previous: str = "matrix_previous"
    matrix_walk: str = "matrix_walk"  # the queue's order the reviewer walks with Next/Previous
    queue_round: str = "queue_round"  # bumped to give the queue a fresh, unticked grid
    queue_page: str = "queue_page"
    queue_seen: str = "queue_seen"
    heat_row_page: str = "heat_row_page"
    heat_column_page: str = "heat_column_page"
    chart_seen: str = "chart_seen"
    triage_message: str = "triage_message"

    def recent_question(self, n: int) -> str:
        return f"recent_question_{n}"

    def import_dismiss(self, ident: str) -> str:
        return f"import_dismiss_{ident}"

    def library_open(self, n: int) -> str:
        return f"library_open_{n}"

    def home_example(self, n: int) -> str:
        return f"home_example_{n}"

    def queue_table(self, page: int) -> str:
        return f"queue_table_{page}"

    def matrix_chart(self, row_page: int, column_page: int) -> str:
        return f"matrix_chart_{row_page}_{column_page}"

    def triage_note(self, edge_id: str) -> str:
        return f"triage_note_{edge_id}"

    def triage(self, decision: str) -> str:
        return f"triage_{decision}"


@dataclass(frozen=True)
class Bounds:
    """What a number input accepts."""

    low: int
    high: int


@dataclass(frozen=True)
class Defaults:
    """The app's defaults: the reasoner, the model endpoint, the budget and its bounds."""

    reasoner: str = "offline"
    base_url: str = "http://127.0.0.1:11434/v1"
    budget: Budget = field(default_factory=Budget)
    hops: Bounds = Bounds(0, 20)
    max_nodes: Bounds = Bounds(1, 5000)
    max_steps: Bounds = Bounds(1, 500)
    open_wait: float = 0.5  # seconds a page waits for a loading workspace before it draws
    file_watch: float = 3.0  # seconds between checks that a shown answer's files are unchanged


KEYS = Keys()
DEFAULTS = Defaults()
# What belongs to one workspace's results; a workspace switch forgets all of it.
RESULT_KEYS = (
    KEYS.answer,
    KEYS.answer_id,
    KEYS.current,
    KEYS.audit,
    KEYS.audit_ref,
    KEYS.url_payload,
    KEYS.evidence,
    KEYS.table_row,
    KEYS.nav_step,
    KEYS.playing,
    KEYS.url_q,
    KEYS.ask_now,
)
QUESTION_KEYS = (KEYS.question, KEYS.question_draft, KEYS.recent)
RECENT_LIMIT = 8


def remembered(recent: tuple[str, ...], question: str) -> tuple[str, ...]:
    """`recent` with `question` first, asked once, at most `RECENT_LIMIT` long."""
    question = question.strip()
    if not question:
        return recent
    return (question, *(q for q in recent if q != question))[:RECENT_LIMIT]


@dataclass(frozen=True)
class Current:
    """The result the DAG and Traceability pages show, where it came from, and its id.

    A fresh id per result keys its rendered graphs, so no session sees another's.
    """

    result: Answer
    origin: str  # "answer" (Navigate) or "audit"
    id: str


def set_current(result: Answer, origin: str) -> None:
    """Make `result` the one the DAG and Traceability pages show."""
    st.session_state[KEYS.current] = Current(result, origin, uuid.uuid4().hex)


def keep_current(result: Answer) -> None:
    """Replace the current result by a refreshed copy of it, keeping its id and origin."""
    item = current_item()
    if item is not None:
        st.session_state[KEYS.current] = Current(result, item.origin, item.id)


def current_item() -> Current | None:
    return st.session_state.get(KEYS.current)


def current() -> Answer | None:
    """The last answer or audited payload, whichever came last."""
    item = current_item()
    return item.result if item else None


def current_id() -> str:
    """The id of the current result, or an empty string when there is none."""
    item = current_item()
    return item.id if item else ""


def asked() -> Answer | None:
    """The last answer asked on Navigate."""
    return st.session_state.get(KEYS.answer)


def question_text() -> str:
    """The question to show in the box: the last typed or asked one."""
    state = st.session_state
    last = asked()
    return state.get(KEYS.question_draft) or (last.run.question if last else "")


def follow_workspace(root: str | None, *, linked: bool = False) -> None:
    """Forget the results, question and shared link of a workspace that is no longer open.

    A workspace a link opened (`linked`) keeps the link's question and payload: they are
    asked and routed in it next.
    """
    state = st.session_state
    if state.get(KEYS.results_root, root) != root:
        for key in RESULT_KEYS + QUESTION_KEYS:
            state.pop(key, None)
        if not linked:
            for name in ("q", "payload", "example", "shows", "cite"):
                st.query_params.pop(name, None)
    state[KEYS.results_root] = root


def remember_question(question: str) -> None:
    """Put `question` first in this session's recent questions."""
    state = st.session_state
    state[KEYS.recent] = remembered(tuple(state.get(KEYS.recent, ())), question)


def recent_questions() -> tuple[str, ...]:
    """The questions asked this session in this workspace, latest first."""
    return tuple(st.session_state.get(KEYS.recent, ()))


def ask_later(question: str) -> None:
    """Have the Navigate page ask `question` on its next run (a landing example)."""
    state = st.session_state
    state[KEYS.ask_now] = state[KEYS.question_draft] = state[KEYS.question] = question


def choose_workspace(path: str) -> None:
    """Open the folder `path` from the next run on (the folder field shows it)."""
    state = st.session_state
    state[KEYS.workspace_path] = state[KEYS.workspace_kept] = path


def chose_workspace() -> None:
    """The user typed a folder into the workspace field: an explicit act, remembered once it
    opens, that also answers a link refused before (the field now names the folder to open)."""
    state = st.session_state
    state[KEYS.workspace_chosen] = True
    refused = state.pop(KEYS.link_refused, None)
    typed = str(state.get(KEYS.workspace_path, "")).strip()
    if refused and typed and _same_folder(typed, refused):
        state[KEYS.link_typed] = True  # the link's question and view then follow


def _same_folder(a: str, b: str) -> bool:
    try:
        return Path(a).expanduser().resolve() == Path(b).expanduser().resolve()
    except (OSError, RuntimeError):
        return False


def persist(widget_key: str, store_key: str) -> None:
    """Restore a widget's text from `store_key`, which outlives pages where it is not drawn."""
    state = st.session_state
    if widget_key not in state and store_key in state:
        state[widget_key] = state[store_key]

"""Navigate: ask a question, replay the navigation step by step, read the verdict."""

import streamlit as st

from engine import MAX_QUESTION_CHARS, Answer, quoted_in_context
from present.answer import answer_area
from present.graphs import step_caption, step_count
from present.highlight import in_context_html
from present.markup import cite_clicks_html, enter_asks_html, md_escape, store_legend_html
from present.views import decision_json, payload_json
from webapp import evidence_panel as panels
from webapp import services, shared
from webapp import state as app_state
from webapp.state import KEYS

st.title("Navigate")
worker = shared.open_worker("Open a workspace in the sidebar to ask questions.")

state = st.session_state
QUESTION_HEIGHT = 96  # about three lines; a longer question scrolls inside the box


def submit() -> None:
    """Remember what was typed, so the box keeps it across pages."""
    state[KEYS.question_draft] = state.get(KEYS.question, "")


if KEYS.question not in state:
    state[KEYS.question] = app_state.question_text()
# A form, so Ctrl+Enter (⌘+Enter) in the box submits like the button; the box grows to
# show a long question whole.
with st.form("ask_form", border=False):
    st.text_area(
        "Question",
        key=KEYS.question,
        placeholder="What does the knowledge base say about…  (Enter asks, Shift+Enter: new line)",
        max_chars=MAX_QUESTION_CHARS,
        height=QUESTION_HEIGHT,
    )
    asked = st.form_submit_button("Ask", key=KEYS.ask, type="primary", on_click=submit)
pending = state.pop(KEYS.ask_now, None)
if asked:
    typed = state.get(KEYS.question, "").strip()
    if typed:
        shared.ask(typed)
    else:
        st.warning("Type a question first, then press Enter or Ask.")
elif pending:
    shared.ask(pending)

result = app_state.asked()
shared.recent_panel(result.run.question if result else "")


def enter_asks() -> None:
    """Enter in the box asks (Shift+Enter: a new line): a one-pixel frame hooks the key.

    Drawn last on the page, so the graph stays the page's first frame.
    """
    shared.frame(enter_asks_html(KEYS.question, KEYS.ask) + cite_clicks_html("ask"), 1)


if result is None:
    st.caption("Ask a question to watch the navigator walk the knowledge base.")
    enter_asks()
    st.stop()
if (fresh := services.reviewed(result)) is not result:  # a triage decision touched it
    state[KEYS.answer] = result = fresh
    if fresh.rerouted:
        app_state.set_current(fresh, "answer")
        state[KEYS.answer_id] = app_state.current_id()

shared.show_banner(result)
run = result.run
steps = step_count(run)
# The answer first, under its verdict; the evidence table and the walk's graph follow it.
main, side = st.columns(2, gap="large")
with main:
    area = answer_area(run)
    st.subheader(area.heading)
    if area.html:
        st.html(area.html)
    else:
        st.caption("The reasoner produced no prose.")
    quoted = in_context_html(quoted_in_context(worker.opened, run))
    if quoted:
        st.html(quoted)
with side:
    panels.sources_panel(result, "ask")
table = panels.table_panel(result, "ask")


@st.fragment(run_every=0.9 if state.get(KEYS.playing) else None)
def replay(result: Answer) -> None:
    """The step slider, the play control and the neighbourhood as of the chosen step.

    The answer comes as an argument: a fragment's own reruns call it again with it.
    """
    if state.get(KEYS.playing):
        nxt = state.get(KEYS.nav_step, 0) + 1
        if nxt >= steps:
            state[KEYS.playing] = False
            st.rerun(scope="app")
        state[KEYS.nav_step] = nxt
    if KEYS.nav_step not in state:
        state[KEYS.nav_step] = steps - 1
    if steps > 1:
        left, right = st.columns([1, 4], vertical_alignment="bottom")
        playing = state.get(KEYS.playing)
        if left.button("⏸ Pause" if playing else "▶ Play", key=KEYS.nav_play):
            if not playing and state.get(KEYS.nav_step, 0) >= steps - 1:
                state[KEYS.nav_step] = 0
            state[KEYS.playing] = not playing
            st.rerun(scope="app")
        right.slider("Step", 0, steps - 1, key=KEYS.nav_step)
    step = min(state.get(KEYS.nav_step, steps - 1), max(0, steps - 1))
    st.caption(md_escape(step_caption(run, step)))
    root = str(worker.opened.root)
    page = services.neighbourhood_page(result, state.get(KEYS.answer_id, ""), step, root)
    shared.frame(page, 620)
    st.html(store_legend_html())


st.subheader("The walk, step by step")
replay(result)

panels.report_downloads(result, KEYS.nav_report, KEYS.nav_report_html, table)
left, right = st.columns(2)
left.download_button(
    "Download decision JSON",
    decision_json(result),
    file_name="decision.json",
    mime="application/json",
    key=KEYS.nav_download,
    on_click="ignore",
)
payload = payload_json(run)
if payload:
    right.download_button(
        "Download payload (for Audit)",
        payload,
        file_name="payload.json",
        mime="application/json",
        key=KEYS.nav_payload,
        on_click="ignore",
    )
enter_asks()

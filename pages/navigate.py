"""Navigate: ask a question, replay the navigation step by step, read the verdict."""

import streamlit as st

from pages import shared
from pages import state as page_state
from present.answer import answer_area
from present.graphs import step_caption, step_count
from present.highlight import cites_html
from present.markup import md_escape, store_legend_html
from present.views import decision_json, payload_json

st.title("Navigate")
worker = shared.current_worker()
if worker is None:
    st.warning("Open a workspace in the sidebar to ask questions.")
    st.stop()

state = st.session_state


def submit() -> None:
    """Remember what was typed, so the box keeps it across pages."""
    state["question_draft"] = state.get("question", "")


if "question" not in state:
    state["question"] = page_state.question_text()
# A form, so Enter in the box submits like the button.
with st.form("ask_form", border=False, enter_to_submit=True):
    st.text_input("Question", key="question", placeholder="What does the knowledge base say about…")
    asked = st.form_submit_button("Ask", key="ask", type="primary", on_click=submit)
pending = state.pop("ask_now", None)
if asked:
    typed = state.get("question", "").strip()
    if typed:
        page_state.ask(typed)
    else:
        st.warning("Type a question first, then press Enter or Ask.")
elif pending:
    page_state.ask(pending)

result = state.get("answer")
if not result:
    st.caption("Ask a question to watch the navigator walk the knowledge base.")
    st.stop()
if (fresh := shared.reviewed(result)) is not result:  # a triage decision touched it
    state["answer"] = result = fresh
    if fresh.get("rerouted"):
        shared.set_current(fresh, "answer")
        state["answer_id"] = shared.current_id()

shared.show_banner(result)
steps = step_count(result)


@st.fragment(run_every=0.9 if state.get("playing") else None)
def replay() -> None:
    """The step slider, the play control and the neighbourhood as of the chosen step."""
    if state.get("playing"):
        nxt = state.get("nav_step", 0) + 1
        if nxt >= steps:
            state["playing"] = False
            st.rerun(scope="app")
        state["nav_step"] = nxt
    if "nav_step" not in state:
        state["nav_step"] = steps - 1
    if steps > 1:
        left, right = st.columns([1, 8], vertical_alignment="bottom")
        if left.button("⏸ Pause" if state.get("playing") else "▶ Play", key="nav_play"):
            if not state.get("playing") and state.get("nav_step", 0) >= steps - 1:
                state["nav_step"] = 0
            state["playing"] = not state.get("playing")
            st.rerun(scope="app")
        right.slider("Step", 0, steps - 1, key="nav_step")
    step = min(state.get("nav_step", steps - 1), max(0, steps - 1))
    st.caption(md_escape(step_caption(result, step)))
    root = str(worker.opened.root)
    page = shared.neighbourhood_page(result, state.get("answer_id", ""), step, root)
    st.iframe(page, height=620)
    st.html(store_legend_html())


replay()

area = answer_area(result)
st.subheader(area.heading)
if area.html:
    st.html(area.html)
else:
    st.caption("The reasoner produced no prose.")
cites = cites_html(result)
if cites:
    st.html(cites)
left, right = st.columns(2)
left.download_button(
    "Download decision JSON",
    decision_json(result),
    file_name="decision.json",
    mime="application/json",
    key="nav_download",
)
payload = payload_json(result)
if payload:
    right.download_button(
        "Download payload (for Audit)",
        payload,
        file_name="payload.json",
        mime="application/json",
        key="nav_payload",
    )

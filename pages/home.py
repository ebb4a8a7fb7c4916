"""Start: what the app does, example questions that ask on click, and which workspace is open."""

from pathlib import Path

import streamlit as st

from engine import landing_examples, read_examples
from present.library import holdings_text
from present.markup import md_escape
from webapp import papers, services
from webapp import state as app_state
from webapp.imports import library_panel
from webapp.state import KEYS

st.title("Synapse Review")
st.markdown(
    "Ask a question of your knowledge base and watch a reasoner walk it: from the notes the "
    "search finds, through the links it follows, to an answer with a cited reasoning DAG. "
    "A deterministic router, never the model, then decides **ANSWER**, **HEDGED ANSWER** or "
    "**ABSTAIN** and says why, claim by claim and sentence by sentence. The **Claim matrix** "
    "lines your team's practice notes up against the literature and queues the contradictions."
)

worker = services.current_worker()
lab = services.app_dir / "examples" / "momentum-lab"


def open_lab() -> None:
    """Point the sidebar at the bundled momentum-lab workspace."""
    app_state.choose_workspace(str(lab))


if worker is None:
    st.warning("No workspace is open: fix the folder in the sidebar or open the bundled example.")
    st.button("Open examples/momentum-lab", key=KEYS.home_lab, on_click=open_lab)
    library_panel()
    st.stop()

root = Path(st.session_state[KEYS.results_root])
st.subheader("Workspace")
notes = holdings_text(papers.shelf(worker.opened)[1]) if worker.ready() else "papers loading…"
st.markdown(
    f"Open: `{md_escape(root.name)}` with {notes} ({md_escape(root)}). Type another folder "
    "in the sidebar to switch; a workspace is a folder with `.zettelkasten/` (canon notes), "
    "`.memory/` (practice entries) or `sources/` (your papers' full texts)."
)
if root != lab.resolve():
    st.button(
        "Switch to the bundled examples/momentum-lab",
        key=KEYS.home_lab,
        on_click=open_lab,
        help="A small hand-made workspace with one question per decision path.",
    )

st.subheader("Try a question")
examples = landing_examples(read_examples(root))
if not examples:
    st.caption("This workspace lists no example questions (questions.jsonl); ask your own.")
if not any(e.label == "HEDGED ANSWER" for e in examples) and examples:
    st.caption(
        "This corpus has no claim derived from other notes, so no example reaches a hedged "
        "answer: examples/momentum-lab has one."
    )
for i, example in enumerate(examples):
    tags = [example.label] + ([f"source {example.stance}"] if example.stance else [])
    left, right = st.columns([5, 2], vertical_alignment="center")
    chosen = left.button(
        md_escape(example.question), key=KEYS.home_example(i), use_container_width=True
    )
    if chosen:
        # The example asks in the workspace that lists it, whatever the field says by then.
        st.session_state[KEYS.workspace_next] = str(root)
        app_state.ask_later(example.question)
        st.switch_page("pages/navigate.py", query_params={"ws": str(root), "q": example.question})
    summary = f" — {example.summary}" if example.summary else ""
    right.caption(md_escape(" · ".join(tags) + summary))
st.page_link("pages/navigate.py", label="Or ask your own question on Navigate", icon="➡️")
st.page_link("pages/library.py", label="Browse the papers in the Library", icon="📚")
library_panel(root)

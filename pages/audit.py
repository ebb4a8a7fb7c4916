"""Audit: route a reasoning DAG payload from any system and read its verdict."""

import streamlit as st

from engine import PayloadError, audit_answer
from present.dag_graph import dag_html
from present.gallery import example, examples
from present.highlight import highlight_html, traceability
from present.markup import legend_html, md_escape, trace_legend_html
from present.tables import claim_rows, claims_table_html
from webapp import evidence_panel as panels
from webapp import services, shared
from webapp import state as app_state
from webapp.state import KEYS

st.title("Audit")
st.caption(
    "Paste or upload a reasoning DAG in the wire format (JSON) and route it. "
    "The DAG and Traceability pages then show this payload."
)
state = st.session_state
gallery = {item.key: item for item in examples()}


def load_example() -> None:
    """Copy the chosen example into the payload box."""
    state[KEYS.audit_text] = state[KEYS.audit_draft] = example(state[KEYS.audit_example]).text


def load_upload() -> None:
    """Copy an uploaded file into the payload box."""
    upload = state.get(KEYS.audit_upload)
    if upload is not None:
        text = upload.getvalue().decode("utf-8", errors="replace")
        state[KEYS.audit_text] = state[KEYS.audit_draft] = text


app_state.persist(KEYS.audit_example, KEYS.audit_example_kept)
left, right = st.columns([3, 1], vertical_alignment="bottom")
left.selectbox(
    "Example payloads, one per decision path",
    list(gallery),
    format_func=lambda key: f"{gallery[key].title}  →  {gallery[key].expect}",
    key=KEYS.audit_example,
)
right.button("Load example", key=KEYS.audit_load, on_click=load_example)
st.caption(md_escape(gallery[state[KEYS.audit_example]].summary))
st.file_uploader(
    "Or upload a payload file", type=["json"], key=KEYS.audit_upload, on_change=load_upload
)
# The box's text outlives a visit to another page, where Streamlit drops the widget's state.
app_state.persist(KEYS.audit_text, KEYS.audit_draft)
st.text_area("Payload JSON", key=KEYS.audit_text, height=280)
state[KEYS.audit_draft] = state[KEYS.audit_text]
state[KEYS.audit_example_kept] = state[KEYS.audit_example]

if st.button("Route", key=KEYS.audit_route, type="primary"):
    worker = services.current_worker()
    opened = worker.opened if worker is not None else None
    text = state.get(KEYS.audit_text, "")
    try:
        routed = audit_answer(text, opened)
    except PayloadError as exc:
        state.pop(KEYS.audit, None)
        state.pop(KEYS.audit_ref, None)
        st.error(f"Invalid payload: {md_escape(exc)}")
    else:
        state[KEYS.audit] = routed
        app_state.set_current(routed, "audit")
        if opened is not None:
            state[KEYS.audit_ref] = shared.link_audit(str(opened.root), text)
            shared.write_url(str(opened.root), "audit-dag")

result = state.get(KEYS.audit)
if result is not None:
    run = result.run
    shared.show_banner(result)
    if state.get(KEYS.audit_ref) is None:
        st.caption("This payload is not in the page's link: the workspace cannot save it.")
    dag_tab, trace_tab = st.tabs(["Reasoning DAG", "Traceability"])
    with dag_tab:
        st.html(legend_html())
        shared.frame(dag_html(run, height=380, library=services.graph_library()), 400)
        st.html(claims_table_html(claim_rows(run)))
        st.page_link("pages/reasoning_dag.py", label="Open on the Reasoning DAG page")
    with trace_tab:
        if run.prose:
            st.html(trace_legend_html())
            st.html(highlight_html(run.prose, traceability(run)))
        else:
            st.caption("No prose to trace.")
        st.page_link("pages/traceability.py", label="Open on the Traceability page")
    panels.sources_panel(result, "audit-dag")
    panels.report_downloads(result, KEYS.audit_report, KEYS.audit_report_html)

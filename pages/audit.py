"""Audit: route a reasoning DAG payload from any system and read its verdict."""

import streamlit as st

from engine.core.errors import PayloadError
from pages import shared
from pages import state as page_state
from present.gallery import example, examples
from present.graphs import dag_html
from present.highlight import highlight_html
from present.markup import legend_html, md_escape, trace_legend_html
from present.tables import claim_rows, claims_table_html
from present.views import audit_result

st.title("Audit")
st.caption(
    "Paste or upload a reasoning DAG in the wire format (JSON) and route it. "
    "The DAG and Traceability pages then show this payload."
)
state = st.session_state
gallery = {item.key: item for item in examples()}


def load_example() -> None:
    """Copy the chosen example into the payload box."""
    state["audit_text"] = state["audit_draft"] = example(state["audit_example"]).text


def load_upload() -> None:
    """Copy an uploaded file into the payload box."""
    upload = state.get("audit_upload")
    if upload is not None:
        text = upload.getvalue().decode("utf-8", errors="replace")
        state["audit_text"] = state["audit_draft"] = text


page_state.persist("audit_example", "audit_example_kept")
left, right = st.columns([5, 1], vertical_alignment="bottom")
left.selectbox(
    "Example payloads, one per decision path",
    list(gallery),
    format_func=lambda key: f"{gallery[key].title}  →  {gallery[key].expect}",
    key="audit_example",
)
right.button("Load example", key="audit_load", on_click=load_example)
st.caption(md_escape(gallery[state["audit_example"]].summary))
st.file_uploader(
    "Or upload a payload file", type=["json"], key="audit_upload", on_change=load_upload
)
# The box's text outlives a visit to another page, where Streamlit drops the widget's state.
page_state.persist("audit_text", "audit_draft")
st.text_area("Payload JSON", key="audit_text", height=280)
state["audit_draft"] = state["audit_text"]
state["audit_example_kept"] = state["audit_example"]

if st.button("Route", key="audit_route", type="primary"):
    worker = shared.current_worker()
    root = worker.opened.root if worker is not None else None
    try:
        result = audit_result(state.get("audit_text", ""), workspace=root)
    except PayloadError as exc:
        state.pop("audit", None)
        st.error(f"Invalid payload: {md_escape(exc)}")
    else:
        state["audit"] = result
        shared.set_current(result, "audit")

result = state.get("audit")
if result:
    shared.show_banner(result)
    dag_tab, trace_tab = st.tabs(["Reasoning DAG", "Traceability"])
    with dag_tab:
        st.html(legend_html())
        st.iframe(dag_html(result, height=380), height=400)
        st.html(claims_table_html(claim_rows(result)))
        st.page_link("pages/reasoning_dag.py", label="Open on the Reasoning DAG page")
    with trace_tab:
        if result.get("prose"):
            st.html(trace_legend_html())
            st.html(highlight_html(result["prose"], result["decision"]["traceability"]))
        else:
            st.caption("No prose to trace.")
        st.page_link("pages/traceability.py", label="Open on the Traceability page")

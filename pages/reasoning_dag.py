"""Reasoning DAG: claims coloured by derived status, their grounds, and why it abstained."""

import streamlit as st

from engine import citations, reference_problems
from present.answer import MATRIX_PAGE, contested_pairs
from present.markup import legend_html, md_escape
from present.tables import claim_rows, claims_table_html, ground_rows, table_html
from present.views import explanations
from webapp import evidence_panel as panels
from webapp import services, shared
from webapp import state as app_state

st.title("Reasoning DAG")
result = shared.show_current()
run = result.run
if run.decision is None:
    st.info("This run produced no reasoning DAG; the banner says why.")
    st.stop()

st.html(legend_html())
claims = claim_rows(run)
height = 140 * min(max(len(claims), 2), 6) + 60
shared.frame(services.dag_page(result, app_state.current_id(), height - 20), height)

st.subheader("Claims")
st.html(claims_table_html(claims))

st.subheader("Cited grounds")
grounds = ground_rows(run)
worker = services.current_worker()
if worker is not None and grounds:
    pages = {row["cite"]: row["page"] for row in grounds}
    grounds = ground_rows(run, citations=worker.call(citations, worker.opened.workspace, pages))
if grounds:
    st.html(table_html(grounds))
else:
    st.caption("No claim cites a node.")
if worker is not None and grounds:
    for problem in worker.call(reference_problems, worker.opened.root):
        st.caption(f"Not used for citations: {md_escape(problem)}")
panels.sources_panel(result, "dag")

reasons = explanations(run, confirmed=services.confirmed_pairs())
if reasons:
    st.subheader("Why it abstained" if run.label == "ABSTAIN" else "Why it answered")
    for item in reasons:
        with st.container(border=True):
            st.markdown(f"**{md_escape(item.reason)}** — {md_escape(item.explanation)}")
            for line in item.specifics:
                st.markdown(f"- {md_escape(line)}")
    if contested_pairs(run):
        st.page_link(MATRIX_PAGE, label="Review the contradiction on the Claim matrix")

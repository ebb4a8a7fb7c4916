"""Reasoning DAG: claims coloured by derived status, their grounds, and why it abstained."""

import streamlit as st

from engine.workspace.references import citations
from pages import shared
from present.answer import MATRIX_PAGE, contested_pairs
from present.markup import legend_html, md_escape
from present.tables import claim_rows, claims_table_html, ground_rows, table_html
from present.views import explanations

st.title("Reasoning DAG")
result = shared.show_current()
if not result.get("dag"):
    st.info("This run produced no reasoning DAG; the banner says why.")
    st.stop()

st.html(legend_html())
claims = claim_rows(result)
height = 140 * min(max(len(claims), 2), 6) + 60
st.iframe(shared.dag_page(result, shared.current_id(), height - 20), height=height)

st.subheader("Claims")
st.html(claims_table_html(claims))

st.subheader("Cited grounds")
grounds = ground_rows(result)
worker = shared.current_worker()
if worker is not None and grounds:
    pages = {row["cite"]: row["page"] for row in grounds}
    grounds = ground_rows(result, citations=worker.call(citations, worker.opened.workspace, pages))
if grounds:
    st.html(table_html(grounds))
else:
    st.caption("No claim cites a node.")

reasons = explanations(result, confirmed=shared.confirmed_pairs())
if reasons:
    st.subheader("Why it abstained" if result.get("label") == "ABSTAIN" else "Why it answered")
    for item in reasons:
        with st.container(border=True):
            st.markdown(f"**{md_escape(item.reason)}** — {md_escape(item.explanation)}")
            for line in item.specifics:
                st.markdown(f"- {md_escape(line)}")
    if contested_pairs(result):
        st.page_link(MATRIX_PAGE, label="Review the contradiction on the Claim matrix")

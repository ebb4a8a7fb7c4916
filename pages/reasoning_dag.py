"""Reasoning DAG: claims coloured by derived status, their grounds, and why it abstained."""

import streamlit as st

from pages import shared
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
if grounds:
    st.html(table_html(grounds))
else:
    st.caption("No claim cites a node.")

reasons = explanations(result)
if reasons:
    st.subheader("Why it abstained")
    for item in reasons:
        with st.container(border=True):
            st.markdown(f"**{md_escape(item.reason)}** — {md_escape(item.explanation)}")
            for line in item.specifics:
                st.markdown(f"- {md_escape(line)}")

"""Traceability: every prose sentence traced to the claim that licenses it, orphans highlighted."""

import streamlit as st

from pages import shared
from present.highlight import highlight_html, sentence_rows, trace_counts
from present.markup import trace_legend_html
from present.tables import table_html

st.title("Traceability")
result = shared.show_current()
prose = result.get("prose") or ""
trace = (result.get("decision") or {}).get("traceability")
if not prose.strip() or not trace:
    st.info("This result has no prose to trace.")
    st.stop()

counts = trace_counts(result)
columns = st.columns(4)
labels = ("Licensed sentences", "Orphan sentences", "Uncited words", "Stray numbers")
for column, label, value in zip(columns, labels, counts.values(), strict=True):
    column.metric(label, value)

st.html(trace_legend_html())
st.caption("Hover a highlight to read why it is marked.")
st.html(highlight_html(prose, trace))

st.subheader("Sentence by sentence")
columns = ("#", "licensed", "claim", "reason", "sentence", "claim text")
st.html(table_html(sentence_rows(result), columns))

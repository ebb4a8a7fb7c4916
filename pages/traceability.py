"""Traceability: every prose sentence traced to the claim that licenses it, orphans highlighted."""

import streamlit as st

from present.highlight import highlight_html, sentence_rows, trace_counts, traceability
from present.markup import trace_legend_html
from present.tables import table_html
from webapp import shared

st.title("Traceability")
run = shared.show_current().run
prose = run.prose
trace = traceability(run)
if not prose.strip() or trace is None:
    st.info("This result has no prose to trace.")
    st.stop()

counts = trace_counts(run)
columns = st.columns(4)
labels = ("Licensed sentences", "Orphan sentences", "Uncited words", "Stray numbers")
for column, label, value in zip(columns, labels, counts.values(), strict=True):
    column.metric(label, value)

st.html(trace_legend_html())
st.caption("Hover a highlight to read why it is marked.")
st.html(highlight_html(prose, trace))

st.subheader("Sentence by sentence")
headers = ("#", "licensed", "claim", "reason", "sentence", "claim text")
st.html(table_html(sentence_rows(run), headers))

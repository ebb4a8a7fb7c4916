"""Claim matrix: practice against canon, contradictions triaged."""

import streamlit as st

st.title("Claim matrix")
st.info("The claim overlay is not available in this build yet.")

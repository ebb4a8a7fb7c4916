"""Synapse Review: the Streamlit entry point."""

import streamlit as st

st.set_page_config(page_title="Synapse Review", layout="wide")
st.title("Synapse Review")
st.write("Grounded navigation over your knowledge base.")

"""Synapse Review engine: grounded navigation, routing and review, with no Streamlit import."""

"""Offline scripts that build and measure shipped artefacts: `python -m tools.<name>`."""

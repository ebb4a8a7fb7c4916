"""SciFact as a workspace: the importer, its text and section readers, and where the data is."""

from pathlib import Path

# The SciFact corpus and train claims shipped in the repository (ODC-By 1.0, CC BY 4.0).
DATA = Path(__file__).resolve().parents[2] / "data" / "scifact"

"""Importers: a user's PDFs and reference-manager library turned into workspace files."""

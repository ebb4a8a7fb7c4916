"""Builders of test fixtures: PDFs and a Zotero library made on the spot, never shipped."""

"""Bring your library: add a folder of PDFs or import a Zotero library, with progress."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path

import streamlit as st

from engine import EngineError, add_pdf_folder, import_zotero
from present.markup import md_escape
from ui.state import KEYS


def library_panel() -> None:
    """Two imports side by side; the workspace they fill opens in the sidebar when done."""
    st.subheader("Bring your library")
    st.caption(
        "Every sentence of your papers becomes quotable evidence, checked word for word "
        "against the paper and cited to its printed page."
    )
    pdfs, zotero = st.tabs(["Add PDFs", "Import a Zotero library"])
    with pdfs:
        folder = st.text_input("Folder of PDFs", key=KEYS.library_pdfs, placeholder="~/Papers")
        target = st.text_input(
            "Workspace to add them to (created if absent)",
            key=KEYS.library_pdfs_to,
            placeholder="the same folder",
        )
        if st.button("Add PDFs", key=KEYS.library_pdfs_go, disabled=not folder.strip()):
            where = _path(target or folder)
            _run(lambda tick: add_pdf_folder(_path(folder), where, progress=tick), where, "PDFs")
    with zotero:
        data = st.text_input(
            "Zotero data folder (the one holding zotero.sqlite)",
            key=KEYS.library_zotero,
            placeholder="~/Zotero",
        )
        target = st.text_input("Workspace to import into", key=KEYS.library_zotero_to)
        ready = bool(data.strip() and target.strip())
        if st.button("Import the library", key=KEYS.library_zotero_go, disabled=not ready):
            where = _path(target)
            _run(lambda tick: import_zotero(_path(data), where, progress=tick), where, "items")


def _path(text: str) -> Path:
    return Path(text.strip()).expanduser()


def _run(job: Callable, where: Path, unit: str) -> None:
    """Run an import off the page's thread with a progress bar; open its workspace after."""
    seen = {"done": 0, "total": 0}
    outcome: dict = {}

    def work() -> None:
        try:
            outcome["report"] = job(lambda done, total: seen.update(done=done, total=total))
        except (EngineError, OSError) as exc:
            outcome["error"] = exc

    thread = threading.Thread(target=work, name="synapse-import", daemon=True)
    thread.start()
    bar = st.progress(0.0, text=f"Reading {unit}…")
    while thread.is_alive():
        share = seen["done"] / seen["total"] if seen["total"] else 0.0
        bar.progress(share, text=f"Reading {unit}: {seen['done']:,} of {seen['total']:,}")
        time.sleep(0.2)
    if "error" in outcome:
        st.error(f"Cannot import: {md_escape(outcome['error'])}")
        return
    report = outcome["report"]
    problems = len(getattr(report, "failures", ())) or len(getattr(report, "problems", ()))
    bar.progress(1.0, text=f"Done: {seen['done']:,} {unit}, {problems} problem(s)")
    st.session_state[KEYS.workspace_next] = str(where.resolve())
    st.rerun()

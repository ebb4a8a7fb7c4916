"""Bring your library: add a folder of PDFs or import a Zotero library, with progress.

Each import leaves its record in the workspace; its problems stay on the page, with their
fixes, until dismissed. A failed import says why and leaves no folder behind.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path

import streamlit as st

from engine import (
    EngineError,
    ImportRecord,
    dismiss_import,
    import_pdf_folder,
    import_zotero_library,
    open_imports,
)
from present.library import problem_text, record_heading
from present.markup import md_escape
from webapp.state import KEYS


def library_panel(root: Path | None = None) -> None:
    """Two imports side by side; the workspace they fill opens in the sidebar when done.

    The problems of `root`'s imports (the open workspace's) stay above them until dismissed.
    """
    st.subheader("Bring your library")
    st.caption(
        "Every sentence of your papers becomes quotable evidence, checked word for word "
        "against the paper and cited to its printed page."
    )
    failed = st.session_state.get(KEYS.import_failed)
    if failed:
        st.error(f"Cannot import: {md_escape(failed)} Nothing was created.")
        st.button("Dismiss", key=KEYS.import_failed_dismiss, on_click=_forget_failure)
    if root is not None:
        import_problems(root)
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
            _run(lambda tick: import_pdf_folder(_path(folder), where, progress=tick), where, "PDFs")
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
            _run(
                lambda tick: import_zotero_library(_path(data), where, progress=tick),
                where,
                "items",
            )


def import_problems(root: str | Path) -> None:
    """The open workspace's imports that had problems, each with its fixes and a Dismiss."""
    for record in open_imports(root):
        with st.container(border=True, key=f"import-{record.id}"):
            st.warning(md_escape(record_heading(record)))
            st.markdown("\n".join(f"- {md_escape(problem_text(p))}" for p in record.open_problems))
            st.button(
                "Dismiss these problems",
                key=KEYS.import_dismiss(record.id),
                on_click=_dismiss,
                args=(str(root), record.id),
            )


def _dismiss(root: str, ident: str) -> None:
    try:
        dismiss_import(root, ident)
    except (EngineError, OSError) as exc:
        st.session_state[KEYS.import_failed] = f"cannot record the dismissal: {exc}"


def _forget_failure() -> None:
    st.session_state.pop(KEYS.import_failed, None)


def _path(text: str) -> Path:
    return Path(text.strip()).expanduser()


def _run(job: Callable[..., ImportRecord], where: Path, unit: str) -> None:
    """Run an import off the page's thread with a progress bar; open its workspace after."""
    seen = {"done": 0, "total": 0}
    outcome: dict[str, ImportRecord | Exception] = {}

    def work() -> None:
        try:
            outcome["record"] = job(lambda done, total: seen.update(done=done, total=total))
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
        # Kept in the session: the page reruns, and the reason must not vanish with it.
        st.session_state[KEYS.import_failed] = str(outcome["error"])
        st.rerun()
    st.session_state.pop(KEYS.import_failed, None)
    st.session_state[KEYS.workspace_next] = str(where.resolve())
    st.rerun()

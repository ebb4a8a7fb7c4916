"""The library as the pages use it: the workspace's papers, cached, and a paper's PDF served.

The papers are read once per opened workspace and import record; a reload or a new import
reads them again. A PDF is read from the workspace (`engine.paper_pdf`, never through a
link, never outside it) and handed to Streamlit's media store, which serves it to this
session at a same-origin address while the page shows its link.
"""

from __future__ import annotations

import threading
from pathlib import Path

from streamlit import runtime

from engine import (
    IMPORT_REPORTS,
    Holdings,
    OpenWorkspace,
    Paper,
    holdings,
    paper_pdf,
    read_library,
)

_LOCK = threading.Lock()
# Opened workspace (kept, so its id stays its own) and records stamp -> its papers.
_SHELF: dict[int, tuple[OpenWorkspace, object, tuple[Paper, ...], Holdings]] = {}
KEPT = 4


def shelf(opened: OpenWorkspace) -> tuple[tuple[Paper, ...], Holdings]:
    """The workspace's papers and holdings, read again only after a reload or an import."""
    stamp = _stamp(opened.root / IMPORT_REPORTS)
    with _LOCK:
        found = _SHELF.get(id(opened))
        if found is not None and found[0] is opened and found[1] == stamp:
            return found[2], found[3]
    papers = read_library(opened.workspace)
    held = holdings(opened.workspace, papers)
    with _LOCK:
        while len(_SHELF) >= KEPT:
            _SHELF.pop(next(iter(_SHELF)))
        _SHELF[id(opened)] = (opened, stamp, papers, held)
    return papers, held


def forget() -> None:
    """Drop every workspace's papers read so far (the next `shelf` reads them again)."""
    with _LOCK:
        _SHELF.clear()


def pdf_address(opened: OpenWorkspace, paper: Paper, page: int) -> str | None:
    """A same-origin address opening the paper's PDF at page position `page`; None when the
    workspace holds no PDF of it."""
    data = paper_pdf(opened.root, paper)
    if data is None or not runtime.exists():
        return None
    url = runtime.get_instance().media_file_mgr.add(
        data, "application/pdf", f"library-pdf-{paper.citekey}"
    )
    return f"{url}#page={max(1, page)}"


def _stamp(path: Path) -> object:
    try:
        info = path.stat()
    except OSError:
        return None
    return (info.st_size, info.st_mtime_ns)

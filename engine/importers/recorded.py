"""The app's imports: each one leaves its record in the workspace, and a failed one nothing.

`import_pdf_folder` and `import_zotero_library` run the importers the CLI runs, then save
an `ImportRecord` (`engine/workspace/import_reports.py`) holding every problem by kind, so
the page shows them until a reader dismisses them. An import that raises before it is done
removes the workspace folder when the import itself created it: a library that cannot be
read leaves no empty folder behind. A folder that already existed is never removed.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

from engine.core.errors import ConfigError, WorkspaceError
from engine.importers.sources import AddReport, Outcome, add_pdfs, collect_pdfs, item_problems
from engine.importers.zotero import ZoteroReport, import_zotero
from engine.workspace.import_reports import (
    ImportKind,
    ImportProblem,
    ImportRecord,
    ProblemKind,
    new_record,
    save_import,
)

Progress = Callable[[int, int], None]


def import_pdf_folder(
    folder: str | os.PathLike[str],
    workspace: str | os.PathLike[str],
    *,
    progress: Progress | None = None,
) -> ImportRecord:
    """Add every PDF under `folder` to `workspace` (created when absent) and record it.

    Raises ConfigError for a folder that does not exist or holds no PDF (nothing is
    created then), WorkspaceError when the workspace cannot be written.
    """
    pdfs = collect_pdfs([str(folder)])
    if not pdfs:
        raise ConfigError(f"no PDF in {folder}")
    root = Path(workspace)
    with _undone_on_failure(root):
        report = add_pdfs(root, pdfs, progress=progress)
    record = pdfs_record(report, str(folder))
    save_import(root, record)
    return record


def import_zotero_library(
    data_dir: str | os.PathLike[str],
    workspace: str | os.PathLike[str],
    *,
    progress: Progress | None = None,
) -> ImportRecord:
    """Import the Zotero library in `data_dir` into `workspace` and record it.

    Raises ConfigError for a folder that holds no readable Zotero library (nothing is
    created then), WorkspaceError when the workspace cannot be written.
    """
    root = Path(workspace)
    with _undone_on_failure(root):
        report = import_zotero(data_dir, root, progress=progress)
    record = zotero_record(report, str(data_dir))
    save_import(root, record)
    return record


def pdfs_record(report: AddReport, origin: str) -> ImportRecord:
    """The record of adding a folder of PDFs: papers with text, pages, problems by kind."""
    problems = [p for item in report.items for p in item_problems(item)]
    papers = sum(item.outcome is not Outcome.FAILED for item in report.items)
    pages = sum(item.pages for item in report.items if item.outcome is not Outcome.FAILED)
    return new_record(ImportKind.PDFS, origin, papers=papers, pages=pages, problems=problems)


def zotero_record(report: ZoteroReport, origin: str) -> ImportRecord:
    """The record of a Zotero import: its items' PDF problems by kind, the rest in words."""
    typed = {problem.citekey for problem in report.issues}
    rest = [
        ImportProblem(item, ProblemKind.OTHER, text)
        for item, text in report.problems
        if item not in typed
    ]
    return new_record(
        ImportKind.ZOTERO,
        origin,
        papers=report.items,
        pages=report.pages,
        problems=[*report.issues, *rest],
    )


@contextlib.contextmanager
def _undone_on_failure(root: Path) -> Iterator[None]:
    """Remove `root` when what runs inside raises and `root` did not exist before."""
    if root.exists() and not root.is_dir():
        raise WorkspaceError(f"workspace {str(root)!r} is not a directory")
    existed = root.exists() or root.is_symlink()
    try:
        yield
    except BaseException:
        if not existed:
            # Made by this import and holding only what it wrote; rmtree unlinks links
            # it meets, never what they point to.
            shutil.rmtree(root, ignore_errors=True)
        raise

"""What each import did, kept in the workspace until a reader dismisses its problems.

Every import run from the app leaves one `ImportRecord` in `.synapse/reports/imports.json`
(the latest `KEEP` of them): what was imported, when, how many papers and pages it gave,
and each problem by kind (a scanned PDF, a missing attachment, a file edited since), so the
page that started it can show the problems on every later visit until they are dismissed.
Problem kinds are an enum; their words and fixes are the renderer's.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from engine.core import jsonsafe
from engine.core.errors import WorkspaceError
from engine.workspace.atomic import file_lock, read_app_file, synapse_path, write_atomic
from engine.workspace.layout import IMPORT_REPORTS

KEEP = 50
MAX_REPORTS_BYTES = 16 * 1024 * 1024
_LOCK = f"{IMPORT_REPORTS}.lock"


class ImportKind(StrEnum):
    """Where an import came from."""

    PDFS = "pdfs"  # a folder of PDFs
    ZOTERO = "zotero"  # a Zotero library
    VAULT = "vault"  # a folder of Markdown notes


class ProblemKind(StrEnum):
    """What went wrong with one paper or file of an import."""

    NO_TEXT_LAYER = "no-text-layer"  # a scan: pictures of pages, no text to read
    PAGES_WITHOUT_TEXT = "pages-without-text"  # some pages are pictures only
    PAGES_TOO_LARGE = "pages-too-large"  # pages that draw too much to read
    ENCRYPTED = "encrypted"
    MALFORMED = "malformed"
    TOO_LARGE = "too-large"
    TOO_SLOW = "too-slow"
    READER_FAILED = "reader-failed"
    UNREADABLE = "unreadable"  # the file could not be read from disk
    DUPLICATE = "duplicate"  # two PDFs that would be filed under one name
    KEPT = "kept"  # a file in the workspace edited by hand or a link: left alone
    MISSING_PDF = "missing-pdf"  # a library item whose PDF is not on disk
    OTHER = "other"


# An importer's failure kinds (PDF reader and import writer values) by problem kind.
_FAILURES = {kind.value: kind for kind in ProblemKind} | {
    "bad-citekey": ProblemKind.OTHER,
    "cannot-write": ProblemKind.OTHER,
    **dict.fromkeys(
        (
            "unsafe-name",
            "symlink",
            "hard-link",
            "not-a-file",
            "link-on-the-way",
            "not-imported",
            "edited",
            "other-origin",
        ),
        ProblemKind.KEPT,
    ),
}


def problem_kind(failure: str) -> ProblemKind:
    """The problem kind of an importer's failure kind value (`no-text-layer`, `edited`, …)."""
    return _FAILURES.get(failure, ProblemKind.OTHER)


@dataclass(frozen=True)
class ImportProblem:
    """One problem: the file or item as a reader knows it, its kind, and the importer's detail."""

    subject: str  # "Okafor 2021 - scan.pdf", an item's title
    kind: ProblemKind
    detail: str = ""
    citekey: str = ""
    pages: tuple[int, ...] = ()  # the pages it concerns, when only some

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"subject": self.subject, "kind": self.kind.value}
        if self.detail:
            out["detail"] = self.detail
        if self.citekey:
            out["citekey"] = self.citekey
        if self.pages:
            out["pages"] = list(self.pages)
        return out

    @classmethod
    def from_dict(cls, data: object) -> ImportProblem | None:
        if not isinstance(data, dict) or not isinstance(data.get("subject"), str):
            return None
        kind = data.get("kind")
        pages = data.get("pages") or []
        return cls(
            data["subject"],
            problem_kind(kind) if isinstance(kind, str) else ProblemKind.OTHER,
            str(data.get("detail") or ""),
            str(data.get("citekey") or ""),
            tuple(p for p in pages if isinstance(p, int)) if isinstance(pages, list) else (),
        )


@dataclass(frozen=True)
class ImportRecord:
    """One import: what it read, when, what it gave, and its problems until dismissed."""

    id: str
    kind: ImportKind
    origin: str  # the folder or library it read
    at: str  # ISO 8601, UTC
    papers: int = 0  # papers with text after the import (added, updated or unchanged)
    pages: int = 0
    problems: tuple[ImportProblem, ...] = ()
    dismissed: bool = False

    @property
    def open_problems(self) -> tuple[ImportProblem, ...]:
        """The problems still to show: none once dismissed."""
        return () if self.dismissed else self.problems

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind.value,
            "origin": self.origin,
            "at": self.at,
            "papers": self.papers,
            "pages": self.pages,
            "problems": [p.to_dict() for p in self.problems],
            "dismissed": self.dismissed,
        }

    @classmethod
    def from_dict(cls, data: object) -> ImportRecord | None:
        if not isinstance(data, dict):
            return None
        try:
            kind = ImportKind(str(data.get("kind")))
        except ValueError:
            return None
        problems = data.get("problems") if isinstance(data.get("problems"), list) else []
        return cls(
            str(data.get("id") or ""),
            kind,
            str(data.get("origin") or ""),
            str(data.get("at") or ""),
            _count(data.get("papers")),
            _count(data.get("pages")),
            tuple(p for p in map(ImportProblem.from_dict, problems or ()) if p is not None),
            data.get("dismissed") is True,
        )


def new_record(
    kind: ImportKind,
    origin: str,
    *,
    papers: int = 0,
    pages: int = 0,
    problems: Iterable[ImportProblem] = (),
    now: datetime | None = None,
) -> ImportRecord:
    """A record stamped now; its id sorts by time."""
    when = (now or datetime.now(UTC)).astimezone(UTC)
    ident = when.strftime("%Y%m%dT%H%M%S%fZ")
    return ImportRecord(
        ident, kind, origin, when.isoformat(timespec="seconds"), papers, pages, tuple(problems)
    )


def read_imports(root: str | os.PathLike[str]) -> tuple[ImportRecord, ...]:
    """The workspace's import records, oldest first; () when none or unreadable."""
    try:
        raw = read_app_file(synapse_path(root, IMPORT_REPORTS), max_bytes=MAX_REPORTS_BYTES)
        data = jsonsafe.loads(raw)
    except (OSError, ValueError, WorkspaceError):
        return ()
    items = data.get("imports") if isinstance(data, dict) else None
    if not isinstance(items, list):
        return ()
    return tuple(r for r in map(ImportRecord.from_dict, items) if r is not None)


def open_imports(root: str | os.PathLike[str]) -> tuple[ImportRecord, ...]:
    """The records whose problems are not dismissed yet, newest first."""
    return tuple(r for r in reversed(read_imports(root)) if r.open_problems)


def save_import(root: str | os.PathLike[str], record: ImportRecord) -> None:
    """Add `record` to the workspace's records (keeping the latest `KEEP`).

    Raises WorkspaceError when `.synapse/` holds a link, OSError when the disk refuses.
    """
    with file_lock(synapse_path(root, _LOCK)):
        kept = [r for r in read_imports(root) if r.id != record.id]
        _write(root, [*kept, record][-KEEP:])


def dismiss_import(root: str | os.PathLike[str], ident: str) -> bool:
    """Mark the record `ident` dismissed; whether one was found.

    Raises WorkspaceError when `.synapse/` holds a link, OSError when the disk refuses.
    """
    with file_lock(synapse_path(root, _LOCK)):
        records = list(read_imports(root))
        found = False
        for n, record in enumerate(records):
            if record.id == ident and not record.dismissed:
                records[n] = replace(record, dismissed=True)
                found = True
        if found:
            _write(root, records)
        return found


def latest_problems(records: Iterable[ImportRecord]) -> dict[str, ImportProblem]:
    """Citekey → the problem the latest import naming that paper reported (dismissed too)."""
    out: dict[str, ImportProblem] = {}
    for record in records:
        for problem in record.problems:
            if problem.citekey:
                out[problem.citekey] = problem
    return out


def _write(root: str | os.PathLike[str], records: list[ImportRecord]) -> None:
    payload = {"imports": [r.to_dict() for r in records]}
    write_atomic(synapse_path(root, IMPORT_REPORTS), json.dumps(payload, indent=1) + "\n")


def _count(value: object) -> int:
    return max(0, value) if isinstance(value, int) and not isinstance(value, bool) else 0

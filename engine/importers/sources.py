"""Add PDFs to a workspace as `sources/<citekey>.txt`, with a sidecar and a report.

Each added PDF writes two files through the import writer (atomically, never through a
link): the text (pages separated by form feeds) and `sources/<citekey>.pdf.json` (the PDF's
hash, page count, labels and the pages without a text layer). The sidecar is how a re-run
knows a source is unchanged and how the app turns a page position into the label printed
on the page. A source text no import wrote, one edited since, or one an import made from
another PDF is never replaced unless `replace` is asked for. Text is extracted in a worker
process under a time and memory budget, so no PDF can hang the run.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
import time
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from engine.core import jsonsafe
from engine.core.errors import ConfigError, WorkspaceError
from engine.importers.citekeys import citekey_from_name, citekey_problem
from engine.importers.duplicates import Duplicate, likely_duplicates, workspace_papers
from engine.importers.pdf import MAX_PAGES, MAX_PDF_BYTES, PdfFailure, PdfText
from engine.importers.pdf_worker import (
    DEFAULT_MEMORY_BYTES,
    DEFAULT_TIME_LIMIT,
    Extractor,
    PdfBudget,
    PdfWorker,
)
from engine.workspace.import_reports import ImportProblem, ProblemKind, problem_kind
from engine.workspace.import_writer import ImportWriter
from engine.workspace.layout import SOURCES_DIR
from engine.workspace.stores import MAX_FILE_BYTES
from engine.workspace.user_files import FileKind, look, workspace_file

IMPORTER = "sources add"
SIDECAR_SUFFIX = ".pdf.json"


class Outcome(StrEnum):
    """What adding one PDF did."""

    ADDED = "added"
    UPDATED = "updated"
    UNCHANGED = "unchanged"
    FAILED = "failed"


@dataclass(frozen=True)
class Added:
    """One PDF's outcome: its citekey, pages, and the problem when it failed."""

    path: str
    citekey: str
    outcome: Outcome
    pages: int = 0
    kind: str = ""
    problem: str = ""
    empty_pages: tuple[int, ...] = ()
    oversized_pages: tuple[int, ...] = ()
    hidden: tuple[tuple[int, int], ...] = ()  # (page, lines of hidden text left out)

    @classmethod
    def failed(cls, path: str, citekey: str, kind: str, problem: str) -> Added:
        return cls(path, citekey, Outcome.FAILED, kind=kind, problem=problem)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "path": self.path,
            "citekey": self.citekey,
            "outcome": self.outcome.value,
        }
        if self.outcome is Outcome.FAILED:
            out |= {"kind": self.kind, "problem": self.problem}
        else:
            out["pages"] = self.pages
        if self.empty_pages:
            out["pages_without_text"] = list(self.empty_pages)
        if self.oversized_pages:
            out["pages_too_large"] = list(self.oversized_pages)
        if self.hidden:
            out["hidden_text"] = hidden_text(self.hidden)
        return out

    def hidden_notes(self) -> tuple[str, ...]:
        """One line a page: "page 1: 1 line of hidden text left out"."""
        return tuple(
            f"page {page}: {lines} line{'s' if lines != 1 else ''} of hidden text left out"
            for page, lines in self.hidden
        )


def page_problems(item: Added, shown: str) -> tuple[ImportProblem, ...]:
    """The problems of a PDF that gave text: its pages without text, those too large to read."""
    out = []
    if item.empty_pages:
        kind = ProblemKind.PAGES_WITHOUT_TEXT
        out.append(ImportProblem(shown, kind, citekey=item.citekey, pages=item.empty_pages))
    if item.oversized_pages:
        kind = ProblemKind.PAGES_TOO_LARGE
        out.append(ImportProblem(shown, kind, citekey=item.citekey, pages=item.oversized_pages))
    return tuple(out)


def item_problems(item: Added) -> tuple[ImportProblem, ...]:
    """What a reader should know of one PDF's outcome: its failure, or its pages' problems."""
    shown = Path(item.path).name
    if item.outcome is Outcome.FAILED:
        kind = problem_kind(item.kind)
        return (ImportProblem(shown, kind, item.problem, item.citekey),)
    return page_problems(item, shown)


def hidden_text(pages: tuple[tuple[int, int], ...]) -> list[dict[str, int]]:
    """What a report or sidecar records of hidden text: [{"page": 1, "lines": 1}, …]."""
    return [{"page": page, "lines": lines} for page, lines in pages]


@dataclass(frozen=True)
class AddReport:
    """Every PDF's outcome, in the order given, and the time it took.

    `duplicates` names the papers of the workspace that are likely one paper (the same text,
    or title and year), each group holding at least one of these PDFs; both are kept.
    """

    items: tuple[Added, ...]
    seconds: float = field(default=0.0, compare=False)
    notices: tuple[str, ...] = ()
    duplicates: tuple[Duplicate, ...] = ()

    @property
    def failures(self) -> tuple[Added, ...]:
        return tuple(item for item in self.items if item.outcome is Outcome.FAILED)

    @property
    def pages(self) -> int:
        return sum(item.pages for item in self.items if item.outcome is not Outcome.UNCHANGED)

    def to_dict(self) -> dict[str, Any]:
        counts = {outcome.value: 0 for outcome in Outcome}
        for item in self.items:
            counts[item.outcome.value] += 1
        rate = self.pages / self.seconds if self.seconds > 0 else 0.0
        return {
            "counts": counts,
            "pages": self.pages,
            "seconds": round(self.seconds, 3),
            "pages_per_second": round(rate, 1),
            "duplicates": [d.to_dict() for d in self.duplicates],
            "items": [item.to_dict() for item in self.items],
        }


@dataclass(frozen=True)
class AddOptions:
    """Limits and choices for `add_pdfs`."""

    citekey: str | None = None
    replace: bool = False
    max_pages: int = MAX_PAGES
    max_bytes: int = MAX_PDF_BYTES
    time_limit: float = DEFAULT_TIME_LIMIT
    memory_bytes: int = DEFAULT_MEMORY_BYTES

    @property
    def budget(self) -> PdfBudget:
        return PdfBudget(self.time_limit, self.memory_bytes, self.max_pages, self.max_bytes)


def collect_pdfs(arguments: Sequence[str]) -> list[Path]:
    """The PDF files named by paths, folders (every *.pdf inside, recursively) and globs."""
    found: list[Path] = []
    for argument in arguments:
        path = Path(argument).expanduser()
        if path.is_dir():
            found.extend(sorted(p for p in path.rglob("*") if p.suffix.lower() == ".pdf"))
        elif path.exists() or path.is_symlink():
            found.append(path)
        elif any(char in argument for char in "*?["):
            anchor = Path(path.anchor or ".")
            pattern = str(path.relative_to(path.anchor)) if path.anchor else argument
            found.extend(sorted(p for p in anchor.glob(pattern) if p.is_file()))
        else:
            raise ConfigError(f"no such file or folder: {argument}")
    return list(dict.fromkeys(found))


def pdf_origin(pdf: Path) -> str:
    """What a source text made by `sources add` came from, as the manifest records it."""
    return "pdf:" + unicodedata.normalize("NFC", pdf.name)


def add_pdfs(
    root: str | os.PathLike[str],
    pdfs: Iterable[Path],
    options: AddOptions | None = None,
    *,
    extractor: Extractor | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> AddReport:
    """Extract each PDF into `sources/` of the workspace at `root`; one failure stops nothing.

    `extractor` reads the PDFs (default: a `PdfWorker` under `options.budget`, closed at the
    end; one given is the caller's to close); `progress(done, total)` is called after each
    PDF. Raises ConfigError for an unusable `--citekey`, WorkspaceError when `.synapse/`
    (where the record of imported files lives) is a link.
    """
    options = options or AddOptions()
    pdfs = list(pdfs)
    if options.citekey is not None:
        if len(pdfs) != 1:
            raise ConfigError("--citekey names one source: give exactly one PDF with it")
        if (problem := citekey_problem(options.citekey)) is not None:
            raise ConfigError(f"citekey {options.citekey!r} {problem}")
    started = time.perf_counter()
    claimed: set[str] = set()
    items = []
    Path(root).mkdir(parents=True, exist_ok=True)
    with (
        ImportWriter(root, IMPORTER, replace=options.replace) as writer,
        reader(extractor, options.budget) as worker,
    ):
        adder = SourceAdder(writer, worker, options)
        for pdf in pdfs:
            citekey = options.citekey or citekey_from_name(pdf.name)
            if citekey in claimed:
                failure = Added.failed(str(pdf), citekey, "duplicate", "another PDF here has it")
                items.append(failure)
                continue
            claimed.add(citekey)
            items.append(adder.add(pdf, citekey, pdf_origin(pdf)))
            if progress is not None:
                progress(len(items), len(pdfs))
        notices = writer.problems
    added = {item.citekey for item in items if item.outcome is not Outcome.FAILED}
    duplicates = likely_duplicates(workspace_papers(root), involving=added) if added else ()
    return AddReport(tuple(items), time.perf_counter() - started, notices, duplicates)


def reader(
    extractor: Extractor | None, budget: PdfBudget
) -> contextlib.AbstractContextManager[Extractor]:
    """What an import reads its PDFs with: `extractor` as given, else a fresh PdfWorker."""
    return contextlib.nullcontext(extractor) if extractor is not None else PdfWorker(budget)


class SourceAdder:
    """Adds PDFs as source texts through one import's writer and PDF worker."""

    def __init__(self, writer: ImportWriter, worker: Extractor, options: AddOptions) -> None:
        self.writer = writer
        self.worker = worker
        self.options = options

    def add(self, pdf: Path, citekey: str, origin: str) -> Added:
        """Extract one PDF into `sources/<citekey>.txt`; unchanged when its hash is recorded.

        `origin` names what the text comes from (`pdf_origin`, or a Zotero item): a text
        an import made from another origin is never replaced without `replace`.
        """
        shown = str(pdf)
        if (problem := citekey_problem(citekey)) is not None:
            return Added.failed(shown, citekey, "bad-citekey", f"citekey {citekey!r} {problem}")
        text_rel, sidecar_rel = (f"{SOURCES_DIR}/{citekey}{ext}" for ext in (".txt", ".pdf.json"))
        try:
            data = _read_pdf(pdf, limit=self.options.max_bytes)
        except _TooLarge as exc:
            return Added.failed(shown, citekey, "too-large", str(exc))
        except OSError as exc:
            return Added.failed(shown, citekey, "unreadable", f"cannot read: {exc.strerror or exc}")
        digest = hashlib.sha256(data).hexdigest()
        text_file = workspace_file(self.writer.root, text_rel)
        before = look(text_file, max_bytes=0)
        previous = read_sidecar(self.writer.root, sidecar_rel)
        if (
            previous.get("sha256") == digest
            and before.kind is FileKind.REGULAR
            and before.size == previous.get("text_bytes")
            and self._copy_kept(previous, citekey)
        ):
            return Added(shown, citekey, Outcome.UNCHANGED, pages=_int(previous.get("pages")))
        extracted = self.worker.extract(data)
        if isinstance(extracted, PdfFailure):
            return Added.failed(shown, citekey, extracted.kind.value, extracted.message)
        fulltext = extracted.fulltext.encode("utf-8")
        if len(fulltext) > MAX_FILE_BYTES:
            return Added.failed(
                shown,
                citekey,
                "too-large",
                f"its text is {len(fulltext):,} bytes, over the "
                f"{MAX_FILE_BYTES:,}-byte limit of one source file",
            )
        original = self._original(pdf, citekey, data, origin)
        side = _sidecar(pdf, digest, extracted, len(fulltext)) | {"file": original}
        sidecar = json.dumps(side, indent=1) + "\n"
        for relative, payload in ((text_rel, fulltext), (sidecar_rel, sidecar)):
            checked = self.writer.check(relative, payload, origin)
            if checked.refusal is not None:
                return Added.failed(shown, citekey, checked.refusal.value, checked.reason)
        outcome = Outcome.UPDATED if before.kind is not FileKind.ABSENT else Outcome.ADDED
        # The PDF's copy goes first and the sidecar last: the sidecar is the record a re-run
        # trusts, so a run stopped between them leaves no record of a copy never made.
        copy = original if original == _copy_of(citekey) else None
        kept = look(workspace_file(self.writer.root, copy)).data if copy else None
        if copy is not None:
            with contextlib.suppress(OSError, WorkspaceError):
                self.writer.write(copy, data, origin)
        try:
            self._write_pair((text_rel, fulltext), (sidecar_rel, sidecar), origin)
        except (OSError, WorkspaceError) as exc:
            if copy is not None:
                self._put_back(copy, kept, origin)
            return Added.failed(shown, citekey, "cannot-write", _why(exc))
        return Added(
            shown,
            citekey,
            outcome,
            len(extracted.pages),
            empty_pages=extracted.empty_pages,
            oversized_pages=extracted.oversized_pages,
            hidden=extracted.hidden_pages,
        )

    def _copy_kept(self, previous: dict[str, Any], citekey: str) -> bool:
        """Whether the PDF's copy the sidecar records (if any) is still there."""
        copy = _copy_of(citekey)
        if previous.get("file") != copy:
            return True
        return look(workspace_file(self.writer.root, copy), max_bytes=0).kind is FileKind.REGULAR

    def _original(self, pdf: Path, citekey: str, data: bytes, origin: str) -> str | None:
        """Where the workspace keeps the PDF, so a reader can open it: its own path when it
        lies inside the workspace, else a copy `sources/<citekey>.pdf`; None when that copy
        may not be written (a file of the user's own stands there)."""
        root = Path(self.writer.root).resolve()
        with contextlib.suppress(OSError, ValueError):
            return pdf.resolve(strict=True).relative_to(root).as_posix()
        copy = _copy_of(citekey)
        return copy if self.writer.check(copy, data, origin).allowed else None

    def _write_pair(self, first: tuple[str, bytes], second: tuple[str, str], origin: str) -> None:
        """Write both files; if the second write fails, the first goes back to what it was."""
        relative, data = first
        before = look(workspace_file(self.writer.root, relative)).data
        self.writer.write(relative, data, origin)
        try:
            self.writer.write(*second, origin)
        except BaseException:
            self._put_back(relative, before, origin)
            raise

    def _put_back(self, relative: str, before: bytes | None, origin: str) -> None:
        """`relative` as it was before a write (gone when it was absent), as far as it can."""
        with contextlib.suppress(OSError, WorkspaceError):
            if before is None:
                self.writer.remove(relative, origin)
            else:
                self.writer.write(relative, before, origin)


def _copy_of(citekey: str) -> str:
    """Where the workspace keeps its copy of a PDF that lies outside it."""
    return f"{SOURCES_DIR}/{citekey}.pdf"


def read_sidecar(root: str | os.PathLike[str], relative: str) -> dict[str, Any]:
    """The sidecar at `relative` as a dict, read without following a link; {} when unusable."""
    try:
        found = look(workspace_file(root, relative), max_bytes=4 * 1024 * 1024)
        value = jsonsafe.loads(found.data) if found.data is not None else {}
    except (OSError, ValueError, WorkspaceError):
        return {}
    return value if isinstance(value, dict) else {}


def _sidecar(pdf: Path, digest: str, extracted: PdfText, text_bytes: int) -> dict[str, Any]:
    return {
        "pdf": pdf.name,
        "sha256": digest,
        "pages": len(extracted.pages),
        "text_bytes": text_bytes,
        "labels": list(extracted.labels) if extracted.custom_labels else None,
        "pages_without_text": list(extracted.empty_pages),
        # Text in the PDF a reader of the page does not see, left out of the source text.
        "hidden_text": hidden_text(extracted.hidden_pages),
        "title": extracted.title,
    }


class _TooLarge(Exception):
    pass


def _read_pdf(path: Path, *, limit: int) -> bytes:
    """The bytes of a regular file, refused before reading when it is over `limit`."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise OSError(0, "not a regular file")
        if info.st_size > limit:
            raise _TooLarge(f"file is {info.st_size:,} bytes, over the {limit:,}-byte limit")
        return handle.read(limit + 1)


def _int(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _why(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return f"cannot write: {exc.strerror}"
    return f"cannot write: {exc}"

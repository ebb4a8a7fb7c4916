"""Add PDFs to a workspace as `sources/<citekey>.txt`, with a sidecar and a report.

Each added PDF writes two files, both atomically: the text (pages separated by form
feeds) and `sources/<citekey>.pdf.json` (the PDF's hash, page count, labels and the
pages without a text layer). The sidecar is how a re-run knows a source is unchanged
and how the app turns a page position into the label printed on the page. A source
text that did not come from a PDF is never overwritten unless `replace` is asked for.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import stat
import time
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from engine.core.errors import ConfigError
from engine.core.paths import resolve_inside
from engine.importers.batch import BatchWriter
from engine.importers.pdf import MAX_PAGES, MAX_PDF_BYTES, PdfFailure, extract_pdf
from engine.workspace.atomic import write_atomic
from engine.workspace.notes import is_address_safe
from engine.workspace.stores import MAX_FILE_BYTES, SOURCES_DIR

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

    @classmethod
    def failed(cls, path: str, citekey: str, kind: str, problem: str) -> Added:
        return cls(path, citekey, Outcome.FAILED, kind=kind, problem=problem)

    def to_dict(self) -> dict:
        out: dict = {"path": self.path, "citekey": self.citekey, "outcome": self.outcome.value}
        if self.outcome is Outcome.FAILED:
            out |= {"kind": self.kind, "problem": self.problem}
        else:
            out["pages"] = self.pages
        if self.empty_pages:
            out["pages_without_text"] = list(self.empty_pages)
        return out


@dataclass(frozen=True)
class AddReport:
    """Every PDF's outcome, in the order given, and the time it took."""

    items: tuple[Added, ...]
    seconds: float = field(default=0.0, compare=False)

    @property
    def failures(self) -> tuple[Added, ...]:
        return tuple(item for item in self.items if item.outcome is Outcome.FAILED)

    @property
    def pages(self) -> int:
        return sum(item.pages for item in self.items if item.outcome is not Outcome.UNCHANGED)

    def to_dict(self) -> dict:
        counts = {outcome.value: 0 for outcome in Outcome}
        for item in self.items:
            counts[item.outcome.value] += 1
        rate = self.pages / self.seconds if self.seconds > 0 else 0.0
        return {
            "counts": counts,
            "pages": self.pages,
            "seconds": round(self.seconds, 3),
            "pages_per_second": round(rate, 1),
            "items": [item.to_dict() for item in self.items],
        }


@dataclass(frozen=True)
class AddOptions:
    """Limits and choices for `add_pdfs`."""

    citekey: str | None = None
    replace: bool = False
    max_pages: int = MAX_PAGES
    max_bytes: int = MAX_PDF_BYTES


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


def citekey_from_name(name: str) -> str:
    """An address-safe citekey from a file name: `Smith 2020 (draft).pdf` → `Smith-2020-draft`."""
    stem = Path(name).stem if name.lower().endswith(".pdf") else name
    ascii_only = unicodedata.normalize("NFKD", stem).encode("ascii", "ignore").decode()
    key = re.sub(r"[^A-Za-z0-9_.+-]+", "-", ascii_only)
    key = re.sub(r"\.{2,}", ".", key).strip("-.")
    return key or "source"


def add_pdfs(
    root: str | os.PathLike[str], pdfs: Iterable[Path], options: AddOptions | None = None
) -> AddReport:
    """Extract each PDF into `sources/` of the workspace at `root`; one failure stops nothing."""
    options = options or AddOptions()
    pdfs = list(pdfs)
    if options.citekey is not None:
        if len(pdfs) != 1:
            raise ConfigError("--citekey names one source: give exactly one PDF with it")
        if not is_address_safe(options.citekey):
            raise ConfigError(f"citekey {options.citekey!r} may not contain '/', ':' or spaces")
    started = time.perf_counter()
    claimed: set[str] = set()
    items = []
    with BatchWriter() as batch:
        for pdf in pdfs:
            citekey = options.citekey or citekey_from_name(pdf.name)
            if citekey in claimed:
                failure = Added.failed(str(pdf), citekey, "duplicate", "another PDF here has it")
                items.append(failure)
                continue
            claimed.add(citekey)
            items.append(add_pdf(root, pdf, citekey, options, write=batch.write))
    return AddReport(tuple(items), time.perf_counter() - started)


def add_pdf(
    root: str | os.PathLike[str],
    pdf: Path,
    citekey: str,
    options: AddOptions,
    *,
    write: Callable[[Path, bytes | str], None] | None = None,
) -> Added:
    """Extract one PDF into `sources/<citekey>.txt`; unchanged when its hash is recorded.

    `write` replaces one file atomically: `write_atomic` unless a bulk import passes its
    `BatchWriter`'s.
    """
    write = write or write_atomic
    shown = str(pdf)
    targets = [
        resolve_inside(root, f"{SOURCES_DIR}/{citekey}{ext}") for ext in (".txt", ".pdf.json")
    ]
    refused = next((t for t in targets if not t.allowed), None)
    if refused is not None:
        return Added.failed(shown, citekey, "unsafe-target", refused.reason)
    text_path, sidecar_path = (t.path for t in targets)
    try:
        data = _read_pdf(pdf, limit=options.max_bytes)
    except _TooLarge as exc:
        return Added.failed(shown, citekey, "too-large", str(exc))
    except OSError as exc:
        return Added.failed(shown, citekey, "unreadable", f"cannot read: {exc.strerror or exc}")
    digest = hashlib.sha256(data).hexdigest()
    previous = read_sidecar(sidecar_path)
    if previous.get("sha256") == digest and _size(text_path) == previous.get("text_bytes"):
        return Added(shown, citekey, Outcome.UNCHANGED, pages=int(previous.get("pages") or 0))
    if text_path.exists() and not previous and not options.replace:
        return Added.failed(
            shown,
            citekey,
            "exists",
            f"{SOURCES_DIR}/{citekey}.txt exists and was not made from "
            "a PDF; pass --replace to overwrite it or --citekey to pick another key",
        )
    extracted = extract_pdf(data, max_pages=options.max_pages, max_bytes=options.max_bytes)
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
    sidecar = {
        "pdf": pdf.name,
        "sha256": digest,
        "pages": len(extracted.pages),
        "text_bytes": len(fulltext),
        "labels": list(extracted.labels) if extracted.custom_labels else None,
        "pages_without_text": list(extracted.empty_pages),
        "title": extracted.title,
    }
    outcome = Outcome.UPDATED if text_path.exists() else Outcome.ADDED
    _write_pair(text_path, fulltext, sidecar_path, json.dumps(sidecar, indent=1) + "\n", write)
    return Added(shown, citekey, outcome, len(extracted.pages), empty_pages=extracted.empty_pages)


def read_sidecar(path: Path) -> dict:
    """The sidecar at `path` as a dict; {} when absent or unreadable."""
    try:
        value = json.loads(path.read_bytes()) if path.stat().st_size < 4 * 1024 * 1024 else {}
    except (OSError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


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


def _write_pair(first: Path, first_data: bytes, second: Path, second_data: str, write) -> None:
    """Write both files; if the second write fails, the first goes back to what it was."""
    before = first.read_bytes() if first.is_file() else None
    write(first, first_data)
    try:
        write(second, second_data)
    except BaseException:
        with contextlib.suppress(OSError):
            if before is None:
                first.unlink()
            else:
                write(first, before)
        raise


def _size(path: Path) -> int | None:
    try:
        return path.stat().st_size
    except OSError:
        return None

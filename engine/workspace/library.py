"""The papers of a workspace as a reader lists them: name, pages, passages, date, problems.

A paper is a source the workspace holds (`sources/<key>.txt`, its abstract, or a canon note
citing it) or one an import could not read (named in its import record, with the problem).
It is named "Author Year" when the references know its authors or year, or when its PDF
carries Zotero's file name ("Okafor et al. - 2021 - Title.pdf"), else by its title. Its
original PDF opens from the workspace only: the path the import recorded inside the
workspace, or the copy it kept in `sources/`, read without following a link.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from typing import Any

from engine.core import jsonsafe
from engine.core.errors import WorkspaceError
from engine.core.paths import resolve_inside
from engine.workspace.import_reports import (
    ImportProblem,
    ProblemKind,
    latest_problems,
    read_imports,
)
from engine.workspace.layout import SOURCES_DIR
from engine.workspace.notes import Store, is_address_safe
from engine.workspace.references import (
    Reference,
    load_references,
    paper_label,
    reader_name,
    zotero_name,
)
from engine.workspace.source_texts import ABSTRACT_SUFFIX, source_keys
from engine.workspace.stores import Workspace
from engine.workspace.user_files import FileKind, look, workspace_file

MAX_PDF_BYTES = 512 * 1024 * 1024
MAX_SIDECAR_BYTES = 4 * 1024 * 1024


@dataclass(frozen=True)
class Paper:
    """One paper: how a reader names it, what the workspace holds of it, and its problems."""

    citekey: str
    name: str  # "Okafor et al. 2021", else its title (cut), else the citekey
    title: str
    authors: tuple[str, ...] = ()
    year: int | None = None
    pages: int = 0
    passages: int = 0  # passages of its text the reasoner may quote
    notes: int = 0  # canon notes about it (a source note, a finding)
    imported: datetime | None = None  # when its text was last written
    problems: tuple[ImportProblem, ...] = ()
    pdf: str | None = None  # the original PDF, as a path inside the workspace

    @property
    def has_text(self) -> bool:
        return self.pages > 0 or self.passages > 0 or self.notes > 0


@dataclass(frozen=True)
class Holdings:
    """A workspace in a reader's terms: papers and their pages, notes, practice entries."""

    papers: int
    pages: int
    notes: int  # canon notes beyond the papers' passages
    practice: int


def read_library(workspace: Workspace) -> tuple[Paper, ...]:
    """Every paper of the workspace, by name; those an import could not read among them."""
    root = workspace.root
    references = load_references(root)
    notes: Counter[str] = Counter()
    named: dict[str, str] = {}  # from the canon notes', which win over the passages'
    for note in workspace.notes.written.values():
        if note.store is not Store.CANON or not note.citekey:
            continue
        key = _paper(note.citekey)
        notes[key] += 1
        if note.title.strip() and key not in named:
            named[key] = " ".join(note.title.split())
    # Counted from the passages' layout (a 2,000-paper library holds hundreds of thousands
    # of passages): no passage note is made.
    passages: Counter[str] = Counter()
    last_pages: dict[str, int] = {}  # the last page a paper's passages quote (not its abstract's)
    titles: dict[str, str] = {}  # from the passages' titles
    for summary in workspace.notes.passages.summaries():
        key = _paper(summary.key)
        passages[key] += summary.count
        if not summary.key.endswith(ABSTRACT_SUFFIX):
            last_pages[key] = summary.last_page
        if key not in titles and summary.title and summary.title != key:
            titles[key] = summary.title
    titles |= named
    texts = source_keys(root)
    keys = {_paper(k) for k in texts} | set(notes)
    stamps = {_paper(k): _mtime(root, f"{SOURCES_DIR}/{k}.txt") for k in texts}
    sources_inside = resolve_inside(root, SOURCES_DIR).allowed
    papers = []
    for key in keys:
        side = _sidecar(str(root), key)
        # The sidecar's count, else the last page a passage quotes (read only when needed).
        pages = _int(side.get("pages")) or last_pages.get(key, 0) or int(key in stamps)
        papers.append(
            _paper_of(
                key,
                references.get(key),
                side,
                titles.get(key, ""),
                counts=(pages, passages[key], notes[key]),
                imported=stamps.get(key),
                problems=_sidecar_problems(side, key),
                pdf=_pdf_path(str(root), key, side, sources_inside=sources_inside),
            )
        )
    for key, problem in latest_problems(read_imports(root)).items():
        if key not in keys and problem.kind not in _PAGE_KINDS:
            title = Path(problem.subject).stem
            papers.append(_paper_of(key, references.get(key), {}, title, problems=(problem,)))
    return tuple(sorted(papers, key=lambda p: (p.name.casefold(), p.citekey)))


def holdings(workspace: Workspace, papers: Iterable[Paper]) -> Holdings:
    """How much the workspace holds, counted as a reader would."""
    with_text = [p for p in papers if p.has_text]
    canon = practice = 0
    for note in workspace.notes.written.values():
        if note.store is Store.PRACTICE:
            practice += 1
        elif note.store is Store.CANON:
            canon += 1
    return Holdings(len(with_text), sum(p.pages for p in with_text), canon, practice)


def paper_pdf(root: str | os.PathLike[str], paper: Paper) -> bytes | None:
    """The bytes of the paper's original PDF, read inside the workspace without following a
    link; None when the workspace holds none (or only through a link)."""
    if paper.pdf is None:
        return None
    try:
        found = look(workspace_file(root, paper.pdf), max_bytes=MAX_PDF_BYTES)
    except (OSError, WorkspaceError):
        return None
    if found.kind is not FileKind.REGULAR or found.data is None:
        return None
    return found.data if found.data.startswith(b"%PDF") else None


def paper_name(workspace: Workspace, citekey: str, title: str = "") -> str:
    """The name of the paper filed as `citekey`, its known `title` the fallback."""
    return paper_label(workspace.root, citekey, title)


_PAGE_KINDS = frozenset({ProblemKind.PAGES_WITHOUT_TEXT, ProblemKind.PAGES_TOO_LARGE})


def forget() -> None:
    """Drop the sidecars read so far in this process, as a new process starts without them."""
    _sidecar_cached.cache_clear()


def _paper_of(
    key: str,
    reference: Reference | None,
    side: Mapping[str, Any],
    title: str,
    *,
    counts: tuple[int, int, int] = (0, 0, 0),
    imported: datetime | None = None,
    problems: tuple[ImportProblem, ...] = (),
    pdf: str | None = None,
) -> Paper:
    pdf_name = str(side.get("pdf") or "")
    zotero = zotero_name(pdf_name)
    full = (reference.title if reference else "") or title
    if not full and zotero is not None:
        full = zotero[2]
    full = " ".join((full or str(side.get("title") or "") or key).split())
    authors = reference.authors if reference else ()
    year = reference.year if reference else None
    if not authors and zotero is not None:
        authors, year = (zotero[0],), zotero[1]
    pages, passages, notes = counts
    return Paper(
        key,
        reader_name(reference, full, key, pdf_name),
        full,
        authors,
        year,
        pages,
        passages,
        notes,
        imported,
        problems,
        pdf,
    )


def _paper(citekey: str) -> str:
    return citekey.removesuffix(ABSTRACT_SUFFIX)


def _sidecar_problems(side: Mapping[str, Any], key: str) -> tuple[ImportProblem, ...]:
    shown = str(side.get("pdf") or key)
    out = []
    for field, kind in (
        ("pages_without_text", ProblemKind.PAGES_WITHOUT_TEXT),
        ("pages_too_large", ProblemKind.PAGES_TOO_LARGE),
    ):
        pages = side.get(field)
        if isinstance(pages, list) and (found := tuple(p for p in pages if isinstance(p, int))):
            out.append(ImportProblem(shown, kind, citekey=key, pages=found))
    return tuple(out)


def _pdf_path(root: str, key: str, side: Mapping[str, Any], *, sources_inside: bool) -> str | None:
    """The PDF's path inside the workspace the import recorded, else its copy in sources/.

    `sources_inside`: `sources/` itself resolves inside the workspace, so a copy there that
    is a regular file and no link is inside too, found with one call instead of a resolve.
    """
    copy = f"{SOURCES_DIR}/{key}.pdf"
    for relative in (side.get("file"), copy):
        if sources_inside and relative == copy and is_address_safe(key):
            try:
                mode = os.lstat(os.path.join(root, relative)).st_mode
            except OSError:
                continue
            if stat.S_ISREG(mode):
                return relative
        if isinstance(relative, str) and resolve_inside(root, relative).allowed:
            with contextlib.suppress(OSError):
                if (Path(root) / relative).is_file():
                    return relative
    return None


def _sidecar(root: str, key: str) -> dict[str, Any]:
    if not is_address_safe(key):
        return {}
    path = Path(root) / SOURCES_DIR / f"{key}.pdf.json"
    try:
        info = path.lstat()
    except OSError:
        return {}
    # lstat's own answer: a regular file, not a link (two more calls a paper otherwise).
    if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_SIDECAR_BYTES:
        return {}
    return _sidecar_cached(str(path), (info.st_size, info.st_mtime_ns))


@lru_cache(maxsize=8192)
def _sidecar_cached(path: str, stamp: tuple[int, int]) -> dict[str, Any]:
    try:
        data = jsonsafe.loads(Path(path).read_bytes())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _mtime(root: Path, relative: str) -> datetime | None:
    try:
        return datetime.fromtimestamp((root / relative).stat().st_mtime, UTC)
    except (OSError, ValueError):
        return None


def _int(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def bibtex(papers: Iterable[Paper]) -> str:
    """The papers as BibTeX entries, keyed by citekey (those with no text left out)."""
    entries = []
    for paper in papers:
        if not paper.has_text:
            continue
        fields = [("title", paper.title)]
        if paper.authors:
            fields.append(("author", " and ".join(_bib_author(a) for a in paper.authors)))
        if paper.year:
            fields.append(("year", str(paper.year)))
        kind = "article" if paper.authors and paper.year else "misc"
        body = ",\n".join(f"  {name} = {{{_bib(value)}}}" for name, value in fields)
        entries.append(f"@{kind}{{{paper.citekey},\n{body}\n}}\n")
    return "\n".join(entries)


def _bib_author(name: str) -> str:
    # A name taken from Zotero's file name ("Okafor et al.") keeps only the known author.
    return f"{_bib(name[: -len(' et al.')])} and others" if name.endswith(" et al.") else _bib(name)


_BIB_SPECIAL = {c: "\\" + c for c in "&%$#_"} | {"{": "", "}": "", "\\": "", "~": " "}


def _bib(text: str) -> str:
    """`text` safe inside a BibTeX brace value: specials escaped, braces dropped."""
    return "".join(_BIB_SPECIAL.get(c, c) for c in " ".join(text.split()))

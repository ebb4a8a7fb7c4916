"""Bibliographic metadata of a workspace's sources, for "Author Year, p. N" citations.

Read from `references.bib` (BibTeX, parsed by bibtexparser), `references.json` (CSL JSON)
and `sources/zotero.csl.json` (written by the Zotero importer), in that order: for each
citekey the first file that gives a field (title, authors, year) wins. Page positions
become the labels printed on the pages when `sources/<citekey>.pdf.json` records them.
A file that does not parse, and each field of the wrong shape (an `author` that is a
number, a title that is a list, nesting past 64 levels), is reported in
`References.problems` naming the file and the field; nothing here raises for a file's
content.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from bibtexparser import middlewares
from bibtexparser.entrypoint import parse_string
from bibtexparser.library import Library
from pylatexenc.latex2text import LatexNodes2Text

from engine.core import jsonsafe
from engine.core.paths import resolve_inside
from engine.workspace.layout import SOURCES_DIR
from engine.workspace.notes import Note, is_address_safe
from engine.workspace.passage_notes import PASSAGE_BOX, passage_place
from engine.workspace.source_texts import ABSTRACT_SUFFIX
from engine.workspace.stores import Workspace

REFERENCE_FILES = ("references.bib", "references.json", f"{SOURCES_DIR}/zotero.csl.json")
MAX_REFERENCE_BYTES = 32 * 1024 * 1024
# Problems named one by one per file; past this many, a count stands for the rest.
MAX_NAMED_PROBLEMS = 20
_LATEX = LatexNodes2Text()
# A year a citekey spells (`smith2019`, `Smith-2020-trial`): four digits standing alone.
_KEY_YEAR = re.compile(r"(?<!\d)(1[5-9]\d\d|20\d\d)(?!\d)")
NAME_CHARS = 60  # a title standing for a paper's name is cut to this many characters
# Zotero's attachment name: "Okafor et al. - 2021 - Sleep and memory.pdf".
_ZOTERO_FILE = re.compile(r"^(?P<who>.+?) - (?P<year>\d{4}) - (?P<title>.+)$")


@dataclass(frozen=True)
class Reference:
    """One source's title, authors' family names (in order) and year."""

    citekey: str
    title: str = ""
    authors: tuple[str, ...] = ()
    year: int | None = None

    @property
    def label(self) -> str:
        """`Jegadeesh & Titman 1993`, `Daniel et al. 2016`, or the citekey when nothing is known."""
        names = self.authors
        if not names:
            who = ""
        elif len(names) == 1:
            who = names[0]
        elif len(names) == 2:
            who = f"{names[0]} & {names[1]}"
        else:
            who = f"{names[0]} et al."
        text = " ".join(part for part in (who, str(self.year or "")) if part)
        return text or self.citekey


@dataclass(frozen=True)
class References:
    """The references of a workspace by citekey, and the problems met reading them."""

    by_key: Mapping[str, Reference]
    problems: tuple[str, ...] = ()

    def get(self, citekey: str | None) -> Reference | None:
        return self.by_key.get(citekey) if citekey else None


def load_references(root: str | os.PathLike[str]) -> References:
    """The references files of the workspace at `root` (re-read only when a file changed)."""
    stamps = []
    for relative in REFERENCE_FILES:
        safe = resolve_inside(root, relative)
        try:
            info = safe.path.stat() if safe.path is not None else None
        except OSError:
            info = None
        stamps.append((relative, (info.st_size, info.st_mtime_ns) if info else None))
    return _load(str(Path(root).resolve()), tuple(stamps))


def reference_problems(root: str | os.PathLike[str]) -> tuple[str, ...]:
    """What could not be read of the workspace's references files, naming file and field."""
    return load_references(root).problems


def cite(workspace: Workspace, note: Note | None, page: int | None = None) -> str | None:
    """`Author Year, p. N` for a note with a citekey; None when the note names no source.

    `page` is a position in the source text; it is shown as the PDF's printed label.
    """
    if note is None or not note.citekey:
        return None
    paper = note.citekey.removesuffix(ABSTRACT_SUFFIX)
    label = paper_label(workspace.root, paper, note_paper_title(note))
    if paper != note.citekey:
        return f"{label}, abstract"
    if page is None:
        return label
    return f"{label}, p. {page_label(workspace.root, note.citekey, page)}"


def paper_year(root: str | os.PathLike[str], citekey: str) -> int | None:
    """The year of the paper filed as `citekey`: its reference's, else the year its key spells.

    A PDF added by name (`Smith 2020 trial.pdf` is `Smith-2020-trial`) has no reference,
    and its name is the only year it states.
    """
    reference = load_references(root).get(citekey)
    if reference is not None and reference.year:
        return reference.year
    found = _KEY_YEAR.search(citekey)
    return int(found.group(1)) if found else None


def reader_name(reference: Reference | None, title: str, citekey: str, pdf_name: str = "") -> str:
    """A paper as a reader names it: "Author Year" from its references entry or from the
    name Zotero gave its PDF ("Okafor et al. - 2021 - Title.pdf"), else its title (cut to
    `NAME_CHARS`), else its citekey: never an address."""
    if reference is not None and (reference.authors or reference.year):
        return reference.label
    zotero = zotero_name(pdf_name)
    if zotero is not None:
        return f"{zotero[0]} {zotero[1]}"
    title = " ".join((title or (reference.title if reference else "")).split())
    if not title or title == citekey:
        return citekey
    return title if len(title) <= NAME_CHARS else title[: NAME_CHARS - 1].rstrip() + "…"


def zotero_name(pdf_name: str) -> tuple[str, int, str] | None:
    """(who, year, title) of a PDF named the way Zotero names attachments, else None."""
    found = _ZOTERO_FILE.match(" ".join(Path(pdf_name).stem.split())) if pdf_name else None
    if found is None:
        return None
    return found.group("who"), int(found.group("year")), found.group("title")


def paper_label(root: str | os.PathLike[str], citekey: str, title: str = "") -> str:
    """The reader's name of the paper filed as `citekey` (`title` when nothing better)."""
    paper = citekey.removesuffix(ABSTRACT_SUFFIX)
    reference = load_references(root).get(paper)
    pdf = _sidecar(str(root), paper)[2] if is_address_safe(paper) else ""
    return reader_name(reference, title, paper, pdf)


def note_paper_title(note: Note) -> str:
    """The title of the paper a note stands for: a passage's paper, else the note's own."""
    if note.source == PASSAGE_BOX:
        place = passage_place(note.address, note.title)
        return place.paper_title if place is not None else ""
    return " ".join(note.title.split())


def page_label(root: str | os.PathLike[str], citekey: str, page: int) -> str:
    """The printed label of page position `page` (1-based) of a PDF-made source."""
    if not is_address_safe(citekey):
        return str(page)
    labels = _labels(str(root), citekey)
    return labels[page - 1] if 0 < page <= len(labels) else str(page)


def citations(workspace: Workspace, pages: Mapping[str, int | None]) -> dict[str, str]:
    """`Author Year, p. N` for each address (with its verified page) whose note has a source."""
    out = {}
    for address, page in pages.items():
        text = cite(workspace, workspace.note(address), page)
        if text is not None:
            out[address] = text
    return out


@lru_cache(maxsize=16)
def _load(root: str, stamps: tuple[Any, ...]) -> References:
    by_key: dict[str, Reference] = {}
    problems: list[str] = []
    for relative, stamp in stamps:
        if stamp is None:
            continue
        if stamp[0] > MAX_REFERENCE_BYTES:
            problems.append(f"{relative}: over the {MAX_REFERENCE_BYTES:,}-byte limit")
            continue
        fields: list[str] = []
        try:
            text = (Path(root) / relative).read_text(encoding="utf-8", errors="replace")
            if relative.endswith(".bib"):
                found, failed = _bibtex(text)
            else:
                found, failed = _csl(text, fields), 0
        except (OSError, ValueError) as exc:
            problems.append(f"{relative}: cannot read: {exc}")
            continue
        except Exception as exc:  # the BibTeX parser on hostile input; the file is reported
            problems.append(f"{relative}: cannot parse: {type(exc).__name__}")
            continue
        if failed:
            problems.append(f"{relative}: {failed} entr{'y' if failed == 1 else 'ies'} not parsed")
        problems.extend(f"{relative}: {field}" for field in fields[:MAX_NAMED_PROBLEMS])
        if len(fields) > MAX_NAMED_PROBLEMS:
            problems.append(f"{relative}: {len(fields) - MAX_NAMED_PROBLEMS:,} more fields ignored")
        for reference in found:
            known = by_key.get(reference.citekey)
            by_key[reference.citekey] = reference if known is None else _merged(known, reference)
    return References(by_key, tuple(problems))


def _merged(first: Reference, later: Reference) -> Reference:
    """The first file's fields, with what it left empty taken from a later file."""
    return Reference(
        first.citekey,
        first.title or later.title,
        first.authors or later.authors,
        first.year or later.year,
    )


def _bibtex(text: str) -> tuple[list[Reference], int]:
    # The parser logs each bad block; they are counted into the problems instead.
    logging.getLogger("bibtexparser").setLevel(logging.ERROR)
    library = parse_string(
        text, append_middleware=[middlewares.SeparateCoAuthors(), middlewares.SplitNameParts()]
    )
    return list(_entries(library)), len(library.failed_blocks)


def _entries(library: Library) -> Iterable[Reference]:
    for entry in library.entries:
        fields = {key.lower(): value.value for key, value in entry.fields_dict.items()}
        authors = fields.get("author") or fields.get("editor") or []
        names = tuple(
            _plain(" ".join(part.von + part.last)) for part in authors if hasattr(part, "last")
        )
        yield Reference(
            entry.key, _plain(str(fields.get("title", ""))), names, _year(fields.get("year"))
        )


def _csl(text: str, problems: list[str]) -> list[Reference]:
    """The CSL JSON items in `text`; each field of the wrong shape is named in `problems`."""
    items = jsonsafe.loads(text)
    if isinstance(items, dict):
        items = items.get("items", [])
    if not isinstance(items, list):
        raise ValueError("CSL JSON must be a list of items")
    out = []
    for n, item in enumerate(items, start=1):
        if not isinstance(item, dict):
            problems.append(f"item {n} is {_kind(item)}, not an object; skipped")
            continue
        ident = item.get("id")
        if not isinstance(ident, str | int) or isinstance(ident, bool):
            problems.append(f"item {n}: id is {_kind(ident)}, not a string; skipped")
            continue
        where = f"item {n} ({str(ident)[:40]!r})"
        title = item.get("title")
        if title is not None and not isinstance(title, str):
            problems.append(f"{where}: title is {_kind(title)}, not text; ignored")
        out.append(
            Reference(
                str(ident),
                title if isinstance(title, str) else "",
                _csl_names(item.get("author"), where, problems),
                _csl_year(item.get("issued"), where, problems),
            )
        )
    return out


def _csl_names(people: object, where: str, problems: list[str]) -> tuple[str, ...]:
    if people is None:
        return ()
    if not isinstance(people, list):
        problems.append(f"{where}: author is {_kind(people)}, not a list; ignored")
        return ()
    names = []
    for k, person in enumerate(people, start=1):
        name = person.get("family") or person.get("literal") if isinstance(person, dict) else None
        if not isinstance(name, str):
            problems.append(f"{where}: author {k} has no family or literal name; ignored")
            continue
        if name.strip():
            prefix = person.get("non-dropping-particle")
            names.append(f"{prefix} {name}" if isinstance(prefix, str) else name)
    return tuple(names)


def _csl_year(issued: object, where: str, problems: list[str]) -> int | None:
    if issued is None:
        return None
    if not isinstance(issued, dict):
        problems.append(f"{where}: issued is {_kind(issued)}, not an object; ignored")
        return None
    parts = issued.get("date-parts")
    year = None
    if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
        first = parts[0][0]
        year = _year(first) if isinstance(first, str | int) else None
        if year is None:
            problems.append(f"{where}: issued.date-parts starts with no year; ignored")
    elif parts is not None:
        problems.append(f"{where}: issued.date-parts is not a list of lists; ignored")
    raw = issued.get("raw")
    return year or (_year(raw[:4]) if isinstance(raw, str) else None)


def _kind(value: object) -> str:
    """What a JSON value is, in words: `a number`, `a list`, `missing`."""
    if value is None:
        return "missing"
    if isinstance(value, bool):
        return "true or false"
    names = {int: "a number", float: "a number", str: "text", list: "a list", dict: "an object"}
    return names.get(type(value), type(value).__name__)


@lru_cache(maxsize=256)
def _sidecar_cached(
    path: str, stamp: tuple[int, int]
) -> tuple[tuple[str, ...], dict[int, int], str]:
    try:
        data = jsonsafe.loads(Path(path).read_bytes())
    except (OSError, ValueError):
        return (), {}, ""
    if not isinstance(data, dict):
        return (), {}, ""
    labels = data.get("labels")
    if not isinstance(labels, list) or not all(isinstance(x, str) for x in labels):
        labels = []
    hidden: dict[int, int] = {}
    for entry in data.get("hidden_text") or ():
        page = entry.get("page") if isinstance(entry, dict) else None
        lines = entry.get("lines") if isinstance(entry, dict) else None
        if isinstance(page, int) and isinstance(lines, int) and lines > 0:
            hidden[page] = lines
    pdf = data.get("pdf")
    return tuple(labels), hidden, pdf if isinstance(pdf, str) else ""


def _sidecar(root: str, citekey: str) -> tuple[tuple[str, ...], dict[int, int], str]:
    safe = resolve_inside(root, f"{SOURCES_DIR}/{citekey}.pdf.json")
    try:
        info = safe.path.stat() if safe.path is not None else None
    except OSError:
        return (), {}, ""
    if info is None or info.st_size > 4 * 1024 * 1024:
        return (), {}, ""
    return _sidecar_cached(str(safe.path), (info.st_size, info.st_mtime_ns))


def _labels(root: str, citekey: str) -> tuple[str, ...]:
    return _sidecar(root, citekey)[0]


def hidden_lines(root: str | os.PathLike[str], citekey: str, page: int) -> int:
    """Lines of text the PDF held on page position `page` that a reader does not see, which
    `sources add` left out of the source text (0 when none, or not a PDF-made source)."""
    if not is_address_safe(citekey):
        return 0
    return _sidecar(str(root), citekey)[1].get(page, 0)


def _plain(text: str) -> str:
    # pylatexenc on odd input may raise anything; the raw text is still worth showing.
    with contextlib.suppress(Exception):
        text = _LATEX.latex_to_text(text)
    return " ".join(text.replace("{", "").replace("}", "").split())


def _year(value: object) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return value if 1000 <= value <= 9999 else None
    text = str(value or "").strip()[:4]
    return int(text) if text.isdigit() and len(text) == 4 else None

"""Import a Zotero library into a workspace: source notes, PDF texts, highlights, references.

Per item: a canon `source` note `.zettelkasten/<box>/<citekey>.md` (title, authors, year,
each highlight as a quote), the first PDF attachment's text in `sources/<citekey>.txt`,
its highlights in `sources/<citekey>.annotations.json`, and a CSL JSON entry in
`sources/zotero.csl.json` so the app can write "Author Year". A file is rewritten only
when its content changes, so re-running on an unchanged library writes nothing. Every
write goes through the import writer: a note you edited after the import is kept (and
reported), a link is never written through, and a citekey that cannot name a file is
reported and replaced by a generated one.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from engine.core.errors import ConfigError
from engine.importers.citekeys import bbt_citekey, citekey_problem
from engine.importers.duplicates import Duplicate, library_duplicates
from engine.importers.pdf_worker import Extractor
from engine.importers.sources import AddOptions, Outcome, SourceAdder, page_problems, reader
from engine.importers.zotero_db import (
    Attachment,
    Highlight,
    ZoteroItem,
    ZoteroLibrary,
    read_items,
)
from engine.text.fold import ascii_fold
from engine.workspace.import_reports import ImportProblem, ProblemKind, problem_kind
from engine.workspace.import_writer import ImportWriter
from engine.workspace.layout import CANON_DIR, SOURCES_DIR
from engine.workspace.notes import FEDERATED_PREFIX, is_address_safe
from engine.workspace.source_texts import ABSTRACT_SUFFIX

IMPORTER = "import zotero"

CSL_FILE = f"{SOURCES_DIR}/zotero.csl.json"
# libyaml's safe dumper when built (the same safe subset, several times faster).
_Dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
_STOP = frozenset("a an the of on in for and to with from by at is are do does".split())  # noqa: SIM905
# The importer's own front matter lines (yaml.safe_dump with sort_keys=False).
_OWN_ID = re.compile(r"^id: ([^\s'\"]+)$", re.M)
_OWN_KEY = re.compile(r"^zotero:\n  key: '?([A-Za-z0-9]+)'?$", re.M)
_CSL_TYPES = {"journalArticle": "article-journal", "book": "book", "bookSection": "chapter"}
_CSL_TYPES |= {"conferencePaper": "paper-conference", "thesis": "thesis", "report": "report"}
_CSL_TYPES |= {"preprint": "article", "webpage": "webpage"}


@dataclass(frozen=True)
class ZoteroReport:
    """What an import did: counts, the per-item problems, and how long it took.

    `duplicates` names the items (by citekey) that are likely one paper, among themselves or
    with a paper already in the workspace: the same DOI, title and year, or PDF text. Every
    item is imported all the same.
    """

    items: int
    notes_written: int
    notes_unchanged: int
    pdfs: dict[str, int]
    highlights: int
    problems: tuple[tuple[str, str], ...]
    seconds: float = field(default=0.0, compare=False)
    # What the library is like, not a problem with it: its Zotero version, its key store.
    notices: tuple[str, ...] = ()
    duplicates: tuple[Duplicate, ...] = ()
    # Each item's PDF problem by kind (a scan, a missing file), for the app's import record.
    issues: tuple[ImportProblem, ...] = ()
    pages: int = 0  # pages of the PDFs read

    def to_dict(self) -> dict[str, Any]:
        return {
            "notices": list(self.notices),
            "duplicates": [d.to_dict() for d in self.duplicates],
            "items": self.items,
            "notes_written": self.notes_written,
            "notes_unchanged": self.notes_unchanged,
            "pdfs": dict(sorted(self.pdfs.items())),
            "highlights": self.highlights,
            "problems": [{"item": item, "problem": text} for item, text in self.problems],
            "seconds": round(self.seconds, 3),
        }


def import_zotero(
    data_dir: str | os.PathLike[str],
    root: str | os.PathLike[str],
    *,
    box: str = "zotero",
    options: AddOptions | None = None,
    extractor: Extractor | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> ZoteroReport:
    """Import the library in Zotero's data folder `data_dir` into the workspace at `root`.

    `options` carries `replace` and the PDF budget (its citekey is ignored); `extractor`
    reads the PDFs (see `sources.add_pdfs`); `progress(done, total)` is called after each
    item.
    """
    started = time.perf_counter()
    options = options or AddOptions()
    if not is_address_safe(box) or box.startswith(FEDERATED_PREFIX):
        raise ConfigError(f"box {box!r} is not a usable box name")
    root = Path(root)
    # Read first: a library that cannot be read leaves no folder behind.
    library = read_items(Path(data_dir))
    root.mkdir(parents=True, exist_ok=True)
    # An item with no title is a stub (a note's parent, a failed capture): it is named in
    # the report and left out, never filed under a made-up name. One with nothing at all
    # (a click on "New Item" never filled in) is no problem with the library: a notice.
    items = tuple(item for item in library.items if item.field("title").strip())
    untitled = [item for item in library.items if not item.field("title").strip()]
    empty = [item for item in untitled if _empty(item)]
    untitled = [item for item in untitled if not _empty(item)]
    box_dir = root / CANON_DIR / box
    earlier = earlier_citekeys(box_dir)
    keys = assign_citekeys(items, earlier)
    with (
        ImportWriter(root, IMPORTER, replace=options.replace) as files,
        reader(extractor, options.budget) as worker,
    ):
        writer = _Writer(files, SourceAdder(files, worker, options))
        writer.problems.extend((item.key, why) for item, why in citekey_fixes(items, keys))
        writer.problems.extend((item.key, "has no title; left out") for item in untitled)

        for item in items:
            old = earlier.get(item.key)
            if old is not None and old != keys[item.key]:
                writer.remove(
                    f"{CANON_DIR}/{box}/{old}.md", _origin(item), f"re-keyed as {keys[item.key]}"
                )
        pdfs: dict[str, int] = {}
        highlights = 0
        for item in items:
            attachment = _main_attachment(item.attachments)
            outcome = writer.item(item, keys[item.key], attachment, box=box)
            pdfs[outcome] = pdfs.get(outcome, 0) + 1
            if progress is not None:
                progress(sum(pdfs.values()), len(items))
            highlights += len(attachment.highlights) if attachment else 0
        csl = [csl_item(item, keys[item.key]) for item in items]
        writer.write(CSL_FILE, json.dumps(csl, indent=1, ensure_ascii=False) + "\n", "zotero")
        writer.problems.extend((".synapse", notice) for notice in files.problems)
    return ZoteroReport(
        duplicates=library_duplicates(root, items, keys),
        items=len(items),
        notes_written=writer.written,
        notes_unchanged=writer.unchanged,
        pdfs=pdfs,
        highlights=highlights,
        problems=tuple(writer.problems),
        seconds=time.perf_counter() - started,
        issues=tuple(writer.issues),
        pages=writer.pages,
        notices=_notices(library)
        + tuple(
            f"item {item.key} is empty (no title, fields or attachment); skipped" for item in empty
        ),
    )


def _empty(item: ZoteroItem) -> bool:
    """True for an item with no field value, no creator and no attachment."""
    blank = not any(value.strip() for _, value in item.fields)
    return blank and not item.creators and not item.attachments


def _notices(library: ZoteroLibrary) -> tuple[str, ...]:
    out = []
    if not library.annotations:
        out.append("no highlights in this Zotero version (its database predates Zotero 6)")
    if library.key_store:
        out.append(f"citekeys from Better BibTeX's {library.key_store}")
    return tuple(out)


def attachment_pdfs(data_dir: str | os.PathLike[str]) -> list[Path]:
    """The PDF each item's text is read from, in import order (items without one left out)."""
    found = (_main_attachment(item.attachments) for item in read_items(Path(data_dir)).items)
    return [a.path for a in found if a is not None and a.path is not None]


def citekey_fixes(
    items: Sequence[ZoteroItem], keys: Mapping[str, str]
) -> list[tuple[ZoteroItem, str]]:
    """Items whose own citekey (Better BibTeX's or Zotero's) was not used, and why."""
    out = []
    for item in items:
        own, used = item.citekey, keys[item.key]
        if not own or own == used:
            continue
        problem = citekey_problem(own)
        why = f"citekey {own[:60]!r}{'…' if len(own) > 60 else ''} " + (
            problem or "is already another item's"
        )
        out.append((item, f"{why}; filed as {used} instead"))
    return out


def assign_citekeys(
    items: Sequence[ZoteroItem], earlier: Mapping[str, str] | None = None
) -> dict[str, str]:
    """Each item's citekey by Zotero key: its own (Better BibTeX or Zotero's) when usable.

    Otherwise the key an earlier import gave it (`earlier`, by Zotero key), so editing a
    title never renames a source; otherwise `<lastname><year><first title word>`, where
    among items that would share one the earliest added keeps it and later ones get `b`,
    `c`, ….
    """
    earlier = earlier or {}
    keys: dict[str, str] = {}
    taken: set[str] = set()
    for item in items:
        if item.citekey and citekey_problem(item.citekey) is None and item.citekey not in taken:
            keys[item.key] = item.citekey
            taken.add(item.citekey)
    for item in items:
        old = earlier.get(item.key)
        if item.key not in keys and old and citekey_problem(old) is None and old not in taken:
            keys[item.key] = old
            taken.add(old)
    for item in items:
        if item.key in keys:
            continue
        base = generated_citekey(item)
        candidate, n = base, 1
        while candidate in taken:
            n += 1
            candidate = base + _suffix(n)
        keys[item.key] = candidate
        taken.add(candidate)
    return keys


def earlier_citekeys(box_dir: Path) -> dict[str, str]:
    """Zotero key → citekey of the notes an earlier import wrote into `box_dir`."""
    out: dict[str, str] = {}
    try:
        entries = sorted(box_dir.glob("*.md"))
    except OSError:
        return out
    for path in entries:
        try:
            head = path.read_bytes()[:8192].decode("utf-8", errors="replace")
        except OSError:
            continue
        note_id, zotero = _OWN_ID.search(head), _OWN_KEY.search(head)
        if note_id and zotero and note_id.group(1) == path.stem:
            out.setdefault(zotero.group(1), path.stem)
    return out


def generated_citekey(item: ZoteroItem) -> str:
    """`jegadeesh1993returns` from the first author, the year and the first title word.

    Better BibTeX's default shape: particles stay with the name ("De Bock" → `debock`).
    """
    author = item.creators[0].last if item.creators else ""
    return bbt_citekey(author, item.year, item.field("title")) or f"zotero-{item.key.lower()}"


def source_note(item: ZoteroItem, citekey: str, attachment: Attachment | None) -> str:
    """The Markdown text of an item's canon source note."""
    meta: dict[str, Any] = {
        "id": citekey,
        "type": "source",
        "title": item.field("title") or citekey,
        "source": citekey,
        "authors": [author_name(c.last, c.first) for c in item.creators],
        "year": item.year,
        "zotero": {"key": item.key, "library": item.library},
    }
    marks = attachment.highlights if attachment else ()
    if marks:
        meta["quotes"] = [
            {"id": f"z-{mark.key}", "body": mark.text, "page": mark.page} for mark in marks
        ]
    body = [item.field("abstractNote").strip()] + [mark.text for mark in marks]
    front = yaml.dump(meta, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=1000)
    return f"---\n{front}---\n" + "\n\n".join(part for part in body if part) + "\n"


def author_name(last: str, first: str) -> str:
    return f"{last}, {first}" if first else last


def csl_item(item: ZoteroItem, citekey: str) -> dict[str, Any]:
    """The item as CSL JSON (the fields the app shows)."""
    out: dict[str, Any] = {"id": citekey, "type": _CSL_TYPES.get(item.type, "document")}
    out["title"] = item.field("title")
    out["author"] = [
        {"family": c.last, "given": c.first} if c.first else {"literal": c.last}
        for c in item.creators
    ]
    if item.year:
        out["issued"] = {"date-parts": [[item.year]]}
    for name, csl_name in (("publicationTitle", "container-title"), ("DOI", "DOI")):
        if item.field(name):
            out[csl_name] = item.field(name)
    return out


def _main_attachment(attachments: Sequence[Attachment]) -> Attachment | None:
    """The PDF with highlights if one has them, else the first PDF."""
    return next((a for a in attachments if a.highlights), attachments[0] if attachments else None)


def _annotations(marks: Sequence[Highlight]) -> str:
    entries = [{"text": m.text, "page": m.page, "color": m.color, "label": m.label} for m in marks]
    return json.dumps(entries, indent=1, ensure_ascii=False) + "\n"


def _origin(item: ZoteroItem) -> str:
    return f"zotero:{item.library}:{item.key}"


class _Writer:
    """One import's files through its `ImportWriter`: counts notes, collects problems."""

    def __init__(self, files: ImportWriter, adder: SourceAdder):
        self.files = files
        self.adder = adder
        self.written = 0
        self.unchanged = 0
        self.problems: list[tuple[str, str]] = []
        self.issues: list[ImportProblem] = []
        self.pages = 0

    def write(self, relative: str, text: str, origin: str, *, optional: bool = False) -> None:
        try:
            checked = self.files.write(relative, text, origin, optional=optional)
        except OSError as exc:
            self.problems.append((relative, f"cannot write: {exc.strerror or exc}"))
            return
        if not checked.allowed:
            self.problems.append((relative, checked.reason))
        elif relative.endswith(".md"):
            self.written += not checked.unchanged
            self.unchanged += checked.unchanged

    def remove(self, relative: str, origin: str, why: str) -> None:
        checked = self.files.remove(relative, origin)
        if not checked.allowed:
            self.problems.append(
                (relative, f"not removed although the item was {why}: " + checked.reason)
            )
        elif not checked.unchanged:
            self.problems.append((relative, f"removed: the item was {why}"))

    def item(
        self, item: ZoteroItem, citekey: str, attachment: Attachment | None, *, box: str
    ) -> str:
        """Write one item's PDF text, highlights and note; the PDF's outcome."""
        origin = _origin(item)
        outcome = self.pdf(citekey, attachment, origin)
        marks = attachment.highlights if attachment else ()
        self.write(
            f"{SOURCES_DIR}/{citekey}.annotations.json",
            _annotations(marks),
            origin,
            optional=not marks,
        )
        # The abstract as recorded is a source of its own, so its sentences are quotable
        # evidence; the same sentences found in the PDF cite the PDF's page instead.
        abstract = " ".join(item.field("abstractNote").split())
        self.write(
            f"{SOURCES_DIR}/{citekey}{ABSTRACT_SUFFIX}.txt",
            abstract + "\n" if abstract else "",
            origin,
            optional=not abstract,
        )
        self.write(
            f"{CANON_DIR}/{box}/{citekey}.md", source_note(item, citekey, attachment), origin
        )
        return outcome

    def pdf(self, citekey: str, attachment: Attachment | None, origin: str) -> str:
        if attachment is None:
            return "none"
        shown = attachment.path.name if attachment.path is not None else str(attachment.stored)
        if attachment.path is None:
            self.problems.append((citekey, f"PDF path {attachment.stored!r} cannot be resolved"))
            self.issues.append(ImportProblem(shown, ProblemKind.MISSING_PDF, "", citekey))
            return "unresolved"
        if not attachment.path.is_file():
            self.problems.append((citekey, f"PDF {attachment.path} is missing"))
            self.issues.append(ImportProblem(shown, ProblemKind.MISSING_PDF, "", citekey))
            return "missing"
        added = self.adder.add(attachment.path, citekey, origin)
        if added.outcome is Outcome.FAILED:
            self.problems.append((citekey, f"{added.kind}: {added.problem}"))
            kind = problem_kind(added.kind)
            self.issues.append(ImportProblem(shown, kind, added.problem, citekey))
        else:
            self.pages += added.pages
            self.issues.extend(page_problems(added, shown))
        return added.outcome.value


def _ascii(text: str) -> str:
    plain = ascii_fold(text).lower()
    return re.sub(r"[^a-z0-9 ]+", "", plain)


def _suffix(n: int) -> str:
    letters = ""
    while n > 0:
        n, rest = divmod(n - 1, 26)
        letters = chr(ord("a") + rest) + letters
    return letters

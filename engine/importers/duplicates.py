"""Likely duplicates among a workspace's papers: the same DOI, title and year, or text.

A library often holds one paper twice: the preprint and the published version, or the same
PDF under two names. An import reports them and keeps both (which one is right is the
reader's call; an answer whose sentence both state cites the first by year and names the
other). Three signs, each enough on its own:

- the same DOI (`https://doi.org/`, `doi:` and case folded away);
- the same title and year (the title's letters and digits compared, case and punctuation
  folded away; a title of one word says too little to compare);
- the same text: the source texts hash alike once spacing is collapsed (a text without a
  letter, such as a scanned PDF's empty pages, is never a duplicate of another).
"""

from __future__ import annotations

import hashlib
import os
import re
import unicodedata
from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from engine.core import jsonsafe
from engine.core.errors import WorkspaceError
from engine.importers.zotero_db import ZoteroItem
from engine.workspace.layout import SOURCES_DIR
from engine.workspace.references import paper_year
from engine.workspace.source_texts import ABSTRACT_SUFFIX, MAX_SOURCE_BYTES, source_keys
from engine.workspace.user_files import look, workspace_file

_LETTER = re.compile(r"[^\W\d_]")
_NOT_WORD = re.compile(r"[\W_]+")
_DOI_PREFIX = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*)", re.I)


class Basis(StrEnum):
    """What two papers share that makes them likely one paper."""

    DOI = "doi"
    TITLE_YEAR = "title-year"
    TEXT = "text"


_WORDS = {Basis.DOI: "DOI", Basis.TITLE_YEAR: "title and year", Basis.TEXT: "text"}


@dataclass(frozen=True)
class Paper:
    """What a paper is compared on: its citekey, DOI, title, year and its text's digest."""

    key: str
    doi: str = ""
    title: str = ""
    year: int | None = None
    text_digest: str = ""


@dataclass(frozen=True)
class Duplicate:
    """Papers (citekeys, sorted) that are likely one, and every sign they share."""

    keys: tuple[str, ...]
    bases: tuple[Basis, ...]

    def words(self) -> str:
        """The report's line: "likely duplicates (same text): smith2019, smith2019b"."""
        same = ", ".join(_WORDS[b] for b in self.bases)
        return f"likely duplicates (same {same}): " + ", ".join(self.keys)

    def to_dict(self) -> dict[str, Any]:
        return {"papers": list(self.keys), "same": [b.value for b in self.bases]}


def likely_duplicates(
    papers: Iterable[Paper], *, involving: Collection[str] | None = None
) -> tuple[Duplicate, ...]:
    """Groups of papers sharing a DOI, a title and year, or a text; both papers are kept.

    With `involving`, only groups holding at least one of those citekeys are reported (an
    import names the duplicates it took part in, not every old one again).
    """
    papers = list(papers)
    groups: dict[tuple[str, ...], list[Basis]] = defaultdict(list)
    for basis in Basis:
        found: dict[str, set[str]] = defaultdict(set)
        for paper in papers:
            sign = _sign(paper, basis)
            if sign:
                found[sign].add(paper.key)
        for keys in found.values():
            if len(keys) > 1:
                groups[tuple(sorted(keys))].append(basis)
    out = [
        Duplicate(keys, tuple(bases))
        for keys, bases in groups.items()
        if involving is None or set(keys) & set(involving)
    ]
    return tuple(sorted(out, key=lambda d: d.keys))


def _sign(paper: Paper, basis: Basis) -> str:
    if basis is Basis.DOI:
        return normal_doi(paper.doi)
    if basis is Basis.TEXT:
        return paper.text_digest
    title = normal_title(paper.title)
    return f"{title}|{paper.year}" if title and paper.year else ""


def normal_doi(doi: str) -> str:
    """A DOI as compared: its resolver prefix dropped, case folded; "" for none."""
    doi = _DOI_PREFIX.sub("", doi.strip()).strip().lower()
    return doi if doi.startswith("10.") and "/" in doi else ""


def normal_title(title: str) -> str:
    """A title as compared: its words, case and punctuation folded; "" under two words."""
    words = _NOT_WORD.sub(" ", unicodedata.normalize("NFKC", title).casefold()).split()
    return " ".join(words) if len(words) >= 2 else ""


def text_digest(text: str) -> str:
    """The hash of a text with its spacing collapsed; "" for a text without a letter."""
    flat = " ".join(text.split())
    if not _LETTER.search(flat):
        return ""
    return hashlib.sha256(flat.encode("utf-8")).hexdigest()


def source_digest(root: str | os.PathLike[str], key: str) -> str:
    """The digest of `sources/<key>.txt` as it is now; "" when unreadable or absent."""
    try:
        found = look(workspace_file(root, f"{SOURCES_DIR}/{key}.txt"), max_bytes=MAX_SOURCE_BYTES)
    except (OSError, WorkspaceError):
        return ""
    if found.data is None:
        return ""
    return text_digest(found.data.decode("utf-8", errors="replace"))


def workspace_papers(root: str | os.PathLike[str]) -> list[Paper]:
    """Every paper text of the workspace's `sources/` (abstracts aside), with the title a
    PDF import recorded and the year its reference or citekey gives."""
    out = []
    for key in source_keys(Path(root)):
        if key.endswith(ABSTRACT_SUFFIX):
            continue
        side = _sidecar(root, key)
        title = side.get("title")
        out.append(
            Paper(
                key,
                title=title if isinstance(title, str) else "",
                year=paper_year(root, key),
                text_digest=source_digest(root, key),
            )
        )
    return out


def _sidecar(root: str | os.PathLike[str], key: str) -> dict[str, Any]:
    try:
        found = look(workspace_file(root, f"{SOURCES_DIR}/{key}.pdf.json"), max_bytes=1 << 20)
        value = jsonsafe.loads(found.data) if found.data is not None else {}
    except (OSError, ValueError, WorkspaceError):
        return {}
    return value if isinstance(value, dict) else {}


def library_duplicates(
    root: Path, items: Sequence[ZoteroItem], keys: Mapping[str, str]
) -> tuple[Duplicate, ...]:
    """The Zotero `items` (filed under `keys`, by Zotero key) that are likely one paper, with
    each other or with a source already in the workspace."""
    mine = {keys[item.key] for item in items}
    papers = [
        Paper(
            keys[item.key],
            doi=item.field("DOI"),
            title=item.field("title"),
            year=item.year,
            text_digest=source_digest(root, keys[item.key]),
        )
        for item in items
    ]
    papers += [p for p in workspace_papers(root) if p.key not in mine]
    return likely_duplicates(papers, involving=mine)

"""Citekeys: which names may become `sources/<citekey>.txt` and a note's id, and the fixes.

A citekey names files (`sources/<key>.txt`, `sources/<key>.annotations.json`, a Zotero
note `<key>.md`) and sits in a note's address, so it must be address-safe, must not start
with a dot (the file would be hidden and never load), and must leave room for the longest
suffix within a file name's 255 bytes.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from engine.text.fold import ascii_fold
from engine.workspace.notes import is_address_safe

# 255 bytes of a file name, less the longest suffix written after a key
# (`.annotations.json`) and room to spare.
MAX_CITEKEY_BYTES = 200
# A key made from a long file name is cut to this, plus a short hash of the whole name.
_CUT_TO = 100


def citekey_problem(key: str) -> str | None:
    """Why `key` cannot be used as a citekey, or None when it can."""
    if not key:
        return "is empty"
    if not is_address_safe(key):
        return "contains '/', ':', whitespace or control characters"
    if key.startswith("."):
        return "starts with '.', which would make a hidden file that never loads"
    size = len(key.encode("utf-8", errors="surrogatepass"))
    if size > MAX_CITEKEY_BYTES:
        return f"is {size:,} bytes long, over the {MAX_CITEKEY_BYTES}-byte limit of a file name"
    return None


# Words Better BibTeX skips when it picks a title word for a key.
_SKIPPED_TITLE_WORDS = frozenset(
    """
    a an the some from on in to of do with and or for by at as is are be via into about
    der die das ein eine einer eines einem einen und le la les l un une des de du el los
    las al uno una unos unas del
    """.split()  # noqa: SIM905
)
# Zotero's default file name: "{firstCreator} - {year} - {title}.pdf".
_ZOTERO_NAME = re.compile(r"^(?P<author>.+?) - (?P<year>\d{4}) - (?P<title>.+)$")
_SECOND_AUTHOR = re.compile(r"\s+(?:et al\.?|and|&)(?:\s.*)?$", re.IGNORECASE)


def bbt_citekey(last_name: str, year: int | str | None, title: str) -> str:
    """A key in Better BibTeX's default shape, `<author><year><titleword>`, lower case.

    The author's particles stay part of the name: "De Bock" gives `debock`, "van der Berg"
    `vanderberg`. The title word is the first that is not a function word. Without an
    author, the title word leads.
    """
    author = _plain(last_name).replace(" ", "")
    words = [w for w in _plain(title).split() if w not in _SKIPPED_TITLE_WORDS]
    word = words[0] if words else ""
    year = str(year or "")
    return (author[:40] + year + word[:40]) if author else (word[:40] + year)


def _plain(text: str) -> str:
    folded = ascii_fold(text).lower()
    return " ".join(re.sub(r"[^a-z0-9 ]+", " ", folded).split())


def citekey_from_name(name: str) -> str:
    """An address-safe citekey from a file name: `Smith 2020 (draft).pdf` → `Smith-2020-draft`.

    A file Zotero named ("Fekom et al. - 2020 - Optimal control of ….pdf") gets Better
    BibTeX's default key instead (`fekom2020optimal`). A very long name is cut, and a hash
    of the whole name keeps two long names that share their start apart.
    """
    stem = Path(name).stem if name.lower().endswith(".pdf") else name
    zotero = _ZOTERO_NAME.match(" ".join(stem.split()))
    if zotero is not None:
        author = _SECOND_AUTHOR.sub("", zotero.group("author")).strip(" ,")
        key = bbt_citekey(author, zotero.group("year"), zotero.group("title"))
        if key and citekey_problem(key) is None:
            return key
    ascii_only = ascii_fold(stem)
    key = re.sub(r"[^A-Za-z0-9_.+-]+", "-", ascii_only)
    key = re.sub(r"\.{2,}", ".", key).strip("-.")
    if len(key) > _CUT_TO:
        digest = hashlib.sha256(stem.encode("utf-8", errors="surrogatepass")).hexdigest()[:8]
        key = f"{key[:_CUT_TO].rstrip('-.')}-{digest}"
    return key or "source"

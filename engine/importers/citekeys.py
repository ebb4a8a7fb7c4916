"""Citekeys: which names may become `sources/<citekey>.txt` and a note's id, and the fixes.

A citekey names files (`sources/<key>.txt`, `sources/<key>.annotations.json`, a Zotero
note `<key>.md`) and sits in a note's address, so it must be address-safe, must not start
with a dot (the file would be hidden and never load), and must leave room for the longest
suffix within a file name's 255 bytes.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from pathlib import Path

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


def citekey_from_name(name: str) -> str:
    """An address-safe citekey from a file name: `Smith 2020 (draft).pdf` → `Smith-2020-draft`.

    A very long name is cut, and a hash of the whole name keeps two long names that share
    their start apart.
    """
    stem = Path(name).stem if name.lower().endswith(".pdf") else name
    ascii_only = unicodedata.normalize("NFKD", stem).encode("ascii", "ignore").decode()
    key = re.sub(r"[^A-Za-z0-9_.+-]+", "-", ascii_only)
    key = re.sub(r"\.{2,}", ".", key).strip("-.")
    if len(key) > _CUT_TO:
        digest = hashlib.sha256(stem.encode("utf-8", errors="surrogatepass")).hexdigest()[:8]
        key = f"{key[:_CUT_TO].rstrip('-.')}-{digest}"
    return key or "source"

"""The full texts of a workspace's sources as read now: `sources/<key>.txt` and their sidecars.

A source's text is pages split by form feeds (from a PDF, a Zotero attachment, an abstract as
`<key>.abstract.txt`). The folder is opened once without following a link; a file that is a
link, not a regular file or over the size cap is not read.
"""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from engine.workspace.notes import FileStamp, is_address_safe

ABSTRACT_SUFFIX = ".abstract"
# The cap the quote check puts on a source it reads (`engine.core.verifiers`).
MAX_SOURCE_BYTES = 20 * 1024 * 1024
_ZOTERO_NAME = re.compile(r"^.+? - \d{4} - (?P<title>.+)$")


def paper_key(key: str) -> str:
    """The paper a source key belongs to: an abstract's paper, or the key itself."""
    return key[: -len(ABSTRACT_SUFFIX)] if key.endswith(ABSTRACT_SUFFIX) else key


def source_keys(root: Path) -> list[str]:
    """The keys of `sources/*.txt` that can name a source, sorted."""
    try:
        return sorted(_keys(os.listdir(root / "sources")))
    except OSError:
        return []


def _keys(names: Iterable[str]) -> list[str]:
    keys = [name[: -len(".txt")] for name in names if name.endswith(".txt")]
    return [key for key in keys if is_address_safe(key) and not key.startswith(".")]


@dataclass(frozen=True)
class SourceText:
    """One source file as read now: its key, text, content hash and page labels."""

    key: str
    text: str
    stamp: FileStamp
    labels: tuple[str, ...] = ()
    title: str = ""


def read_sources(root: Path, titles: Mapping[str, str]) -> list[SourceText]:
    """Every readable `sources/*.txt` of the workspace at `root`, sorted by key, titled by
    `titles` (paper key → title), else by its sidecar or its first line."""
    try:
        folder = os.open(root / "sources", os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    except OSError:
        return []
    out = []
    try:
        names = set(os.listdir(folder))
        for key in sorted(_keys(names)):
            data = _read_at(folder, f"{key}.txt", MAX_SOURCE_BYTES)
            if data is None:
                continue
            text = data[0].decode("utf-8", errors="replace")
            side = (
                _sidecar(folder, f"{paper_key(key)}.pdf.json")
                if f"{paper_key(key)}.pdf.json" in names
                else {}
            )
            labels = side.get("labels")
            labels = (
                tuple(labels)
                if isinstance(labels, list) and all(isinstance(x, str) for x in labels)
                else ()
            )
            title = titles.get(paper_key(key)) or _title(side) or _first_line(text)
            stamp = FileStamp.of(data[0], mtime_ns=data[1])
            out.append(SourceText(key, text, stamp, labels, title))
    finally:
        os.close(folder)
    return out


def _sidecar(folder: int, name: str) -> dict[str, object]:
    data = _read_at(folder, name, 1024 * 1024)
    try:
        loaded = json.loads(data[0]) if data is not None else {}
    except (ValueError, RecursionError):
        return {}
    return loaded if isinstance(loaded, dict) else {}


def _title(side: dict[str, object]) -> str:
    """The paper's title: the PDF's own, or the one in a name Zotero gave the file."""
    title = side.get("title")
    if isinstance(title, str) and title.strip():
        return " ".join(title.split())
    name = side.get("pdf")
    if isinstance(name, str):
        found = _ZOTERO_NAME.match(" ".join(Path(name).stem.split()))
        if found is not None:
            return found.group("title")
    return ""


def _first_line(text: str) -> str:
    """The first line of the first page when it reads like a title (a few words)."""
    first = next((line.strip() for line in text.split("\f", 1)[0].splitlines() if line.strip()), "")
    return first if 2 <= len(first.split()) <= 25 and not first.endswith(".") else ""


def _read_at(folder: int, name: str, limit: int) -> tuple[bytes, int] | None:
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=folder)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
            return None
        chunks = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
        return b"".join(chunks), info.st_mtime_ns
    except OSError:
        return None
    finally:
        os.close(fd)

"""The importers' record of what they wrote: each file's content hash and where it came from.

`.synapse/imports/manifest.json` maps a workspace path to the sha256 of the bytes an import
last wrote there, the origin of those bytes (`pdf:Smith 2020.pdf`, `zotero:1:ABCD1234`,
`scifact`) and the command that wrote them. An import replaces a file only when its current
bytes hash to what the record says, so a file the user made or edited is never replaced.

Before a file is replaced, the intended hash is appended to `.synapse/imports/journal.jsonl`;
the manifest is rewritten (atomically) once, when the import ends, and the journal removed.
A run killed part-way leaves journal lines behind, so the next run still recognises every
file the killed one wrote (its bytes hash to a journal line) and finishes the work.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.core import jsonsafe
from engine.core.errors import WorkspaceError
from engine.workspace.atomic import (
    AppFile,
    open_append,
    open_parent,
    read_app_file,
    synapse_path,
    write_atomic,
)
from engine.workspace.layout import IMPORT_LOCK, JOURNAL_FILE, MANIFEST_FILE

LOCK_FILE = IMPORT_LOCK
VERSION = 1
_SHA256 = re.compile(r"\A[0-9a-f]{64}\Z")


@dataclass(frozen=True)
class Entry:
    """One file an import wrote: the hash of its bytes, their origin and the command."""

    sha256: str
    origin: str
    by: str

    def to_dict(self) -> dict[str, Any]:
        return {"sha256": self.sha256, "origin": self.origin, "by": self.by}


@dataclass(frozen=True)
class Record:
    """The manifest as read, with the journal of an unfinished run and what was unreadable."""

    entries: Mapping[str, Entry]
    pending: Mapping[str, tuple[Entry, ...]] = field(default_factory=dict)
    problems: tuple[str, ...] = ()

    def owner(self, relative: str, sha256: str | None) -> Entry | None:
        """The entry proving an import wrote `sha256` at `relative`, or None."""
        if sha256 is None:
            return None
        candidates = (self.entries.get(relative), *self.pending.get(relative, ()))
        return next((e for e in reversed(candidates) if e and e.sha256 == sha256), None)

    def knows(self, relative: str) -> bool:
        """Whether an import ever wrote `relative` (whatever it holds now)."""
        return relative in self.entries or relative in self.pending


def read_record(root: str | os.PathLike[str]) -> Record:
    """The manifest and journal of the workspace at `root`; unreadable parts are problems.

    Never raises for their content: a manifest that does not parse counts as empty (so
    nothing is taken for the importers' own), and a torn journal line is skipped.
    """
    problems: list[str] = []
    entries: dict[str, Entry] = {}
    data = _read(root, MANIFEST_FILE, problems)
    if data is not None:
        try:
            value = jsonsafe.loads(data)
        except ValueError as exc:
            problems.append(f"{MANIFEST_FILE}: cannot read: {exc}")
            value = {}
        files = value.get("files") if isinstance(value, dict) else None
        if not isinstance(files, dict):
            problems.append(f"{MANIFEST_FILE}: field 'files' is not an object")
            files = {}
        for relative, item in files.items():
            entry = _entry(item)
            if entry is None:
                problems.append(f"{MANIFEST_FILE}: entry {relative[:80]!r} is malformed")
            else:
                entries[relative] = entry
    pending: dict[str, list[Entry]] = {}
    journal = _read(root, JOURNAL_FILE, problems)
    for line in (journal or b"").splitlines():
        try:
            item = jsonsafe.loads(line, max_depth=2)
        except ValueError:
            continue  # a line torn by a kill
        entry = _entry(item)
        if entry is not None and isinstance(item, dict) and isinstance(item.get("path"), str):
            pending.setdefault(item["path"], []).append(entry)
    return Record(entries, {k: tuple(v) for k, v in pending.items()}, tuple(problems))


def save_record(root: str | os.PathLike[str], entries: Mapping[str, Entry]) -> None:
    """Write the manifest atomically, then drop the journal it now covers."""
    files = {relative: entries[relative].to_dict() for relative in sorted(entries)}
    text = json.dumps({"version": VERSION, "files": files}, indent=1, ensure_ascii=False)
    write_atomic(synapse_path(root, MANIFEST_FILE), text + "\n")
    journal = synapse_path(root, JOURNAL_FILE)
    with contextlib.suppress(FileNotFoundError), open_parent(journal, create=False) as folder:
        os.unlink(journal.name, dir_fd=folder)


class Journal:
    """The journal, open for appending one intent a line for the length of an import."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.file: AppFile = synapse_path(root, JOURNAL_FILE)
        self._fd = open_append(self.file)

    def intend(self, relative: str, entry: Entry) -> None:
        """Record, before the write, that `relative` is about to hold bytes hashing to `entry`.

        One `write` call per line, so a kill leaves whole lines or a torn last one; the
        line reaches the disk with the import's final sync.
        """
        line = json.dumps({"path": relative, **entry.to_dict()}, ensure_ascii=False) + "\n"
        data = line.encode("utf-8")
        if os.write(self._fd, data) != len(data):
            raise OSError(f"short write to {self.file.relative}")

    def close(self) -> None:
        os.close(self._fd)


def merged(record: Record, written: Mapping[str, Entry], gone: Iterable[str]) -> dict[str, Entry]:
    """The manifest after a run: the record, what the run wrote, and without what it removed."""
    out = dict(record.entries)
    out.update(written)
    for relative in gone:
        out.pop(relative, None)
    return out


def _entry(item: object) -> Entry | None:
    if not isinstance(item, dict):
        return None
    sha, origin, by = (item.get(key) for key in ("sha256", "origin", "by"))
    if not (isinstance(sha, str) and _SHA256.match(sha)):
        return None
    if not (isinstance(origin, str) and isinstance(by, str)):
        return None
    return Entry(sha, origin, by)


def _read(root: str | os.PathLike[str], relative: str, problems: list[str]) -> bytes | None:
    try:
        return read_app_file(synapse_path(root, relative))
    except FileNotFoundError:
        return None
    except (OSError, WorkspaceError) as exc:
        problems.append(f"{relative}: cannot read: {exc}")
        return None

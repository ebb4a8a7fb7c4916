"""The one way an importer writes into a workspace: never through a link, never over your files.

Every importer (`sources add`, `import zotero`, `import scifact`) writes through an
`ImportWriter`. For each file it looks at what stands at the name without following a link
(`user_files.look`) and writes only when:

- nothing is there, or the bytes there are the ones an import wrote (the manifest's hash,
  `manifest.py`), from the same origin (a PDF's name, a Zotero item) — or `replace` is set;
- the name is not a symbolic link, not a hard link to another file, not a folder or FIFO, and
  no folder on the way is a link — whatever `replace` says.

A file is written to a temporary file beside it and renamed over it; the whole import is
made durable at `close`, when the manifest is saved. Refused files are reported, one value
each (`Checked`), and the import goes on with the next one.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from dataclasses import dataclass
from enum import StrEnum

from engine.core.errors import WorkspaceError
from engine.workspace.atomic import AppFile, file_lock, synapse_path, sync_files, write_atomic
from engine.workspace.manifest import (
    LOCK_FILE,
    Entry,
    Journal,
    merged,
    read_record,
    save_record,
)
from engine.workspace.user_files import Existing, FileKind, look, remove, workspace_file


class Refusal(StrEnum):
    """Why an import left a file alone."""

    UNSAFE_NAME = "unsafe-name"
    SYMLINK = "symlink"
    HARD_LINK = "hard-link"
    NOT_A_FILE = "not-a-file"
    BLOCKED = "link-on-the-way"
    NOT_OURS = "not-imported"
    EDITED = "edited"
    CLASH = "other-origin"


# Refusals `replace` lifts; the others protect what a link points to and always hold.
_REPLACEABLE = frozenset({Refusal.NOT_OURS, Refusal.EDITED, Refusal.CLASH})
_BY_KIND = {
    FileKind.SYMLINK: Refusal.SYMLINK,
    FileKind.HARD_LINK: Refusal.HARD_LINK,
    FileKind.FOLDER: Refusal.NOT_A_FILE,
    FileKind.SPECIAL: Refusal.NOT_A_FILE,
    FileKind.BLOCKED: Refusal.BLOCKED,
}


@dataclass(frozen=True)
class Checked:
    """What an import may do with one file: write it, leave it (unchanged), or refuse."""

    relative: str
    refusal: Refusal | None = None
    unchanged: bool = False
    detail: str = ""

    @property
    def allowed(self) -> bool:
        return self.refusal is None

    @property
    def reason(self) -> str:
        """The refusal in words, naming the file; empty when allowed."""
        return refusal_words(self) if self.refusal is not None else ""


def refusal_words(checked: Checked) -> str:
    """Why `checked.relative` was left alone, in words a person can act on."""
    name, detail = checked.relative, checked.detail
    words = {
        Refusal.UNSAFE_NAME: f"cannot be written: {detail}",
        Refusal.SYMLINK: f"{name} is a symbolic link; an import never writes through a link",
        Refusal.HARD_LINK: f"{name} has other hard links (it may be one of your notes); refused",
        Refusal.NOT_A_FILE: f"{name} is a folder, FIFO or device, not a file; refused",
        Refusal.BLOCKED: f"{detail}; nothing is written through a link",
        Refusal.NOT_OURS: (f"{name} exists and no import wrote it; kept (--replace overwrites it)"),
        Refusal.EDITED: (
            f"{name} was changed after it was imported; your version is kept and the new"
            " import not written (--replace overwrites it)"
        ),
        Refusal.CLASH: (
            f"{name} holds the import of {detail}; kept (--replace overwrites it; for a PDF,"
            " --citekey files this one under another key)"
        ),
    }
    return words[checked.refusal] if checked.refusal is not None else ""


class ImportWriter:
    """Writes one import's files; `close()` (or the `with` block's end) makes them durable.

    `importer` names the command in the manifest. Holds the workspace's import lock for its
    life, so two imports never interleave. Raises WorkspaceError when `.synapse/` is or
    holds a link, OSError when the disk refuses.
    """

    def __init__(self, root: str | os.PathLike[str], importer: str, *, replace: bool = False):
        self.root = root
        self.importer = importer
        self.replace = replace
        self._stack = contextlib.ExitStack()
        self._closed = False
        self._stack.enter_context(file_lock(synapse_path(root, LOCK_FILE)))
        try:
            self.record = read_record(root)
        except BaseException:
            self._stack.close()
            raise
        self._journal: Journal | None = None  # opened at the first write
        self._written: dict[str, Entry] = {}
        self._gone: set[str] = set()
        self._files: list[AppFile] = []

    def __enter__(self) -> ImportWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def problems(self) -> tuple[str, ...]:
        """What could not be read of the manifest or journal."""
        return self.record.problems

    def check(self, relative: str, data: bytes | str, origin: str) -> Checked:
        """Whether `data` may be written at `relative` for `origin`; writes nothing."""
        payload = _bytes(data)
        checked, _ = self._check(relative, hashlib.sha256(payload).hexdigest(), origin)
        return checked

    def write(
        self, relative: str, data: bytes | str, origin: str, *, optional: bool = False
    ) -> Checked:
        """Write `data` at `relative` when allowed; the outcome. `optional`: not when absent."""
        payload = _bytes(data)
        sha = hashlib.sha256(payload).hexdigest()
        checked, existing = self._check(relative, sha, origin)
        if not checked.allowed or checked.unchanged:
            return checked
        if optional and existing.kind is FileKind.ABSENT:
            return Checked(relative, unchanged=True)
        entry = Entry(sha, origin, self.importer)
        file = workspace_file(self.root, relative)
        if self._journal is None:
            self._journal = Journal(self.root)
            self._stack.callback(self._journal.close)
        self._journal.intend(relative, entry)
        write_atomic(file, payload, durable=False, sweep=False)
        self._written[relative] = entry
        self._gone.discard(relative)
        self._files.append(file)
        return checked

    def remove(self, relative: str, origin: str) -> Checked:
        """Remove `relative` when an import wrote its current bytes for `origin`."""
        try:
            file = workspace_file(self.root, relative)
        except WorkspaceError as exc:
            return Checked(relative, Refusal.UNSAFE_NAME, detail=str(exc))
        existing = look(file)
        if existing.kind is FileKind.ABSENT:
            return Checked(relative, unchanged=True)
        checked = self._judge(relative, existing, None, origin)
        if checked.allowed:
            remove(file)
            self._gone.add(relative)
            self._written.pop(relative, None)
        return checked

    def close(self) -> None:
        """Make every written file durable, save the manifest, release the lock."""
        if self._closed:
            return
        try:
            sync_files(self._files)
            after = merged(self.record, self._settled(), self._gone)
            if after != self.record.entries or self.record.pending or self._journal is not None:
                save_record(self.root, after)
        finally:
            self._closed = True
            self._stack.close()

    def _check(self, relative: str, sha: str, origin: str) -> tuple[Checked, Existing]:
        try:
            file = workspace_file(self.root, relative)
        except WorkspaceError as exc:
            return Checked(relative, Refusal.UNSAFE_NAME, detail=str(exc)), Existing(
                FileKind.ABSENT
            )
        existing = look(file)
        return self._judge(relative, existing, sha, origin), existing

    def _judge(self, relative: str, existing: Existing, sha: str | None, origin: str) -> Checked:
        refusal = _BY_KIND.get(existing.kind)
        if refusal is not None:
            return Checked(relative, refusal, detail=existing.detail)
        if existing.kind is FileKind.ABSENT:
            return Checked(relative)
        current = existing.sha256
        if sha is not None and current == sha:
            self._adopt(relative, sha, origin)
            return Checked(relative, unchanged=True)
        owner = self._written.get(relative)
        if owner is None or owner.sha256 != current:
            owner = self.record.owner(relative, current)
        if owner is None:
            known = self.record.knows(relative) or relative in self._written
            refusal = Refusal.EDITED if known else Refusal.NOT_OURS
            return self._unless_replace(Checked(relative, refusal))
        if owner.origin != origin:
            return self._unless_replace(Checked(relative, Refusal.CLASH, detail=owner.origin))
        return Checked(relative)

    def _unless_replace(self, checked: Checked) -> Checked:
        if self.replace and checked.refusal in _REPLACEABLE:
            return Checked(checked.relative)
        return checked

    def _adopt(self, relative: str, sha: str, origin: str) -> None:
        """Record identical bytes as the import's, so a later change is known to be ours."""
        known = self._written.get(relative) or self.record.entries.get(relative)
        if known is None or known.sha256 != sha or known.origin != origin:
            self._written[relative] = Entry(sha, origin, self.importer)

    def _settled(self) -> dict[str, Entry]:
        """What this run wrote, and the files a killed earlier run wrote (found on disk)."""
        out: dict[str, Entry] = {}
        for relative in self.record.pending:
            if relative in self._written or relative in self._gone:
                continue
            with contextlib.suppress(WorkspaceError):
                found = look(workspace_file(self.root, relative))
                owner = self.record.owner(relative, found.sha256)
                if owner is not None:
                    out[relative] = owner
        out.update(self._written)
        return out


def _bytes(data: bytes | str) -> bytes:
    return data.encode("utf-8") if isinstance(data, str) else data

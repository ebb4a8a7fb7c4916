"""Whether an answer still holds for the files on disk: a content stamp of what it rests on.

An answer is valid only for the content it was routed on: the cited notes' files, their
sources' full texts and highlights, tethered files and the files their verifiers read. The
stamp hashes those files' current bytes (a missing or unreadable file counts as such), so
a note or source edited on disk, whatever its modification time, changes the stamp.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from engine.workspace.notes import Note
from engine.workspace.stores import Workspace

CODE_PREFIX = "code:"


def closure_files(workspace: Workspace, addresses: Iterable[str]) -> tuple[str, ...]:
    """The workspace-relative files the nodes at `addresses` are read and checked from."""
    files: list[str] = []
    for address in addresses:
        if address.startswith(CODE_PREFIX):
            files.append(address.split(":", 2)[2])
            continue
        note = workspace.note(address)
        if note is not None:
            files.extend(_note_files(note))
    return tuple(sorted(set(files)))


def content_stamp(
    workspace: Workspace, addresses: Iterable[str], *, as_loaded: bool = False
) -> str:
    """A hash of the bytes of every file the nodes at `addresses` rest on, as on disk now.

    With `as_loaded`, a note file counts with the hash it was loaded with (what an answer
    was routed on), the other files as on disk now (verifiers read them when they check).
    """
    addresses = tuple(addresses)
    loaded = loaded_stamp(workspace, addresses) if as_loaded else {}
    digest = hashlib.sha256()
    for relative in closure_files(workspace, addresses):
        seen = loaded.get(relative)
        if seen is None:
            data = workspace.read_file(relative)
            seen = hashlib.sha256(data).hexdigest() if data is not None else "missing"
        digest.update(f"{relative}\x1f{seen}\x1e".encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def loaded_stamp(workspace: Workspace, addresses: Iterable[str]) -> dict[str, str]:
    """Note file -> the content hash the loaded workspace read it with."""
    out = {}
    for address in addresses:
        note = workspace.note(address)
        if note is not None and note.stamp is not None:
            out[note.path] = note.stamp.sha256
    return out


def notes_changed(workspace: Workspace, addresses: Iterable[str]) -> bool:
    """Whether a note file among `addresses` differs on disk from what was loaded."""
    for path, sha in loaded_stamp(workspace, addresses).items():
        data = workspace.read_file(path)
        if data is None or hashlib.sha256(data).hexdigest() != sha:
            return True
    return False


def _note_files(note: Note) -> list[str]:
    files = [note.path]
    if note.citekey:
        files += [f"sources/{note.citekey}.txt", f"sources/{note.citekey}.annotations.json"]
    if note.tether is not None:
        files.append(note.tether.path)
    evidence = note.evidence
    if evidence.data is not None:
        files.append(evidence.data.file)
    if evidence.figure is not None:
        files.append(evidence.figure)
    if evidence.tree is not None:
        files.append(evidence.tree.file)
    return files

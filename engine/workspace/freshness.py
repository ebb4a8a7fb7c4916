"""Whether an answer still holds for the files on disk: a content stamp of what it rests on.

An answer is valid only for the content it was routed on: the cited notes' files, their
sources' full texts and highlights, tethered files and the files their verifiers read. An
answer is stamped with the hashes of the bytes its reasoner and verifiers read, taken when
they read them; it is current while the same files on disk hash the same (a missing or
unreadable file counts as such). So a note or source edited on disk, whatever its
modification time, and even while the answer was being computed, makes it stale.

Each function takes the files' hashes as on disk now from `disk` when given (what the
workspace's watcher holds, `engine.workspace.watch`) and reads the file only for a path
`disk` lacks.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from enum import StrEnum

from engine.core.reads import FileRead, as_read, file_key, sha256_of
from engine.workspace.notes import Note
from engine.workspace.stores import Workspace

CODE_PREFIX = "code:"


class Freshness(StrEnum):
    """Whether an answer's files changed on disk since it was routed, and which."""

    CURRENT = "current"
    FILES_CHANGED = "files-changed"  # a source, tethered or evidence file: ask again
    NOTES_CHANGED = "notes-changed"  # a cited note: reload the workspace, then ask again


def freshness(
    workspace: Workspace,
    addresses: Iterable[str],
    stamp: str,
    *,
    disk: Mapping[str, str] | None = None,
) -> Freshness:
    """Whether the files the nodes at `addresses` rest on still hash to the answer's `stamp`."""
    addresses = tuple(addresses)
    if content_stamp(workspace, addresses, disk=disk) == stamp:
        return Freshness.CURRENT
    if notes_changed(workspace, addresses, disk=disk):
        return Freshness.NOTES_CHANGED
    return Freshness.FILES_CHANGED


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
    workspace: Workspace,
    addresses: Iterable[str],
    *,
    reads: Iterable[FileRead] | None = None,
    disk: Mapping[str, str] | None = None,
) -> str:
    """A hash of the bytes of every file the nodes at `addresses` rest on, as on disk now.

    With `reads` (what an answer's checks read, `NavResult.reads`) it is the answer's own
    stamp: a file counts with the hash of the bytes read, a note file also with the hash
    it was loaded with (what the reasoner read), and a file read twice with different
    bytes as changed, so it matches no disk. Only a file nothing read counts as on disk now.
    """
    addresses = tuple(addresses)
    seen = {} if reads is None else as_read([*loaded_reads(workspace, addresses), *reads])
    digest = hashlib.sha256()
    for relative in closure_files(workspace, addresses):
        sha = seen.get(file_key(relative))
        if sha is None:
            sha = _on_disk(workspace, relative, disk)
        digest.update(f"{relative}\x1f{sha}\x1e".encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def loaded_reads(workspace: Workspace, addresses: Iterable[str]) -> list[FileRead]:
    """Each note file among `addresses` as the loaded workspace read it."""
    return [
        FileRead(file_key(path), sha) for path, sha in loaded_stamp(workspace, addresses).items()
    ]


def loaded_stamp(workspace: Workspace, addresses: Iterable[str]) -> dict[str, str]:
    """Note file -> the content hash the loaded workspace read it with."""
    out = {}
    for address in addresses:
        note = workspace.note(address)
        if note is not None and note.stamp is not None:
            out[note.path] = note.stamp.sha256
    return out


def notes_changed(
    workspace: Workspace, addresses: Iterable[str], *, disk: Mapping[str, str] | None = None
) -> bool:
    """Whether a note file among `addresses` differs on disk from what was loaded."""
    return any(
        _on_disk(workspace, path, disk) != sha
        for path, sha in loaded_stamp(workspace, addresses).items()
    )


def _on_disk(workspace: Workspace, relative: str, disk: Mapping[str, str] | None) -> str:
    sha = disk.get(file_key(relative)) if disk is not None else None
    return sha if sha is not None else sha256_of(workspace.read_file(relative))


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

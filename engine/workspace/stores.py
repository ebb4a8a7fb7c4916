"""Load a workspace folder: canon boxes, practice entries, federated boxes, sources, tethers.

A bad file never stops a load: it becomes a `LoadProblem` in `Workspace.report` and the rest
loads. Symlinks are followed only while they stay inside the workspace.
"""

from __future__ import annotations

import os
import stat
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from types import MappingProxyType
from typing import Any

from engine.core import jsonsafe
from engine.core.errors import EngineError, WorkspaceError
from engine.core.heap import collections_paused
from engine.core.jsonsafe import filled_strings
from engine.core.paths import resolve_inside
from engine.workspace.front_matter import ParsedNote, parse_note
from engine.workspace.layout import CANON_DIR, CONFIG_FILE, PRACTICE_DIR, SOURCES_DIR
from engine.workspace.note_map import NoteMap
from engine.workspace.notes import (
    FEDERATED_PREFIX,
    PRACTICE_SOURCE,
    FileStamp,
    Note,
    Store,
    is_address_safe,
)
from engine.workspace.passage_cache import PassageCache
from engine.workspace.passage_notes import PASSAGE_BOX
from engine.workspace.passages import load_passages
from engine.workspace.settings import WorkspaceSettings, read_settings
from engine.workspace.user_files import Refused, read_regular
from engine.workspace.vault import (
    VaultFolder,
    VaultNote,
    parse_vault_note,
    resolve_links,
    vault_folders,
)

MAX_NOTE_BYTES = 2 * 1024 * 1024
MAX_FILE_BYTES = 20 * 1024 * 1024

_Parsed = tuple[int, int, ParsedNote | VaultNote]


@dataclass(frozen=True)
class LoadProblem:
    """One file (relative path) that did not load cleanly, and why."""

    path: str
    problem: str


@dataclass(frozen=True)
class FederatedBox:
    """A peer's canon box vendored into the workspace, declared in workspace.toml."""

    repo: str
    box: str
    path: str

    @property
    def source(self) -> str:
        """The address-safe source segment, `~fed~<repo>~<box>`."""
        return f"{FEDERATED_PREFIX}{self.repo}~{self.box}"


@dataclass(frozen=True)
class Annotation:
    """A highlight on a source, Zotero-style."""

    text: str
    page: int | None = None
    color: str | None = None


class TetherState(StrEnum):
    """Freshness of a tethered note against the file it is pinned to."""

    FRESH = "fresh"
    OUTDATED = "outdated"
    STALE = "stale"
    UNRESOLVED = "unresolved"


@dataclass(frozen=True, eq=False)
class Workspace:
    """A loaded workspace: its notes by address (sorted), boxes and load report."""

    root: Path
    notes: NoteMap  # written notes and passages, read-only, in address order
    boxes: tuple[str, ...]
    federated: tuple[FederatedBox, ...]
    report: tuple[LoadProblem, ...]
    # (path, source) -> (size, mtime_ns, parse outcome), so a reload can skip unchanged files.
    parse_cache: Mapping[tuple[str, str], _Parsed] = field(default_factory=dict, repr=False)
    # Sentence offsets of the sources, for passages; saved by whoever may write `.synapse/`.
    passages: PassageCache | None = field(default=None, repr=False)

    def note(self, address: str) -> Note | None:
        return self.notes.get(address)

    def read_file(self, relative: str, *, limit: int = MAX_FILE_BYTES) -> bytes | None:
        """Bytes of a regular file inside the workspace; None if unsafe, absent or too big."""
        safe = resolve_inside(self.root, relative)
        if safe.path is None:
            return None
        try:
            return read_regular(safe.path, limit=limit)[0]
        except (OSError, Refused):
            return None

    def source_text(self, citekey: str) -> str | None:
        """The full text of `sources/<citekey>.txt` (pages split by form feed), if present."""
        if not is_address_safe(citekey):
            return None
        data = self.read_file(f"{SOURCES_DIR}/{citekey}.txt")
        return None if data is None else data.decode("utf-8", errors="replace")

    def annotations(self, citekey: str) -> tuple[Annotation, ...]:
        """Highlights from `sources/<citekey>.annotations.json`; malformed entries are skipped."""
        return self.read_annotations(citekey)[0]

    def read_annotations(self, citekey: str) -> tuple[tuple[Annotation, ...], tuple[str, ...]]:
        """The highlights of `citekey`, and what was skipped, naming the file and the field."""
        relative = f"{SOURCES_DIR}/{citekey}.annotations.json"
        if not is_address_safe(citekey):
            return (), ()
        data = self.read_file(relative)
        try:
            items = jsonsafe.loads(data) if data is not None else []
        except ValueError as exc:
            return (), (f"{relative}: cannot read: {exc}",)
        if not isinstance(items, list):
            return (), (f"{relative}: not a list of highlights",)
        found, problems = [], []
        for n, item in enumerate(items, start=1):
            annotation = _annotation(item)
            if annotation is None:
                problems.append(f"{relative}: highlight {n} has no text; skipped")
            else:
                found.append(annotation)
        return tuple(found), tuple(problems)


def load_workspace(path: str | os.PathLike[str], *, previous: Workspace | None = None) -> Workspace:
    """Load the workspace folder at `path`; raises WorkspaceError if it is not a workspace.

    A workspace is a folder holding `.zettelkasten/` (canon boxes) or `.memory/` (practice
    entries) or both, or a vault whose `workspace.toml` has a `[vault]` section; any other
    folder is refused before anything is written into it.

    With `previous` (an earlier load of the same folder), a note file whose size and
    mtime_ns are unchanged is not parsed again.
    """
    root = Path(path)
    if not root.exists():
        raise WorkspaceError(f"workspace {str(path)!r} does not exist")
    if not root.is_dir():
        raise WorkspaceError(f"workspace {str(path)!r} is not a directory")
    root = root.resolve()
    stores = any((root / name).is_dir() for name in (CANON_DIR, PRACTICE_DIR, SOURCES_DIR))
    if not stores and not read_settings(root).is_vault:
        raise WorkspaceError(
            f"{str(path)!r} is not a workspace: a workspace folder holds {CANON_DIR}/ "
            f"(canon notes, one subfolder per box), {PRACTICE_DIR}/ (practice entries) or "
            f"{SOURCES_DIR}/ (full texts, added with `sources add`), or a {CONFIG_FILE} with "
            "a [vault] section mapping folders to stores"
        )
    # Loading makes an object or more per note and no cycles worth collecting: a collection
    # on the way walks every note of this load and of `previous` (0.7 s of a 50k-note reload).
    with collections_paused():
        return _load(root, previous)


def _load(root: Path, previous: Workspace | None) -> Workspace:
    # A plain dict: one lookup per file, and mappingproxy lookups are noticeably slower.
    reusable = dict(previous.parse_cache) if previous is not None and previous.root == root else {}
    loader = _Loader(root, reusable)
    boxes = loader.load_local_boxes()
    loader.load_folder(PRACTICE_DIR, store=Store.PRACTICE, source=PRACTICE_SOURCE, required=False)
    boxes += loader.load_vault(boxes)
    federated = loader.load_federated()
    cache = previous.passages if previous is not None and previous.root == root else None
    cache = cache or PassageCache.read(loader.root)
    notes = NoteMap(loader.notes, load_passages(loader.root, loader.notes, cache))
    report = sorted(loader.problems, key=lambda problem: problem.path)
    return Workspace(
        root=loader.root,
        notes=notes,
        boxes=boxes,
        federated=federated,
        report=tuple(report),
        parse_cache=MappingProxyType(loader.parsed),
        passages=cache,
    )


def tether_status(workspace: Workspace, note: Note) -> TetherState:
    """Compare a tethered note with its file now.

    Unresolved: the file is missing, unsafe or over 20 MB. Fresh: the content hash equals
    the pin. Outdated: it changed but the anchor text is still there (whitespace-insensitive).
    Stale: the anchor is gone, or there is no anchor to find. An unpinned tether is fresh
    while its anchor (if any) is present.
    """
    if note.tether is None:
        raise EngineError(f"note {note.address} has no tether")
    return tether_state(note, workspace.read_file(note.tether.path))


def tether_state(note: Note, data: bytes | None) -> TetherState:
    """`tether_status` for the tethered file's bytes `data` as read (None: not readable)."""
    tether = note.tether
    if tether is None:
        raise EngineError(f"note {note.address} has no tether")
    if data is None:
        return TetherState.UNRESOLVED
    if tether.pin is not None and FileStamp.of(data, mtime_ns=0).sha256 == tether.pin:
        return TetherState.FRESH
    anchor_found = tether.anchor is not None and _contains(data, tether.anchor)
    if tether.pin is None:
        return TetherState.FRESH if tether.anchor is None or anchor_found else TetherState.STALE
    return TetherState.OUTDATED if anchor_found else TetherState.STALE


class _Loader:
    def __init__(self, root: Path, previous: Mapping[tuple[str, str], _Parsed]):
        self.root = root
        self.previous = previous
        self.parsed: dict[tuple[str, str], _Parsed] = {}
        self.notes: dict[str, Note] = {}
        self._normalised: dict[str, Note] = {}  # NFC address → note, to catch NFC/NFD twins
        self.problems: list[LoadProblem] = []
        self._settings: WorkspaceSettings | None = None

    def refuse(self, path: str, problem: str) -> None:
        self.problems.append(LoadProblem(path, problem))

    def load_local_boxes(self) -> tuple[str, ...]:
        boxes = []
        for entry in self._entries(CANON_DIR, required=False) or ():
            if entry.name.startswith(".") or not entry.is_dir():
                continue
            rel = f"{CANON_DIR}/{entry.name}"
            if entry.name.startswith(FEDERATED_PREFIX):
                self.refuse(rel, f"local box name may not start with {FEDERATED_PREFIX!r}")
            elif not is_address_safe(entry.name):
                self.refuse(rel, "box name is not address-safe (':', whitespace, control chars)")
            elif self.load_folder(rel, store=Store.CANON, source=entry.name, required=True):
                boxes.append(entry.name)
        return tuple(boxes)

    def load_federated(self) -> tuple[FederatedBox, ...]:
        declared: list[FederatedBox] = []
        for n, entry in enumerate(self._federated_entries(), start=1):
            fields = [entry.get(key) for key in ("repo", "box", "path")]
            where = f"federated entry {n}"
            if not filled_strings(fields):
                self.refuse(CONFIG_FILE, f"{where} needs repo, box and path strings")
                continue
            repo, box, path = fields
            if not (_federable(repo) and _federable(box)):
                self.refuse(
                    CONFIG_FILE,
                    f"{where}: repo and box names may not contain '~', ':', '/' or whitespace",
                )
            elif any(fed.repo == repo and fed.box == box for fed in declared):
                self.refuse(CONFIG_FILE, f"{where}: {repo}:{box} is declared twice")
            else:
                fed = FederatedBox(repo, box, path.rstrip("/"))
                if self.load_folder(fed.path, store=Store.CANON, source=fed.source, required=True):
                    declared.append(fed)
        return tuple(declared)

    def settings(self) -> Mapping[str, Any]:
        """workspace.toml's document, read once; {} (and a problem) when unreadable."""
        if self._settings is None:
            self._settings = read_settings(self.root)
            if self._settings.problem:
                self.refuse(CONFIG_FILE, self._settings.problem)
        return self._settings.document

    def _federated_entries(self) -> list[dict[str, Any]]:
        entries = self.settings().get("federated", [])
        if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
            self.refuse(CONFIG_FILE, "federated must be an array of tables ([[federated]])")
            return []
        return entries

    def load_vault(self, boxes: tuple[str, ...]) -> tuple[str, ...]:
        """Load the folders `[vault]` maps; the canon boxes they add."""
        folders, problems = vault_folders(self.settings())
        for problem in problems:
            self.refuse(CONFIG_FILE, problem)
        added: list[str] = []
        accepted: list[VaultNote] = []
        for folder in folders:
            if folder.store is Store.CANON and folder.source in (*boxes, *added):
                self.refuse(folder.path, f"box {folder.source!r} already exists")
                continue
            if self._load_vault_folder(folder, accepted) and folder.store is Store.CANON:
                added.append(folder.source)
        resolved, link_problems = resolve_links(accepted, self.notes, self._page_labels)
        self.notes.update(resolved)
        for path, problem in link_problems:
            self.refuse(path, problem)
        return tuple(added)

    def _page_labels(self, citekey: str) -> tuple[str, ...]:
        """The printed page labels `sources add` recorded for a PDF source, if any."""
        safe = resolve_inside(self.root, f"{SOURCES_DIR}/{citekey}.pdf.json")
        if safe.path is None:
            return ()
        try:
            sidecar = jsonsafe.loads(read_regular(safe.path, limit=MAX_NOTE_BYTES)[0])
        except (OSError, ValueError, TypeError, Refused):
            return ()
        labels = sidecar.get("labels") if isinstance(sidecar, dict) else None
        if isinstance(labels, list) and all(isinstance(label, str) for label in labels):
            return tuple(labels)
        return ()

    def _load_vault_folder(self, folder: VaultFolder, accepted: list[VaultNote]) -> bool:
        safe = resolve_inside(self.root, folder.path)
        if safe.path is None:
            self.refuse(folder.path, safe.reason)
            return False
        if not safe.path.is_dir():
            self.refuse(folder.path, "vault folder does not exist")
            return False
        for current, dirs, files in os.walk(safe.path):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            base = Path(current).relative_to(safe.path).as_posix()
            for name in sorted(files):
                if name.endswith(".md") and not name.startswith("."):
                    inner = name if base == "." else f"{base}/{name}"
                    parsed = self._vault_note(folder, inner)
                    if parsed is not None:
                        accepted.append(parsed)
        return True

    def _vault_note(self, folder: VaultFolder, inner: str) -> VaultNote | None:
        rel = f"{folder.path}/{inner}"
        safe = resolve_inside(self.root, rel)
        if safe.path is None:
            self.refuse(rel, f"symlink not followed: {safe.reason}")
            return None
        key = (rel, f"vault:{folder.source}")
        try:
            info = os.stat(safe.path)
            before = _unchanged(self.previous.get(key), info)
            if isinstance(before, VaultNote):
                parsed, size, mtime_ns = before, info.st_size, info.st_mtime_ns
            else:
                data, mtime_ns = read_regular(safe.path, limit=MAX_NOTE_BYTES)
                stamp = FileStamp.of(data, mtime_ns=mtime_ns)
                parsed = parse_vault_note(data, folder, inner, rel=rel, root=self.root, stamp=stamp)
                size = stamp.size
        except Refused as exc:
            self.refuse(rel, str(exc))
            return None
        except OSError as exc:
            self.refuse(rel, f"cannot read: {exc.strerror or exc}")
            return None
        self.parsed[key] = (size, mtime_ns, parsed)
        for problem in parsed.problems:
            self.refuse(rel, problem)
        note = parsed.note
        if note is None or not self._admit(note, rel):
            return None
        return parsed

    def load_folder(self, rel_dir: str, *, store: Store, source: str, required: bool) -> bool:
        """Load every `*.md` directly inside `rel_dir`; False if the folder was refused."""
        entries = self._entries(rel_dir, required=required)
        if entries is None:
            return False
        for entry in entries:
            if entry.name.endswith(".md") and not entry.name.startswith("."):
                self._load_note(entry, f"{rel_dir}/{entry.name}", store=store, source=source)
        return True

    def _entries(self, rel_dir: str, *, required: bool) -> list[os.DirEntry[str]] | None:
        safe = resolve_inside(self.root, rel_dir)
        if safe.path is None:
            self.refuse(rel_dir, safe.reason)
            return None
        try:
            with os.scandir(safe.path) as scan:
                return sorted(scan, key=lambda entry: entry.name)
        except FileNotFoundError:
            if required:
                self.refuse(rel_dir, "folder does not exist")
            return [] if not required else None
        except OSError as exc:
            self.refuse(rel_dir, f"cannot list folder: {exc.strerror or exc}")
            return None

    def _load_note(self, entry: os.DirEntry[str], rel: str, *, store: Store, source: str) -> None:
        path: str | Path = entry.path
        if entry.is_symlink():
            safe = resolve_inside(self.root, rel)
            if safe.path is None:
                self.refuse(rel, f"symlink not followed: {safe.reason}")
                return
            path = safe.path
        try:
            parsed = self._parse(path, rel, store=store, source=source)
        except Refused as exc:
            self.refuse(rel, str(exc))
            return
        except OSError as exc:
            self.refuse(rel, f"cannot read: {exc.strerror or exc}")
            return
        for problem in parsed.problems:
            self.refuse(rel, problem)
        if parsed.note is not None:
            self._admit(parsed.note, rel)

    def _admit(self, note: Note, rel: str) -> bool:
        """Add `note` unless its address is taken, exactly or once Unicode-normalised, or it
        sits in the box the sources' passages are read into."""
        if note.source == PASSAGE_BOX:
            self.refuse(rel, f"the box {PASSAGE_BOX} holds the sources' passages; not loaded")
            return False
        first = self.notes.get(note.address)
        if first is not None:
            self.refuse(rel, f"duplicate id {note.id!r} in {note.source} (kept {first.path})")
            return False
        twin = self._normalised.get(unicodedata.normalize("NFC", note.address))
        if twin is not None:
            self.refuse(
                rel,
                f"id {note.id!r} differs from that of {twin.path} only in Unicode"
                " normalisation (NFC/NFD): both would show as one address; not loaded",
            )
            return False
        self._normalised[unicodedata.normalize("NFC", note.address)] = note
        self.notes[note.address] = note
        return True

    def _parse(self, path: str | Path, rel: str, *, store: Store, source: str) -> ParsedNote:
        key = (rel, source)
        cached = self.previous.get(key)
        if cached is not None:
            info = os.stat(path)
            before = _unchanged(cached, info)
            if isinstance(before, ParsedNote):
                self.parsed[key] = cached
                return before
        data, mtime_ns = read_regular(path, limit=MAX_NOTE_BYTES)
        stamp = FileStamp.of(data, mtime_ns=mtime_ns)
        parsed = parse_note(data, store=store, source=source, path=rel, root=self.root, stamp=stamp)
        self.parsed[key] = (stamp.size, stamp.mtime_ns, parsed)
        return parsed


def _unchanged(cached: _Parsed | None, info: os.stat_result) -> ParsedNote | VaultNote | None:
    """The note parsed before, when its regular file has kept its size and modification time."""
    if cached is None or not stat.S_ISREG(info.st_mode):
        return None
    return cached[2] if (info.st_size, info.st_mtime_ns) == cached[:2] else None


def _federable(name: str) -> bool:
    return is_address_safe(name) and "~" not in name


def _annotation(item: object) -> Annotation | None:
    if not isinstance(item, dict) or not isinstance(item.get("text"), str):
        return None
    page = item.get("page")
    color = item.get("color")
    return Annotation(
        text=item["text"],
        page=page if isinstance(page, int) and not isinstance(page, bool) else None,
        color=color if isinstance(color, str) else None,
    )


def _contains(data: bytes, anchor: str) -> bool:
    text = " ".join(data.decode("utf-8", errors="replace").split())
    needle = " ".join(anchor.split())
    return bool(needle) and needle in text

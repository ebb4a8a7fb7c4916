"""Where this user's derived files of a workspace live: a cache folder of their own, per workspace.

The index, the sentence vectors and the passage offsets are derived from the workspace's files
and sealed with this user's key, so they are private: they live in
`<state dir>/caches/<key>/`, never in the workspace, where a second user (a synced folder, a
lab share) would fail every seal and rebuild them, and the first user's next open would
rebuild them back. What is shared by intent (the triage log, the overlay, saved payloads, the
imports' manifest and reports) stays in the workspace's `.synapse/`.

The key is a hash of the workspace's resolved path, so two copies of one workspace never share
(and fight over) a cache. A random id written once into `.synapse/workspace-id` travels with
the workspace when it is moved or copied: the first open at a new path seeds its cache from
this user's cache of the same id (the most recently indexed), so a move or a copy costs a file
copy, not a rebuild. A workspace from before this layout seeds from the index, vectors and
offsets in its own `.synapse/`, which are left in place (never deleted: another user may still
run an older version). A seed is only a proposal: seals and content hashes decide what of it
is kept, exactly as for a cache built here.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import secrets
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from engine.core.errors import WorkspaceError
from engine.core.paths import state_dir
from engine.workspace.atomic import (
    AppFile,
    check_no_links,
    file_lock,
    open_parent,
    read_app_file,
    synapse_path,
    write_atomic,
)
from engine.workspace.layout import ID_FILE, SYNAPSE_DIR

CACHES_DIR = "caches"  # under the user's state folder
INDEX_FILE = "index.sqlite"
VECTORS_DIR = "vectors"
PASSAGES_FILE = "passages.json"
ORIGIN_FILE = "origin.json"  # the workspace a cache serves; written once it is ready
LOCK_FILE = "seed.lock"
MAX_SEED_BYTES = 1024 * 1024 * 1024
_ID = re.compile(r"^[0-9a-f]{32}$")


@dataclass(frozen=True)
class Origin:
    """What a cache folder serves: the workspace's path and id, and where it was seeded from."""

    path: str
    identity: str
    seeded: str = ""  # "" built here; "workspace" its legacy `.synapse/`; else a path

    def to_dict(self) -> dict[str, str]:
        return {"path": self.path, "id": self.identity, "seeded": self.seeded}


def cache_folder(root: str | os.PathLike[str]) -> Path:
    """This user's cache folder for the workspace at `root` (not created)."""
    resolved = str(Path(root).resolve())
    key = hashlib.sha256(resolved.encode("utf-8", "surrogatepass")).hexdigest()[:32]
    return state_dir() / CACHES_DIR / key


def cache_file(root: str | os.PathLike[str], *parts: str) -> AppFile:
    """The derived file `parts` of the workspace at `root`, its folder ready (seeded once).

    Raises OSError or WorkspaceError when the cache folder cannot be made; callers then keep
    what they derive in memory for the run.
    """
    folder = ready(root)
    return AppFile(folder, parts)


def cached_file(root: str | os.PathLike[str], *parts: str) -> AppFile:
    """The derived file `parts` of the workspace at `root`, for reading: nothing is created."""
    return AppFile(cache_folder(root), parts)


def index_path(root: str | os.PathLike[str]) -> Path:
    """Where the index of the workspace at `root` lives for this user (not created)."""
    return cache_folder(root) / INDEX_FILE


def vectors_path(root: str | os.PathLike[str], encoder: str) -> Path:
    """Where the sentence vectors of `encoder` live for this user (not created)."""
    return cache_folder(root) / VECTORS_DIR / f"{encoder}.bin"


def passages_path(root: str | os.PathLike[str]) -> Path:
    """Where the passage offsets live for this user (not created)."""
    return cache_folder(root) / PASSAGES_FILE


def read_origin(root: str | os.PathLike[str]) -> Origin | None:
    """What this user's cache of `root` says it serves, or None before the first open."""
    return read_origin_at(cache_folder(root))


def ready(root: str | os.PathLike[str]) -> Path:
    """The cache folder of `root`, made and seeded on first use; later calls cost one stat."""
    folder = cache_folder(root)
    if (folder / ORIGIN_FILE).is_file():
        return folder
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    with file_lock(folder / LOCK_FILE):
        if (folder / ORIGIN_FILE).is_file():  # another process seeded it meanwhile
            return folder
        workspace = Path(root).resolve()
        identity = workspace_id(workspace)
        seeded = _seed(folder, workspace, identity)
        origin = Origin(str(workspace), identity, seeded)
        write_atomic(folder / ORIGIN_FILE, json.dumps(origin.to_dict(), sort_keys=True))
    return folder


def workspace_id(root: Path) -> str:
    """The workspace's random id, written once into `.synapse/`; "" when it cannot be.

    A read-only workspace, or a `.synapse/` holding a link, has none: its cache is then
    found by its path alone, and a move or copy of it is indexed afresh.
    """
    file = synapse_path(root, ID_FILE)
    with contextlib.suppress(FileNotFoundError):
        return _read_id(file)
    try:
        check_no_links(root)
        with open_parent(file, create=True) as folder:
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
            fd = os.open(file.name, flags, 0o644, dir_fd=folder)
            try:
                os.write(fd, f"{secrets.token_hex(16)}\n".encode("ascii"))
                os.fsync(fd)
            finally:
                os.close(fd)
    except FileExistsError:
        pass  # another process wrote it first: theirs is the id
    except (OSError, WorkspaceError):
        return ""
    try:
        return _read_id(file)
    except (OSError, WorkspaceError):
        return ""


def _read_id(file: AppFile) -> str:
    try:
        text = read_app_file(file, max_bytes=256).decode("ascii", "replace").strip()
    except WorkspaceError:
        return ""
    return text if _ID.match(text) else ""


def read_origin_at(folder: Path) -> Origin | None:
    try:
        data = json.loads(read_app_file(AppFile(folder, (ORIGIN_FILE,)), max_bytes=64 * 1024))
    except (OSError, ValueError, WorkspaceError, RecursionError):
        return None
    if not isinstance(data, dict):
        return None
    path, identity, seeded = data.get("path"), data.get("id"), data.get("seeded", "")
    if not (isinstance(path, str) and isinstance(identity, str) and isinstance(seeded, str)):
        return None
    return Origin(path, identity, seeded)


def _seed(folder: Path, workspace: Path, identity: str) -> str:
    """Copy a previous cache of this workspace into `folder`; where it came from, or ""."""
    twin = _twin(folder, identity)
    if twin is not None:
        _copy_cache(AppFile(twin, ()), folder)
        return str(twin)
    try:
        check_no_links(workspace)  # SQLite opens the legacy index by its path
    except WorkspaceError:
        return ""
    legacy = AppFile(workspace, (SYNAPSE_DIR,))
    return "workspace" if _copy_cache(legacy, folder) else ""


def _twin(folder: Path, identity: str) -> Path | None:
    """This user's most recently indexed cache of the workspace with id `identity`."""
    if not identity:
        return None
    found: list[tuple[float, Path]] = []
    with contextlib.suppress(OSError):
        for other in (folder.parent).iterdir():
            origin = read_origin_at(other) if other != folder else None
            if origin is None or origin.identity != identity:
                continue
            with contextlib.suppress(OSError):
                found.append(((other / INDEX_FILE).stat().st_mtime, other))
    return max(found)[1] if found else None


def _copy_cache(source: AppFile, folder: Path) -> bool:
    """Copy the index, vectors and offsets under `source` into `folder`; whether any was."""
    shared = source.parts[:1] == (SYNAPSE_DIR,)
    copied = _copy_index(source.path / INDEX_FILE, folder / INDEX_FILE, shared=shared)
    names = []
    with contextlib.suppress(OSError):
        names = sorted(n for n in os.listdir(source.path / VECTORS_DIR) if n.endswith(".bin"))
    for name in [*(f"{VECTORS_DIR}/{n}" for n in names), PASSAGES_FILE]:
        parts = (*source.parts, *name.split("/"))
        try:
            data = read_app_file(AppFile(source.root, parts), max_bytes=MAX_SEED_BYTES)
            write_atomic(AppFile(folder, tuple(name.split("/"))), data, durable=False)
            copied = True
        except (OSError, WorkspaceError):
            continue
    return copied


def _copy_index(source: Path, target: Path, *, shared: bool) -> bool:
    """A copy of the SQLite index at `source`, checked whole, or nothing.

    A `shared` source (in the workspace) is read as an immutable file, so no WAL or
    shared-memory file is created beside it; a write it misses only costs those rows an update.
    """
    if not source.is_file() or source.is_symlink() or target.exists():
        return False
    query = "mode=ro&immutable=1" if shared else "mode=ro"
    try:
        with (
            contextlib.closing(sqlite3.connect(f"{source.as_uri()}?{query}", uri=True)) as db,
            contextlib.closing(sqlite3.connect(target)) as out,
        ):
            db.backup(out)
            if out.execute("PRAGMA quick_check").fetchone() != ("ok",):
                raise sqlite3.DatabaseError("the copy is damaged")
        return True
    except sqlite3.Error:
        _remove(target)
        return False


def _remove(path: Path) -> None:
    for suffix in ("", "-wal", "-shm", "-journal"):
        with contextlib.suppress(FileNotFoundError):
            Path(f"{path}{suffix}").unlink()

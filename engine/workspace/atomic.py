"""Crash-safe writes under `.synapse/` that never follow a link, and bounded reads of them.

A replaced file is either the old content or the new, never a mix: the new bytes go to a
temporary file in the same folder, are flushed and fsynced, then renamed over the target,
and the folder is fsynced so the rename itself survives a power cut. Appends go through
`O_APPEND` in one `write` call and are fsynced before returning; a failed append (a full
disk) is cut back, so the file never keeps half a record.

Links are refused at every level. A cloned repository can carry `.synapse/` itself, or a
file in it, as a symbolic or hard link to one of its notes; writing through it would turn
that note into an index or an overlay. So every folder on the way is opened relative to the
one above with `O_NOFOLLOW`, the file itself too, a `.synapse/` that is or holds a link
(symbolic, or a file with other hard links) is refused whole, and reads refuse FIFOs,
devices and files over a size cap, so a planted FIFO cannot block a reader.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import secrets
import stat
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from engine.core.errors import WorkspaceError
from engine.workspace.layout import SYNAPSE_DIR

STALE_TEMP_SECONDS = 3600
TEMP_NAME_BYTES = 96
# From this many files on, one sync of the whole disk beats an fsync per file.
SYNC_ALL_FROM = 64
# The app's own files are small; the overlay of the 5k-note demo is under 1 MB.
MAX_APP_FILE_BYTES = 64 * 1024 * 1024
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_LINK_ERRNOS = (errno.ELOOP, errno.ENOTDIR, errno.EMLINK)


@dataclass(frozen=True)
class AppFile:
    """A file named by its folder `root` (trusted, resolved) and the parts below it."""

    root: Path
    parts: tuple[str, ...]

    @property
    def path(self) -> Path:
        return self.root.joinpath(*self.parts)

    @property
    def name(self) -> str:
        return self.parts[-1]

    @property
    def relative(self) -> str:
        return "/".join(self.parts)

    def __fspath__(self) -> str:
        return str(self.path)


def synapse_path(root: str | os.PathLike[str], relative: str) -> AppFile:
    """The app file `relative` (under `.synapse/`) of the workspace at `root`.

    Raises WorkspaceError for a path that is absolute, climbs with `..`, or is not under
    `.synapse/`; links are refused when the file is opened.
    """
    parts = tuple(part for part in relative.replace("\\", "/").split("/") if part not in ("", "."))
    if relative.startswith(("/", "\\")) or ".." in parts or not parts or parts[0] != SYNAPSE_DIR:
        raise WorkspaceError(f"cannot use {relative}: the app writes only under {SYNAPSE_DIR}/")
    return AppFile(Path(root).resolve(), parts)


def check_no_links(root: str | os.PathLike[str], *, inside: str = SYNAPSE_DIR) -> None:
    """Refuse a `.synapse/` under `root` (or the folder `inside` names, "" for `root` itself)
    that is, or holds, a symbolic or hard link.

    A missing folder passes. Raises WorkspaceError naming the first link found.
    """
    top = Path(root).resolve() / inside if inside else Path(root)
    name = inside or str(top)
    try:
        info = top.lstat()
    except FileNotFoundError:
        return
    if stat.S_ISLNK(info.st_mode):
        raise WorkspaceError(f"{name} is a symbolic link; the app writes only into a real folder")
    if not stat.S_ISDIR(info.st_mode):
        raise WorkspaceError(f"{name} is not a folder")
    for folder, dirs, files in os.walk(top, followlinks=False):
        for entry in dirs + files:
            path = Path(folder) / entry
            _refuse_link(path.lstat(), path.relative_to(top.parent).as_posix())


def write_atomic(
    target: AppFile | str | os.PathLike[str],
    data: bytes | str,
    *,
    durable: bool = True,
    sweep: bool = True,
) -> None:
    """Replace `target` with `data` in one step; missing folders are created.

    On any failure the previous file (if there was one) is left untouched. Raises
    WorkspaceError when a link stands anywhere on the way or the target is a symbolic or
    hard link, OSError when the disk refuses. With `durable=False` the file and folder are
    not fsynced: a reader still sees the old bytes or the new, and the caller makes a whole
    batch durable at its end (`sync_files`). Each write sweeps the temporary files a crashed
    writer of the same name left, which lists the folder; `sweep=False` leaves that to the
    batch's `sync_files` (once a folder: thousands of files written into one folder each
    listing it cost an import most of its time).
    """
    file = _app_file(target)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    with open_parent(file, create=True) as folder:
        _check_existing(folder, file)
        temp = _temp_name(file.name)
        fd = os.open(
            temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644, dir_fd=folder
        )
        try:
            try:
                _write_all(fd, payload)
                if durable:
                    os.fsync(fd)
            finally:
                os.close(fd)
            os.replace(temp, file.name, src_dir_fd=folder, dst_dir_fd=folder)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temp, dir_fd=folder)
            raise
        if durable:
            os.fsync(folder)
        if sweep:
            _sweep_leftovers(folder, {_clipped_name(file.name)})


def append_durable(target: AppFile | str | os.PathLike[str], data: bytes) -> None:
    """Append `data` to `target` (created if missing) in one write, then fsync.

    Whole or nothing: if the write fails part-way (a full disk) the file is cut back to its
    previous length before the error is raised. Callers that share the file must hold a
    `file_lock`: the lock, not `O_APPEND`, is what keeps two writers' records whole.
    """
    file = _app_file(target)
    with open_parent(file, create=True) as folder:
        flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK
        fd = _open_file(folder, file, flags)
        try:
            before = os.fstat(fd).st_size
            try:
                _write_all(fd, data)
                os.fsync(fd)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.ftruncate(fd, before)
                    os.fsync(fd)
                raise
        finally:
            os.close(fd)
        os.fsync(folder)


def open_append(target: AppFile) -> int:
    """A descriptor appending to `target` (created if missing), reached without following a link.

    The caller writes whole records with one `os.write` each and closes the descriptor.
    """
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK
    file = _app_file(target)
    with open_parent(file, create=True) as folder:
        return _open_file(folder, file, flags)


def read_app_file(target: AppFile, *, max_bytes: int = MAX_APP_FILE_BYTES) -> bytes:
    """The bytes of an app file, refusing links, FIFOs, devices and files over `max_bytes`.

    Raises FileNotFoundError when it is missing, WorkspaceError naming any refusal.
    """
    with _opened_to_read(target, max_bytes) as (fd, _):
        chunks, total = [], 0
        while chunk := os.read(fd, min(1 << 20, max_bytes + 1 - total)):
            chunks.append(chunk)
            total += len(chunk)
            if total > max_bytes:
                raise WorkspaceError(f"{target.relative} is over the {max_bytes:,}-byte cap")
        return b"".join(chunks)


def read_app_buffer(target: AppFile, *, max_bytes: int = MAX_APP_FILE_BYTES) -> memoryview:
    """`read_app_file` read in place into one buffer: for a large file whose bytes are only
    looked at (numpy views, hashes), a copy fewer. A file that grows while it is read is
    refused (WorkspaceError)."""
    with _opened_to_read(target, max_bytes) as (fd, size):
        # One byte more than it said it holds, to see a file that grew.
        view, total = memoryview(bytearray(size + 1)), 0
        while total <= size and (got := os.readv(fd, [view[total:]])):
            total += got
        if total > size:
            raise WorkspaceError(f"{target.relative} changed while it was read")
        return view[:total]


@contextlib.contextmanager
def _opened_to_read(target: AppFile, max_bytes: int) -> Iterator[tuple[int, int]]:
    """A descriptor of the app file and its size, refusing links, FIFOs, devices and files
    over `max_bytes`; closed on leaving."""
    with open_parent(target, create=False) as folder:
        fd = _open_file(folder, target, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, create=False)
        try:
            size = os.fstat(fd).st_size
            if size > max_bytes:
                raise WorkspaceError(f"{target.relative} is over the {max_bytes:,}-byte cap")
            yield fd, size
        finally:
            os.close(fd)


@contextlib.contextmanager
def file_lock(target: AppFile | str | os.PathLike[str]) -> Iterator[None]:
    """Hold an exclusive `flock` on the lock file `target` (created if missing) for the block.

    The lock is advisory and per open file: every cooperating writer, in any process,
    must take it through this function.
    """
    file = _app_file(target)
    with open_parent(file, create=True) as folder:
        fd = _open_file(folder, file, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def sync_files(files: Iterable[AppFile]) -> None:
    """Make files written with `durable=False` durable, and the folders holding them; then
    sweep each folder once of what crashed writers of those names left.

    From SYNC_ALL_FROM files on, one `os.sync()` (a single flush of the disk) replaces an
    fsync per file, which costs more than the import itself. Files are reopened without
    following a link; one gone since is skipped.
    """
    files = list(dict.fromkeys(files))
    folders: dict[tuple[Path, tuple[str, ...]], list[AppFile]] = {}
    for file in files:
        folders.setdefault((file.root, file.parts[:-1]), []).append(file)
    flush_all = len(files) >= SYNC_ALL_FROM and hasattr(os, "sync")
    if flush_all:
        os.sync()
    for written in folders.values():
        with (
            contextlib.suppress(FileNotFoundError, WorkspaceError),
            open_parent(written[0], create=False) as folder,
        ):
            if not flush_all:
                for file in written:
                    with contextlib.suppress(FileNotFoundError):
                        _fsync_at(folder, file.name)
                os.fsync(folder)
            _sweep_leftovers(folder, {_clipped_name(file.name) for file in written})


def _fsync_at(folder: int, name: str) -> None:
    fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=folder)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _app_file(target: AppFile | str | os.PathLike[str]) -> AppFile:
    """An AppFile as given; a plain path trusts its parent folder and refuses links below it."""
    if isinstance(target, AppFile):
        if target.parts[0] == SYNAPSE_DIR:
            check_no_links(target.root)
        return target
    path = Path(target).absolute()
    path.parent.mkdir(parents=True, exist_ok=True)
    return AppFile(path.parent.resolve(), (path.name,))


@contextlib.contextmanager
def open_parent(file: AppFile, *, create: bool) -> Iterator[int]:
    """A descriptor of the file's folder, reached from `root` without following a link."""
    fd = os.open(file.root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        for depth, part in enumerate(file.parts[:-1], start=1):
            where = "/".join(file.parts[:depth])
            try:
                child = os.open(part, _DIR_FLAGS, dir_fd=fd)
            except FileNotFoundError:
                if not create:
                    raise
                with contextlib.suppress(FileExistsError):
                    os.mkdir(part, 0o755, dir_fd=fd)
                child = _open_dir(part, fd, where)
            except OSError as exc:
                if exc.errno in _LINK_ERRNOS:
                    raise WorkspaceError(f"{where} is a link or not a folder; refused") from None
                raise
            os.close(fd)
            fd = child
        yield fd
    finally:
        os.close(fd)


def _open_dir(part: str, parent: int, where: str) -> int:
    try:
        return os.open(part, _DIR_FLAGS, dir_fd=parent)
    except OSError as exc:
        if exc.errno in _LINK_ERRNOS:
            raise WorkspaceError(f"{where} is a link or not a folder; refused") from None
        raise


def _open_file(folder: int, file: AppFile, flags: int, *, create: bool = True) -> int:
    """Open the file without following a link, then insist on a regular file of one link."""
    try:
        fd = os.open(file.name, flags | os.O_CLOEXEC, 0o644, dir_fd=folder)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise WorkspaceError(f"{file.relative} is a symbolic link; refused") from None
        if exc.errno == errno.ENXIO:  # a FIFO with no reader, opened for writing
            raise WorkspaceError(f"{file.relative} is not a regular file; refused") from None
        raise
    try:
        _refuse_link(os.fstat(fd), file.relative)
    except BaseException:
        os.close(fd)
        raise
    if not create:
        return fd
    # The descriptor was opened non-blocking only so that a FIFO could not hang the open.
    os.set_blocking(fd, True)
    return fd


def _refuse_link(info: os.stat_result, relative: str) -> None:
    if stat.S_ISLNK(info.st_mode):
        raise WorkspaceError(f"{relative} is a symbolic link; refused")
    if stat.S_ISDIR(info.st_mode):
        return
    if not stat.S_ISREG(info.st_mode):
        raise WorkspaceError(
            f"{relative} is not a regular file (a FIFO, socket or device); refused"
        )
    if info.st_nlink > 1:
        raise WorkspaceError(f"{relative} has other hard links (it may be a note); refused")


def _check_existing(folder: int, file: AppFile) -> None:
    try:
        info = os.stat(file.name, dir_fd=folder, follow_symlinks=False)
    except FileNotFoundError:
        return
    _refuse_link(info, file.relative)
    if stat.S_ISDIR(info.st_mode):
        raise WorkspaceError(f"{file.relative} is a folder; refused")


def _write_all(fd: int, payload: bytes) -> None:
    view = memoryview(payload)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _temp_name(name: str) -> str:
    """A fresh temporary name beside `name`, short enough whatever the length of `name`."""
    return f".{_clipped_name(name)}.{secrets.token_hex(8)}.tmp"


def _clipped_name(name: str) -> str:
    # A file name may take 255 bytes; its temporary sibling adds 22, so the name is cut.
    return name.encode("utf-8")[:TEMP_NAME_BYTES].decode("utf-8", errors="ignore")


def _sweep_leftovers(folder: int, names: set[str]) -> None:
    """Remove temporary files a crashed writer of one of `names` (clipped) left behind.

    Only files older than an hour go, so a concurrent writer's temporary file is never taken.
    """
    cutoff = time.time() - STALE_TEMP_SECONDS
    for leftover in os.listdir(folder):
        if not (leftover.startswith(".") and leftover.endswith(".tmp") and _of(leftover, names)):
            continue
        with contextlib.suppress(OSError):
            info = os.stat(leftover, dir_fd=folder, follow_symlinks=False)
            if stat.S_ISREG(info.st_mode) and info.st_mtime < cutoff:
                os.unlink(leftover, dir_fd=folder)


def _of(leftover: str, names: set[str]) -> bool:
    """Whether `leftover` is named `.{name}.….tmp` for one of `names`."""
    body = leftover[1:]
    return any(char == "." and body[:at] in names for at, char in enumerate(body))

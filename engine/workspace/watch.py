"""One watcher per open workspace: which files answers rest on changed, as a rising stamp.

Sessions showing an answer compare the watcher's stamp with the one at which they last
found it current, instead of each hashing its files on a timer. The watcher only decides
*when* to look again; *whether* an answer still holds is decided by its own content stamp
(the hashes of the bytes its checks read) against the hashes the watcher holds for the
files as they are now (`engine.workspace.freshness.freshness`).

A check stats each watched file (where it resolves, inode, size, mtime, ctime) and hashes
only the files whose stat moved. A same-size edit that restores the mtime still moves the
ctime. Two cases keep every stat field: an edit within the file system's timestamp tick,
so a file whose times lie within RACY_NS of when it was hashed is hashed again at the next
check; and a file system with coarse or unreliable times, so every REHASH_EVERY-th check
hashes every file. The watcher reads files and writes nothing.
"""

from __future__ import annotations

import itertools
import os
import threading
import time
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from engine.core.paths import resolve_inside
from engine.core.reads import file_key, sha256_of
from engine.workspace.freshness import Freshness, closure_files, freshness, notes_changed
from engine.workspace.stores import MAX_FILE_BYTES, Workspace
from engine.workspace.user_files import Refused, read_regular

# Seconds between two checks however many sessions ask: the app's sessions look every 3 s.
WATCH_INTERVAL_S = 2.0
# Every this many checks every watched file is hashed whatever its stat says.
REHASH_EVERY = 30
# A file changed this close to its hashing may change again within the same timestamp.
RACY_NS = 2_000_000_000
# Files watched at once; the least recently asked beyond it are dropped, published as changed
# (so a session resting on one looks again rather than trusting a file nobody watches).
MAX_WATCHED = 4096
# Changes kept for `changed_since`; a session further behind checks all its files.
HISTORY = 256
# Each watcher's number in this process: a reloaded workspace's new watcher never shares one
# (an id() may be reused once the old one is gone, and its stamps start again at 0).
_SERIALS = itertools.count(1)

# Where a path resolves and its stat; None for a file refused, absent or unreadable.
Look = tuple[str, int, int, int, int, int, int] | None


@dataclass(frozen=True)
class Change:
    """One published change: the stamp it raised the watcher to, and the files that changed."""

    stamp: int
    paths: frozenset[str]


@dataclass(frozen=True)
class WatchCounts:
    """What the watcher has done: checks run, files stat-ed and files read and hashed."""

    checks: int
    stats: int
    hashes: int


@dataclass(frozen=True)
class Seen:
    """Where a session last found its answer current: the watcher, its stamp, the files."""

    watcher: int  # the watcher's serial: a reloaded workspace has a new one
    stamp: int
    content_stamp: str  # the answer's own stamp, so another answer is never confirmed by it
    files: frozenset[str]


@dataclass(frozen=True)
class _Watched:
    look: Look
    sha: str
    racy: bool  # hash again at the next check: its stat may not move for a change
    asked: int  # the request that last named it, for dropping the least recently asked


class Watcher:
    """The files of one workspace that answers rest on, checked at most once per interval.

    Thread-safe: every session of the app shares one. `poll()` checks when an interval has
    passed since the last check; `hashes(paths)` watches `paths` and returns their hashes
    as of now. A change of content (never a touch alone) raises `stamp` once and is
    published with its paths (`changed_since`).
    """

    def __init__(
        self,
        root: str | os.PathLike[str],
        *,
        interval: float = WATCH_INTERVAL_S,
        rehash_every: int = REHASH_EVERY,
        racy_ns: int = RACY_NS,
        limit: int = MAX_WATCHED,
    ) -> None:
        self.serial = next(_SERIALS)
        self.root = Path(root).resolve()
        self.interval = interval
        self.rehash_every = max(1, rehash_every)
        self.racy_ns = racy_ns
        self.limit = limit
        self._lock = threading.Lock()
        self._files: dict[str, _Watched] = {}
        self._history: deque[Change] = deque(maxlen=HISTORY)
        self._stamp = 0
        self._last = float("-inf")
        self._asked = 0
        self._checks = self._stats = self._hashes = 0

    @property
    def stamp(self) -> int:
        """Raised by one at every published change; never lowered."""
        return self._stamp

    @property
    def counts(self) -> WatchCounts:
        return WatchCounts(self._checks, self._stats, self._hashes)

    def watched(self) -> frozenset[str]:
        with self._lock:
            return frozenset(self._files)

    def poll(self) -> int:
        """The stamp, after a check when `interval` seconds have passed since the last one."""
        with self._lock:
            if time.monotonic() - self._last >= self.interval:
                self._check()
            return self._stamp

    def check(self) -> int:
        """Check every watched file now; the stamp after it."""
        with self._lock:
            self._check()
            return self._stamp

    def hashes(self, paths: Iterable[str]) -> tuple[int, dict[str, str]]:
        """The stamp and each of `paths`' hash as on disk now, watching them from now on.

        Each is stat-ed now and read only when new to the watcher or its stat moved, so a
        session comparing an answer made since the last check never sees an older hash.
        """
        with self._lock:
            self._asked += 1
            changed: set[str] = set()
            out = {}
            for path in paths:
                key = file_key(path)
                if self._look_again(key, full=False, asked=True):
                    changed.add(key)
                out[key] = self._files[key].sha
            self._drop_beyond(self.limit, keep=out.keys(), changed=changed)
            self._publish(changed)
            return self._stamp, out

    def changed_since(self, stamp: int) -> frozenset[str] | None:
        """The files changed after `stamp`; None when the changes kept do not reach back."""
        with self._lock:
            if stamp >= self._stamp:
                return frozenset()
            later = [change for change in self._history if change.stamp > stamp]
            if not later or later[0].stamp != stamp + 1:
                return None
            return frozenset().union(*(change.paths for change in later))

    def confirms(self, seen: Seen | None, content_stamp: str) -> Seen | None:
        """`seen` moved to the current stamp when no change touched its files since; else None."""
        if seen is None or seen.watcher != self.serial or seen.content_stamp != content_stamp:
            return None
        now = self._stamp
        changed = self.changed_since(seen.stamp)
        if changed is None or changed & seen.files:
            return None
        return Seen(seen.watcher, now, content_stamp, seen.files)

    def freshness(
        self, workspace: Workspace, addresses: Iterable[str], stamp: str, seen: Seen | None
    ) -> tuple[Freshness, Seen | None]:
        """Whether an answer (its content `stamp`, resting on `addresses`) is current, and
        where it was found so, for the next call to skip the check (`seen`, the last one's).

        Nothing is stat-ed or read while no change to its files was published since `seen`;
        then each file is stat-ed and read only when new to the watcher or moved.
        """
        self.poll()
        if (still := self.confirms(seen, stamp)) is not None:
            return Freshness.CURRENT, still
        addresses = tuple(addresses)
        at, disk = self.hashes(closure_files(workspace, addresses))
        state = freshness(workspace, addresses, stamp, disk=disk)
        if state is not Freshness.CURRENT:
            return state, None
        return state, Seen(self.serial, at, stamp, frozenset(disk))

    def notes_changed(self, workspace: Workspace, addresses: Iterable[str]) -> bool:
        """Whether a note file among `addresses` differs on disk from what `workspace` loaded."""
        addresses = tuple(addresses)
        _, disk = self.hashes(closure_files(workspace, addresses))
        return notes_changed(workspace, addresses, disk=disk)

    def _check(self) -> None:
        self._checks += 1
        self._last = time.monotonic()
        full = self._checks % self.rehash_every == 0
        changed = {
            key for key in list(self._files) if self._look_again(key, full=full, asked=False)
        }
        self._publish(changed)

    def _look_again(self, key: str, *, full: bool, asked: bool) -> bool:
        """Stat `key`, hash it when new, moved, racy or `full`; whether its content changed.

        `asked`: a session named it now, so it is the last to be dropped.
        """
        known = self._files.get(key)
        when = self._asked if asked or known is None else known.asked
        look = self._look(key)
        if known is not None and not full and not known.racy and look == known.look:
            if when != known.asked:
                self._files[key] = _Watched(known.look, known.sha, False, when)
            return False
        sha, racy = self._read(key, look)
        self._files[key] = _Watched(look, sha, racy, when)
        return known is not None and sha != known.sha

    def _look(self, key: str) -> Look:
        self._stats += 1
        safe = resolve_inside(self.root, key)
        if safe.path is None:
            return None
        try:
            info = os.stat(safe.path)
        except OSError:
            return None
        return (
            str(safe.path),
            info.st_dev,
            info.st_ino,
            info.st_mode,
            info.st_size,
            info.st_mtime_ns,
            info.st_ctime_ns,
        )

    def _read(self, key: str, before: Look) -> tuple[str, bool]:
        """The hash of `key`'s bytes as a workspace read gets them, and whether it is racy."""
        self._hashes += 1
        data = None
        if before is not None:
            try:
                data = read_regular(before[0], limit=MAX_FILE_BYTES)[0]
            except (OSError, Refused):
                data = None
        after = self._look(key)
        racy = after != before or (
            after is not None and time.time_ns() - max(after[5], after[6]) < self.racy_ns
        )
        return sha256_of(data), racy

    def _drop_beyond(self, limit: int, *, keep: Iterable[str], changed: set[str]) -> None:
        if len(self._files) <= limit:
            return
        kept = set(keep)
        by_age = sorted((w.asked, key) for key, w in self._files.items() if key not in kept)
        for _, key in by_age[: len(self._files) - limit]:
            del self._files[key]
            changed.add(key)

    def _publish(self, changed: set[str]) -> None:
        if changed:
            self._stamp += 1
            self._history.append(Change(self._stamp, frozenset(changed)))

"""`--cluster local|tcp://HOST:PORT` on the batch commands: the session and the shared workspace.

Without the flag a command runs its serial loop, unchanged. With it, the command opens the
workspace here (the one process that writes: the index update, then every output), and
each worker opens the same folder by the same path: a path every machine shares (an NFS
or SMB mount, a cluster filesystem) or, on one machine, the folder itself. The index
travels as a snapshot (`engine.workspace.index_reader`), so workers never open its file;
a worker whose notes differ from the client's, or that cannot verify the index's seals
(it needs the user's `SYNAPSE_STATE_DIR`), refuses with a one-line error.
"""

from __future__ import annotations

import contextlib
import sys
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from engine.core.errors import WorkspaceError
from engine.distributed.cluster import ClusterSpec, LocalSize, connect
from engine.distributed.ordered import (
    WINDOW_PER_THREAD,
    Plan,
    Ready,
    Results,
    Task,
    run_ordered,
)
from engine.workspace.opened import OpenWorkspace, notes_fingerprint, open_snapshot

if TYPE_CHECKING:
    from distributed import Client


@dataclass(frozen=True)
class Where:
    """The workspace a task opens on its worker: its path and the notes the client loaded."""

    root: str
    fingerprint: str
    # The client's sentence encoder ("" for words alone): workers read meaning as it does.
    encoder: str = ""


@dataclass(frozen=True)
class Session:
    """Where a batch's tasks run: on a cluster's client, or here when there is none."""

    client: Client | None
    threads: int = 1

    def run(self, items: Iterable[Task | Ready], plan: Plan) -> contextlib.closing[Results]:
        """The items' results in input order (`engine.distributed.ordered.run_ordered`).

        `plan` names the job, its progress and chunk; the window is this cluster's.
        """
        paced = replace(plan, window=self.threads * WINDOW_PER_THREAD)
        return contextlib.closing(run_ordered(self.client, items, paced))

    def share(self, opened: OpenWorkspace) -> tuple[Where, object]:
        """What tasks take to open `opened` on a worker: its `Where` and its index snapshot.

        The snapshot is sent to every worker once; here (no cluster) the opened workspace
        itself stands in for it.
        """
        semantic = opened.meaning.semantic
        encoder = semantic.encoder.name if semantic is not None else ""
        where = Where(str(opened.root), notes_fingerprint(opened.workspace), encoder)
        if self.client is None:
            return where, opened
        image = opened.index.snapshot()
        return where, self.client.scatter(image, broadcast=True, hash=False)


@contextlib.contextmanager
def session(spec: ClusterSpec | None, size: LocalSize | None = None) -> Iterator[Session]:
    """A session on the cluster `spec` names (none: run here), its dashboard link on stderr."""
    if spec is None:
        yield Session(None)
        return
    with connect(spec, size) as connection:
        if connection.dashboard:
            print(f"dashboard: {connection.dashboard}", file=sys.stderr, flush=True)
        yield Session(connection.client, connection.threads)


_lock = threading.Lock()
_opened: dict[Where, OpenWorkspace] = {}


def worker_workspace(where: Where, image: object) -> OpenWorkspace:
    """The client's workspace as this worker opens it, once per worker process.

    `image` is the index snapshot (or, run here, the client's own opened workspace).
    Raises WorkspaceError when the notes under `where.root` are not the client's.
    """
    if isinstance(image, OpenWorkspace):
        return image
    with _lock:
        opened = _opened.get(where)
        if opened is None:
            if not isinstance(image, bytes):
                raise WorkspaceError("the index snapshot did not reach this worker")
            opened = open_snapshot(where.root, image, where.encoder or "none")
            if notes_fingerprint(opened.workspace) != where.fingerprint:
                opened.close()
                raise WorkspaceError(
                    f"the notes under {where.root} on this worker are not the client's: "
                    "workers must read the workspace from the same path (a shared folder)"
                )
            for earlier in _opened.values():  # a long-lived worker keeps only the latest
                earlier.close()
            _opened.clear()
            _opened[where] = opened
        return opened


def skipped_line(label: str, reason: str) -> str:
    """The stderr line for an item skipped as poison."""
    return f"{label}: skipped: {reason}"

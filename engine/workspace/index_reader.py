"""The index as the client left it, read by a process that must write nothing.

A cluster worker answers from the workspace its client opened. The client brings the index
up to date (the one write) and sends its snapshot, an SQLite image the worker opens in its
own memory: no file is opened, locked or created in the workspace, whatever filesystem the
workers share. Before using it the worker checks that it holds exactly the notes it loaded,
with the same content hashes, every row sealed by the key this worker holds
(`SYNAPSE_STATE_DIR`); otherwise it refuses rather than rank differently from the client.
"""

from __future__ import annotations

import sqlite3

from engine.core.errors import WorkspaceError
from engine.workspace.index import Index
from engine.workspace.index_rows import read_catalog, unsealed_rows
from engine.workspace.index_seal import Unsealed
from engine.workspace.stores import Workspace


def index_from_snapshot(workspace: Workspace, image: bytes) -> Index:
    """The index in `image` (`Index.snapshot`), in memory, checked current for `workspace`.

    Raises WorkspaceError when the image does not open, a row's seal fails under this
    process's key, or its rows are not exactly the workspace's notes.
    """
    connection = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    try:
        connection.deserialize(image)
        problem = _stale(connection, workspace)
    except (sqlite3.Error, Unsealed) as exc:
        problem = str(exc)
    if problem:
        connection.close()
        raise WorkspaceError(f"the client's index does not serve {workspace.root}: {problem}")
    return Index.reading(connection, len(workspace.notes))


def _stale(connection: sqlite3.Connection, workspace: Workspace) -> str:
    """Why the index does not rank exactly the loaded notes, or an empty string."""
    version = connection.execute("PRAGMA data_version").fetchone()[0]
    catalog = read_catalog(connection, version)
    unsealed = unsealed_rows(connection)
    if unsealed:
        return (
            f"{len(unsealed):,} row(s), first {unsealed[0]}, are not sealed "
            "by this process's key (give it the same SYNAPSE_STATE_DIR)"
        )
    hashes = {address: stamp.sha256 for address, stamp, _ in workspace.notes.stamped()}
    if hashes != catalog.hashes:
        differ = sorted(set(hashes.items()) ^ set(catalog.hashes.items()))
        return f"{len(differ):,} note(s) differ from what it indexed, first {differ[0][0]}"
    return ""

"""A real two-process LocalCluster for the cluster tests, faults injected from outside.

Faults are a worker plugin, not a mock: when a task whose key names the marker's item
starts executing, the plugin ends the worker process with `os._exit`, as a crash or the
kernel's OOM killer would. A `.once` marker is removed first, so the retry succeeds; a
plain marker crashes every worker that runs the task (a poison item).
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from distributed import Client, WorkerPlugin

from engine.distributed.cluster import LocalSize, start_local
from tests.cli import Result, invoke

# Every wait in these tests is bounded: a cluster that hangs fails the test instead.
TIMEOUT = 180.0
# pytest's own main module, taken before any page test runs: Streamlit's script runner
# installs a page as `__main__` and leaves it there, and a spawned worker process would
# run that page again on start-up.
_MAIN = sys.modules["__main__"]


@contextlib.contextmanager
def two_workers() -> Iterator[str]:
    """A LocalCluster of two single-threaded worker processes; yields the scheduler address.

    While it runs, `__main__` is pytest's, so workers (and those restarted after a crash,
    and a `--cluster local` started inside) spawn cleanly whatever page tests ran before.
    """
    saved = sys.modules["__main__"]
    sys.modules["__main__"] = _MAIN
    try:
        with start_local(LocalSize(workers=2, threads=1)) as cluster:
            with Client(cluster, timeout=TIMEOUT) as client:
                client.wait_for_workers(2, timeout=TIMEOUT)
            yield cluster.scheduler_address
    finally:
        sys.modules["__main__"] = saved


# A crash waits until the worker has been up this long: a worker that dies before its nanny
# has heard it started is never restarted by that nanny, and with every worker gone so the
# run would end with no worker left instead of naming the poison item.
SETTLED_S = 3.0


class Faults(WorkerPlugin):
    """Crashes a worker when a task whose key names a marker's item starts."""

    name = "synapse-test-faults"

    def __init__(self, folder: str) -> None:
        self.folder = folder
        self.worker: Any = None
        self.started = 0.0

    def setup(self, worker: Any) -> None:
        self.worker, self.started = worker, time.monotonic()

    def transition(self, key: object, start: str, finish: str, **kwargs: Any) -> None:
        if finish != "executing":
            return
        for marker in sorted(Path(self.folder).iterdir()):
            once = marker.name.endswith(".once")
            labels = str(key).partition(":")[2].split("|")  # a chunk's key names every item
            if marker.name.removesuffix(".once") not in labels:
                continue
            if once:
                marker.unlink(missing_ok=True)
            # The worker's one task thread is held, so the task never runs, and the process
            # ends once it has settled, from a thread of its own (the worker's loop goes on).
            self.worker.executors["default"].submit(time.sleep, 3600)
            wait = max(0.0, self.started + SETTLED_S - time.monotonic())
            threading.Timer(wait, os._exit, (1,)).start()
            return


@contextlib.contextmanager
def faults(address: str, folder: Path) -> Iterator[Path]:
    """The `Faults` plugin on every worker (restarted ones too) for the block's duration."""
    folder.mkdir(parents=True, exist_ok=True)
    with Client(address, timeout=TIMEOUT) as client:
        client.register_plugin(Faults(str(folder)))
        try:
            yield folder
        finally:
            for marker in folder.iterdir():
                marker.unlink()
            client.unregister_worker_plugin(Faults.name)


def bounded(*argv: object, timeout: float = TIMEOUT) -> Result:
    """`invoke(*argv)` in this process, failing the test if it has not ended in `timeout`."""
    done: list[Result] = []
    worker = threading.Thread(target=lambda: done.append(invoke(*argv)), daemon=True)
    worker.start()
    worker.join(timeout)
    assert done, f"{argv[:2]} did not finish within {timeout:g} s"
    return done[0]


def wait_for(condition: Callable[[], bool], what: str, timeout: float = TIMEOUT) -> None:
    """Poll `condition` until it holds; fail the test when it has not within `timeout`."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"{what} did not happen within {timeout:g} s"
        time.sleep(0.05)


def tree(root: Path, *, skip: tuple[str, ...] = ()) -> dict[str, bytes]:
    """Every file under `root` (relative path -> bytes), leaving out paths under `skip`."""
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file() and not path.relative_to(root).as_posix().startswith(skip)
    }


def lines(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]

"""Where batch work runs when one machine is not enough: a Dask cluster, local or remote.

`--cluster local` starts a `dask.distributed` LocalCluster for the run, sized to this
machine: one single-threaded worker process per core, because the engine's work is pure
Python and a process, not a thread, is what gets a core of its own. `--cluster
tcp://host:port` joins a scheduler someone already runs (`dask scheduler`, with `dask
worker tcp://host:port` on each machine). Either way the client is this process: it plans
the items, collects the results in order and does every write.

A task whose worker process dies is run again on another worker; one that was running on
two workers that both died is a poison item (`KilledWorker`), reported and skipped. A
LocalCluster started here allows exactly that one retry; a remote scheduler keeps its own
`distributed.scheduler.allowed-failures` (Dask's default lets a task kill four workers).
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.core.errors import ConfigError, EngineError

if TYPE_CHECKING:  # Dask is imported when a cluster is used, not by every command's start
    from distributed import Client, LocalCluster

LOCAL = "local"
# A task that was running on this many workers that died is not run again: the first death
# may be bad luck (the machine's OOM killer, a preempted node), the second is the item.
ALLOWED_FAILURES = 1
# How long to wait for a scheduler to answer and for its first worker to join.
CONNECT_SECONDS = 30.0
WORKER_SECONDS = 120.0
_ADDRESS = re.compile(r"^tcp://(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):(\d{1,5})$")
# Settings for a cluster this process starts: retries as above; each worker is sent only
# as many queued tasks as it has threads, so a worker that dies takes down only the task it
# ran; and no statistical profiler sampling the stacks of pure-Python tasks every 10 ms.
_SETTINGS = {
    "distributed.scheduler.allowed-failures": ALLOWED_FAILURES,
    "distributed.scheduler.worker-saturation": 1.0,
    "distributed.worker.profile.enabled": False,
}


class ClusterError(EngineError):
    """The cluster cannot be reached, or it could not run a task."""


@dataclass(frozen=True)
class ClusterSpec:
    """Which cluster to run on: a LocalCluster for this run, or a scheduler's address."""

    address: str | None = None  # None: start a LocalCluster sized to this machine

    @property
    def local(self) -> bool:
        return self.address is None

    def __str__(self) -> str:
        return self.address or LOCAL


@dataclass(frozen=True)
class LocalSize:
    """The LocalCluster `--cluster local` starts: worker processes and threads in each."""

    workers: int
    threads: int = 1

    @classmethod
    def of_machine(cls) -> LocalSize:
        """One single-threaded worker per core this process may run on."""
        return cls(workers=max(1, len(os.sched_getaffinity(0))))


def parse_cluster(text: str) -> ClusterSpec:
    """`local` or `tcp://host:port`; raises ConfigError for anything else."""
    if text == LOCAL:
        return ClusterSpec()
    found = _ADDRESS.match(text)
    if found is None or not 0 < int(found.group(2)) < 65536:
        raise ConfigError(f"{text!r} is neither 'local' nor a scheduler address tcp://HOST:PORT")
    return ClusterSpec(text)


@dataclass(frozen=True)
class Connection:
    """A client connected to a cluster with workers, and what to tell the user about it."""

    client: Client
    threads: int  # worker threads when the run started: how many tasks run at once
    dashboard: str | None  # the scheduler's dashboard link, when it serves one


def start_local(size: LocalSize) -> LocalCluster:
    """A LocalCluster of `size`, with this module's retry and saturation settings."""
    import dask
    from distributed import LocalCluster

    with dask.config.set(_SETTINGS):
        return LocalCluster(
            n_workers=size.workers,
            threads_per_worker=size.threads,
            processes=True,
            # Its HTTP server (health, and the dashboard's pages when bokeh is installed)
            # always starts: on a free local port, never a fixed one another run holds.
            dashboard_address="127.0.0.1:0",
            # The scheduler's own warnings (a worker restarted) would interleave with the
            # command's one-line reports; a poison item's error is still logged.
            silence_logs=logging.ERROR,
        )


@contextlib.contextmanager
def connect(spec: ClusterSpec, size: LocalSize | None = None) -> Iterator[Connection]:
    """A client on the cluster `spec` names, closed (with a cluster it started) at the end.

    Raises ClusterError when the scheduler does not answer or no worker joins in time.
    """
    from distributed import Client

    with contextlib.ExitStack() as stack:
        try:
            if spec.local:
                cluster = stack.enter_context(start_local(size or LocalSize.of_machine()))
                client = stack.enter_context(Client(cluster))
            else:
                client = stack.enter_context(Client(spec.address, timeout=CONNECT_SECONDS))
        except (OSError, TimeoutError) as exc:
            raise ClusterError(f"cannot reach the cluster at {spec}: {exc}") from None
        try:
            client.wait_for_workers(1, timeout=WORKER_SECONDS)
        except TimeoutError:
            raise ClusterError(
                f"no worker joined the cluster at {spec} within {WORKER_SECONDS:g} s"
            ) from None
        info = client.scheduler_info()
        threads = sum(worker.get("nthreads", 1) for worker in info.get("workers", {}).values())
        yield Connection(client, max(1, threads), _dashboard(client, info))


def _dashboard(client: Client, info: dict[str, Any]) -> str | None:
    """The dashboard's link when the scheduler serves its pages (they need bokeh there)."""
    if "dashboard" not in info.get("services", {}):
        return None
    try:
        # By value, not by reference: the scheduler need not have this package installed.
        served = client.run_on_scheduler(
            lambda: __import__("importlib.util").util.find_spec("bokeh") is not None
        )
    except Exception:  # a scheduler that refuses to run code, or a lost connection
        return None
    return client.dashboard_link if served is True else None

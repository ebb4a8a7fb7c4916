"""Run one pure task per item on a cluster and hand the results back in input order.

Results arrive in whatever order the workers finish; each is held until every item before
it is in, so the caller consumes them, and writes them, exactly as a serial loop would.
The progress line counts completions as they arrive. Items cheaper than a round trip to
the cluster go `chunk` to a task; a chunk whose workers died is split and its items run
one by one, so a poison item is still the only one skipped. At most `window` tasks are on the
cluster at a time (`WINDOW_PER_THREAD` per worker thread): enough that Dask queues them on
the scheduler, which hands a worker its next task as it finishes one, without waiting for
this client; and, with the worker saturation a LocalCluster started here sets, each worker
holds only the task it runs, so a worker that dies takes no innocent task down with it. At
most `held` results wait for an earlier one, which bounds the client's memory when one
item is slow. A run never waits on a cluster with no worker: once none has been there for
`alone_s`, it stops with a ClusterError (the results already handed back stay handed back).
"""

from __future__ import annotations

import time
import uuid
from collections import deque
from collections.abc import Callable, Generator, Hashable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.distributed.cluster import WORKER_SECONDS, ClusterError

if TYPE_CHECKING:  # Dask is imported when a cluster is used, not by every command's start
    from distributed import Client, Future

Progress = Callable[[int, int], None]
# Each item's result, of whatever type its task's function returns; closing it early cancels.
Results = Generator[Any, None, None]
# Tasks on the cluster per worker thread: over two makes Dask queue them on the scheduler.
WINDOW_PER_THREAD = 4
# How many results may wait for an earlier one, per task on the cluster.
AHEAD_PER_SLOT = 32
_LABEL_CHARS = 400
_POISON = "every cluster worker that ran it died (a poison item); skipped"
# How often a run waiting on its tasks looks whether the cluster still has a worker.
_LOOK_S = 2.0


@dataclass(frozen=True)
class Task:
    """One item's work: a pure, deterministic function of its arguments, named for reports."""

    label: str
    fn: Callable[..., object]
    args: tuple[Any, ...] = ()
    weight: int = 1  # what it counts for on the progress line (pairs typed, say)


Chunk = tuple[tuple[int, Task], ...]  # (index, task) of the items one cluster task runs


@dataclass(frozen=True)
class Ready:
    """An item the client settled itself (a malformed line): passed through in its place."""

    value: object
    weight: int = 1


@dataclass(frozen=True)
class Skipped:
    """An item whose task was running on every worker that died under it: a poison item."""

    label: str
    reason: str


@dataclass(frozen=True)
class Plan:
    """How a run is paced: tasks on the cluster at once, results held ahead, progress."""

    window: int = 1
    total: int | None = None  # the items' weights in all, for the progress line
    progress: Progress | None = None
    job: str = "synapse"  # names the tasks on the dashboard
    chunk: int = 1  # items per cluster task: more when one item is cheaper than a round trip
    ahead: int = field(default=0)  # 0: AHEAD_PER_SLOT per window slot
    # How long a run waits on a cluster with no worker before it stops: a worker that died
    # and was not restarted (or a remote cluster whose workers all left) never comes back.
    alone_s: float = WORKER_SECONDS

    @property
    def held(self) -> int:
        return self.ahead or max(self.window * self.chunk * AHEAD_PER_SLOT, 1)


def run_chunk(calls: list[tuple[Callable[..., object], tuple[Any, ...]]]) -> list[object]:
    """Several items' functions called in order on one worker: one cluster task."""
    return [fn(*args) for fn, args in calls]


def run_ordered(
    client: Client | None, items: Iterable[Task | Ready], plan: Plan = Plan()
) -> Results:
    """Each item's result (a `Skipped` for a poison item) in input order.

    With no client the tasks run here, one after the other: the same results, no cluster.
    Raises ClusterError naming the item when a task raises: tasks are deterministic, so
    running it again would fail the same way. Closing the iterator early (an interrupted
    client) cancels the tasks still on the cluster.
    """
    if client is None:
        yield from _inline(items, plan)
        return
    run = _Run(client, plan)
    try:
        yield from run.results(iter(items))
    finally:
        run.cancel()


def _inline(items: Iterable[Task | Ready], plan: Plan) -> Iterator[object]:
    done = 0
    for item in items:
        yield item.value if isinstance(item, Ready) else item.fn(*item.args)
        done += item.weight
        if plan.progress is not None:
            plan.progress(done, max(plan.total or 0, done))


class _Run:
    """The futures of one ordered run: submitted within the window, released once read."""

    def __init__(self, client: Client, plan: Plan) -> None:
        from distributed import as_completed

        self.client = client
        self.plan = plan
        self.tag = uuid.uuid4().hex[:8]  # keys never collide with an earlier run's results
        self.pending = as_completed(loop=client.loop)
        self.futures: dict[Hashable, tuple[Chunk, Future[Any]]] = {}
        self.gathering: list[tuple[int, Task]] = []
        self.retry: deque[Chunk] = deque()  # the items of a chunk that killed its workers
        self.held: dict[int, object] = {}
        self.exhausted = False
        self.submitted = 0
        self.done = 0

    def results(self, items: Iterator[Task | Ready]) -> Iterator[object]:
        following = 0
        while True:
            self._fill(items, following)
            while following in self.held:
                yield self.held.pop(following)
                following += 1
            if not self.futures:
                if self.exhausted and not self.retry and not self.gathering:
                    return
                continue
            for future in self._arrived():
                self._collect(future)

    def _arrived(self) -> list[Future[Any]]:
        """The futures finished next; ClusterError once no worker was there for `alone_s`."""
        from distributed import wait
        from distributed.client import FuturesCancelledError

        alone_since: float | None = None
        while True:
            batch: list[Future[Any]] = self.pending.next_batch(block=False)
            if batch:
                return batch
            waiting = [future for _, future in self.futures.values()]
            try:
                wait(waiting, timeout=_LOOK_S, return_when="FIRST_COMPLETED")
                ended = True
            except FuturesCancelledError:  # one ended cancelled: `_collect` says which
                ended = True
            except TimeoutError:
                ended = False
            if ended:  # it reaches the queue of finished futures in a moment
                return list(self.pending.next_batch(block=True))
            if self.client.nthreads():
                alone_since = None
                continue
            alone_since = time.monotonic() if alone_since is None else alone_since
            if time.monotonic() - alone_since >= self.plan.alone_s:
                raise ClusterError(
                    f"no worker has been on the cluster for {self.plan.alone_s:g} s; "
                    f"{len(waiting)} task(s) of this run are unanswered"
                )

    def cancel(self) -> None:
        futures = [future for _, future in self.futures.values()]
        self.futures.clear()
        if futures:
            self.client.cancel(futures, force=True)

    def _fill(self, items: Iterator[Task | Ready], following: int) -> None:
        """Submit chunks while the window and the held results leave room."""
        while self._room(following):
            if self.retry:
                self._submit(self.retry.popleft())
            elif self.exhausted:
                if self.gathering:
                    self._submit(self._take())
                return
            elif (item := next(items, None)) is None:
                self.exhausted = True
            else:
                index = self.submitted
                self.submitted += 1
                if isinstance(item, Ready):
                    self._settle(index, item.value, item.weight)
                    continue
                self.gathering.append((index, item))
                if len(self.gathering) >= self.plan.chunk:
                    self._submit(self._take())

    def _room(self, following: int) -> bool:
        if len(self.futures) >= self.plan.window:
            return False
        # With nothing on the cluster, the items gathered must go even past the held limit.
        return self.submitted - following < self.plan.held or not self.futures

    def _take(self) -> Chunk:
        chunk, self.gathering = tuple(self.gathering), []
        return chunk

    def _submit(self, chunk: Chunk) -> None:
        labels = "|".join(task.label for _, task in chunk)
        label = "".join(c if c.isprintable() else "?" for c in labels[:_LABEL_CHARS])
        key = f"{self.plan.job}-{chunk[0][0]:07d}-{self.tag}:{label}"
        if len(chunk) == 1:
            task = chunk[0][1]
            future = self.client.submit(task.fn, *task.args, key=key, pure=False)
        else:
            calls = [(task.fn, task.args) for _, task in chunk]
            future = self.client.submit(run_chunk, calls, key=key, pure=False)
        self.futures[future.key] = (chunk, future)
        self.pending.add(future)

    def _collect(self, future: Future[Any]) -> None:
        from distributed.scheduler import KilledWorker

        chunk, _ = self.futures.pop(future.key)
        status = future.status
        failure = future.exception() if status == "error" else None
        values = future.result() if status == "finished" else None
        future.release()
        if status == "cancelled":
            raise ClusterError(f"{chunk[0][1].label}: the cluster cancelled its task")
        if failure is not None and not isinstance(failure, KilledWorker):
            raise ClusterError(f"{chunk[0][1].label}: {failure}")
        if failure is not None and len(chunk) > 1:
            self.retry.extend((pair,) for pair in chunk)
            return
        if failure is not None:
            index, task = chunk[0]
            self._settle(index, Skipped(task.label, _POISON), task.weight)
            return
        results = [values] if len(chunk) == 1 else list(values or ())
        for (index, task), value in zip(chunk, results, strict=True):
            self._settle(index, value, task.weight)

    def _settle(self, index: int, value: object, weight: int) -> None:
        self.held[index] = value
        self.done += weight
        if self.plan.progress is not None:
            self.plan.progress(self.done, max(self.plan.total or 0, self.done))

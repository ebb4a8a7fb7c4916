"""A small pool of daemon threads: no call it runs can hold the process open at exit.

`concurrent.futures.ThreadPoolExecutor` joins its threads when the interpreter exits, so
one stuck call (a model endpoint trickling its reply) keeps a stopped server alive until it
is killed. These threads are daemons and are never joined; a call left running when the
process ends is simply dropped, which is safe because every write under `.synapse/` is
atomic or whole-line.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")


class DaemonPool:
    """`workers` daemon threads taking calls in order from one queue."""

    def __init__(self, workers: int, name: str) -> None:
        if workers < 1:
            raise ValueError("a pool needs at least one worker")
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._closed = False
        self._threads = [
            threading.Thread(target=self._serve, name=f"{name}-{n}", daemon=True)
            for n in range(workers)
        ]
        for thread in self._threads:
            thread.start()

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        """Queue `fn(*args, **kwargs)`; a call not yet started can be cancelled on the future."""
        if self._closed:
            raise RuntimeError("the pool is shut down")
        future: Future[T] = Future()
        self._queue.put((future, fn, args, kwargs))
        return future

    def shutdown(self) -> None:
        """Stop taking calls; queued ones still run, threads end once the queue is empty."""
        self._closed = True
        for _ in self._threads:
            self._queue.put(None)

    def _serve(self) -> None:
        while (item := self._queue.get()) is not None:
            future, fn, args, kwargs = item
            if not future.set_running_or_notify_cancel():
                continue
            try:
                result = fn(*args, **kwargs)
            except BaseException as exc:  # handed to whoever waits on the future
                future.set_exception(exc)
            else:
                future.set_result(result)

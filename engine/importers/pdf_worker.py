"""PDF extraction in a worker process with a wall-clock budget and a memory bound per file.

pypdf is pure Python and has no deadline: a small PDF whose thousands of pages share one
large content stream, or a page of megabytes of operators, keeps it busy for hours. So the
text is extracted in a separate process that can be killed. Each file gets `time_limit`
seconds of wall-clock time; past it the process is killed, the file is reported as taking
too long, and a fresh process takes the next file. The process's address space is capped
(`RLIMIT_AS`), so a file that needs more memory fails alone instead of exhausting the
machine, and its CPU time is capped too, so a process orphaned by a killed import ends on
its own.
"""

from __future__ import annotations

import contextlib
import os
import resource
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Protocol

from engine.importers.limits import PDF_TIME_LIMIT
from engine.importers.pdf import (
    MAX_PAGES,
    MAX_PDF_BYTES,
    PdfFailure,
    PdfFailureKind,
    PdfText,
    extract_pdf,
)

DEFAULT_TIME_LIMIT = PDF_TIME_LIMIT
DEFAULT_MEMORY_BYTES = 2 * 1024**3
# How long a fresh process may take to start and import pypdf before the first file.
START_SECONDS = 60.0
# CPU seconds a process may spend past a file's wall-clock budget before the kernel ends it.
_CPU_GRACE = 10


@dataclass(frozen=True)
class PdfBudget:
    """What one PDF may cost: wall-clock seconds, memory, pages and bytes."""

    time_limit: float = DEFAULT_TIME_LIMIT
    memory_bytes: int = DEFAULT_MEMORY_BYTES
    max_pages: int = MAX_PAGES
    max_bytes: int = MAX_PDF_BYTES


class Extractor(Protocol):
    """Reads one PDF's bytes into text within its budget: a PdfWorker, or a cluster's reader.

    Never raises for a bad, slow or huge file: each comes back as a `PdfFailure`.
    """

    def extract(self, data: bytes) -> PdfText | PdfFailure: ...


class PdfWorker:
    """A worker process extracting one PDF at a time; `close()` ends it.

    Use as a context manager. `extract` never raises for a bad, slow or huge file: each
    comes back as a `PdfFailure` naming the budget it broke.
    """

    def __init__(self, budget: PdfBudget | None = None) -> None:
        self.budget = budget or PdfBudget()
        self._process: subprocess.Popen[bytes] | None = None
        self._conn: Connection | None = None

    def __enter__(self) -> PdfWorker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def extract(self, data: bytes) -> PdfText | PdfFailure:
        """The text of the PDF in `data`, or why there is none, within the budget."""
        budget = self.budget
        try:
            conn = self._ready()
            conn.send((data, budget.max_pages, budget.max_bytes, budget.time_limit))
            if not conn.poll(budget.time_limit):
                self._stop()
                return PdfFailure(
                    PdfFailureKind.TOO_SLOW,
                    f"took longer than {budget.time_limit:g} s to read; skipped "
                    "(--time-limit raises the budget)",
                )
            result: PdfText | PdfFailure = conn.recv()  # what the worker below sends
        except (EOFError, OSError):
            code = self._process.poll() if self._process is not None else None
            self._stop()
            return PdfFailure(
                PdfFailureKind.CRASHED,
                f"the PDF reader stopped while reading it (exit code {code}); skipped",
            )
        if isinstance(result, PdfFailure) and result.kind is PdfFailureKind.TOO_LARGE:
            self._stop()  # a process that ran out of memory is not trusted with the next file
        return result

    def close(self) -> None:
        """End the worker process."""
        if self._conn is not None:
            with contextlib.suppress(OSError):
                self._conn.send(None)
        self._stop(grace=1.0)

    def _ready(self) -> Connection:
        if self._conn is not None and self._process is not None and self._process.poll() is None:
            return self._conn
        self._stop()
        # A plain interpreter on a socket, not multiprocessing: nothing of the caller's
        # `__main__` is imported again, whatever script or app is running.
        ours, theirs = socket.socketpair()
        package_root = str(Path(__file__).resolve().parents[2])
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join(
                p for p in (package_root, os.environ.get("PYTHONPATH", "")) if p
            ),
        }
        with theirs:
            command = [sys.executable, "-m", __name__, str(theirs.fileno())]
            command.append(str(self.budget.memory_bytes))
            self._process = subprocess.Popen(
                command,
                pass_fds=(theirs.fileno(),),
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        self._conn = Connection(ours.detach())
        if not self._conn.poll(START_SECONDS):
            self._stop()
            raise OSError("the PDF reader process did not start")
        self._conn.recv()  # "ready"
        return self._conn

    def _stop(self, grace: float = 0.0) -> None:
        process, conn = self._process, self._conn
        self._process = self._conn = None
        if conn is not None:
            conn.close()
        if process is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(grace)
            if process.poll() is None:
                process.kill()
                process.wait()


def serve(conn: Connection, memory_bytes: int) -> None:
    """The worker process: extract each PDF sent on `conn` until None or the pipe closes."""
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    conn.send("ready")
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        data, max_pages, max_bytes, time_limit = job
        _limit_cpu(time_limit)
        try:
            result = extract_pdf(data, max_pages=max_pages, max_bytes=max_bytes)
        except MemoryError:
            del data
            result = PdfFailure(
                PdfFailureKind.TOO_LARGE,
                f"needs more than {memory_bytes // 1024**2:,} MB of memory to read; skipped",
            )
        conn.send(result)


def _limit_cpu(time_limit: float) -> None:
    """Let this process spend at most the file's budget (and a grace) more CPU seconds."""
    soft = int(time.process_time() + time_limit) + _CPU_GRACE
    # Only the soft limit moves: a lowered hard limit could never be raised for the next file.
    with contextlib.suppress(ValueError, OSError):
        _, hard = resource.getrlimit(resource.RLIMIT_CPU)
        resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))


if __name__ == "__main__":
    serve(Connection(int(sys.argv[1])), int(sys.argv[2]))

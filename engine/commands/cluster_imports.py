"""`sources add` and `import zotero` on a cluster: each PDF read by a worker, written here.

Reading is the slow step (pypdf parses 160–450 pages/s on one core), so each PDF is one
task: a worker reads the file from the path it shares with the client, checks it has the
same bytes, and extracts the text with the same budgeted, killable reader the serial
import uses (`engine.importers.pdf_worker`). The import itself runs here, unchanged: it
asks for each PDF's text in its own order and writes through its import writer, so the
files, the manifest and the report are the serial run's. A PDF whose text an earlier run
already wrote (its sidecar records the PDF's hash) is not sent, so a re-run after an
interruption reads only what is missing.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from engine.commands.cluster_session import session
from engine.commands.progress import Progress
from engine.core.errors import WorkspaceError
from engine.distributed.cluster import ClusterSpec
from engine.distributed.ordered import Plan, Skipped, Task
from engine.importers.pdf import PdfFailure, PdfFailureKind, PdfText
from engine.importers.pdf_worker import Extractor, PdfBudget, PdfWorker
from engine.importers.sources import SIDECAR_SUFFIX, read_sidecar
from engine.workspace.layout import SOURCES_DIR


@contextlib.contextmanager
def pdf_reader(
    spec: ClusterSpec | None,
    root: Path,
    paths: Callable[[], Sequence[Path]],
    budget: PdfBudget,
) -> Iterator[Extractor | None]:
    """The extractor an import reads its PDFs with on the cluster `spec`; None without one.

    `paths()` lists the PDFs the import will ask for, in its order; it is called only when
    there is a cluster.
    """
    if spec is None:
        yield None
        return
    planned = plan_reads(paths(), budget, recorded_digests(root))
    line = Progress("reading PDFs")
    tasks = [task for _, task in planned]
    with (
        session(spec) as run,
        run.run(tasks, Plan(total=len(tasks), progress=line, job="pdf")) as results,
        ClusterReader(results, [digest for digest, _ in planned], budget) as reader,
    ):
        yield reader


class ClusterReader:
    """Texts read on the cluster, handed to the import by the content it asks for."""

    def __init__(self, results: Iterator[object], digests: Sequence[str], budget: PdfBudget):
        self._results = zip(digests, results, strict=False)
        self._planned = frozenset(digests)
        self._ready: dict[str, object] = {}
        self._budget = budget
        self._here: PdfWorker | None = None

    def extract(self, data: bytes) -> PdfText | PdfFailure:
        """The text of the PDF in `data`: the cluster's, or read here when none was planned."""
        digest = hashlib.sha256(data).hexdigest()
        if digest in self._planned:
            while digest not in self._ready:
                found = next(self._results, None)
                if found is None:
                    break
                self._ready[found[0]] = found[1]
        value = self._ready.pop(digest, None)
        if isinstance(value, Skipped):
            return PdfFailure(PdfFailureKind.CRASHED, value.reason)
        if isinstance(value, PdfText | PdfFailure):
            return value
        # Not planned: changed since it was planned, or a second file with the same bytes.
        if self._here is None:
            self._here = PdfWorker(self._budget)
        return self._here.extract(data)

    def __enter__(self) -> ClusterReader:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._here is not None:
            self._here.close()


def plan_reads(
    paths: Sequence[Path], budget: PdfBudget, recorded: frozenset[str]
) -> list[tuple[str, Task]]:
    """(sha256, task) for each PDF to read: readable, within the size limit, not yet written.

    A file left out here is still asked for by the import, which reports its problem or
    finds it unchanged exactly as it does serially.
    """
    seen = set(recorded)
    out = []
    for path in paths:
        digest = _digest(path, budget.max_bytes)
        if digest is None or digest in seen:
            continue
        seen.add(digest)
        out.append((digest, Task(path.name, read_pdf, (str(path), digest, budget))))
    return out


def recorded_digests(root: Path) -> frozenset[str]:
    """The hashes of the PDFs whose texts `sources/` already holds, from their sidecars."""
    folder = Path(root) / SOURCES_DIR
    if not folder.is_dir():
        return frozenset()
    found = set()
    for path in folder.glob(f"*{SIDECAR_SUFFIX}"):
        digest = read_sidecar(root, f"{SOURCES_DIR}/{path.name}").get("sha256")
        if isinstance(digest, str):
            found.add(digest)
    return frozenset(found)


def read_pdf(path: str, digest: str, budget: PdfBudget) -> PdfText | PdfFailure:
    """One PDF read on a worker within its budget (the task).

    Raises WorkspaceError when this worker cannot read the file or reads other bytes than
    the client did: the workers do not share the client's path.
    """
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise WorkspaceError(
            f"cannot read {path} on this worker ({exc.strerror or exc}): workers must see "
            "the PDFs at the same path"
        ) from None
    if hashlib.sha256(data).hexdigest() != digest:
        raise WorkspaceError(
            f"{path} on this worker is not the file the client read: workers must see the "
            "PDFs at the same path"
        )
    return _worker(budget).extract(data)


_local = threading.local()


def _worker(budget: PdfBudget) -> PdfWorker:
    """This thread's PDF reader process for `budget`, started once and reused."""
    workers: dict[PdfBudget, PdfWorker] = _local.__dict__.setdefault("workers", {})
    if budget not in workers:
        workers[budget] = PdfWorker(budget)
    return workers[budget]


def _digest(path: Path, limit: int) -> str | None:
    """The file's sha256, or None when it is not a regular file within `limit` bytes."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
            return None
        return hashlib.file_digest(handle, "sha256").hexdigest()

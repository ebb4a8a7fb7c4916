"""Batch commands on a Dask LocalCluster of 1 and 2 worker processes: speed-up and overhead.

Every time is a whole `python -m engine …` process, as a user runs it, against a cluster
already started (its start-up is its own row) whose workers have run the command once (a
warm-up on one item: imports, the workspace loaded, the PDF reader started); the best of
two interleaved rounds. For each command:

- the work per item, c = (T_serial(n) - T_serial(1)) / (n - 1), on one core here;
- the cluster's overhead per item, r = (T_1proc(n) - T_1proc(1)) / (n - 1) - c: shipping the
  task and its result, the scheduler's bookkeeping, one round trip per item;
- the speed-up from 1 to 2 worker processes, and its efficiency (speed-up / 2);
- a projection to M machines of 2 cores for 10,000 items:
  T(W) = F + 10,000 * max((c + r) / W, s) with W = 2M workers, F = T_1proc(1) - (c + r) the
  fixed cost of a run (interpreter, opening the workspace, connecting, sending the index
  snapshot) and s the floor: the client and scheduler's time per task alone (2,000 no-op
  tasks, 64 in flight; the scheduler shares this process, as with `--cluster local`),
  divided by the items a task carries. Assumed: items cost alike, the workers are this
  machine's cores, the network adds nothing the loopback does not, and the shared
  filesystem reads as fast as the local disk. The speed-up is over the serial run
  F_serial + 10,000 * c.

This machine has 2 cores shared with other jobs, so "2 processes" can at best double; the
first and last rows measure how much two busy processes without Dask get at that moment.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from distributed import Client

from bench.bench_importers import _pages, _sentences
from bench.timing import row
from engine.api import open_workspace, route_payload
from engine.commands.cluster_batch import ASK_CHUNK, ROUTE_CHUNK
from engine.commands.cluster_review import CLAIM_CHUNK, ENTRY_CHUNK
from engine.core.errors import PayloadError
from engine.datasets.scifact import import_scifact, labels_path
from engine.distributed.cluster import LocalSize, start_local
from engine.distributed.ordered import Plan, Task, run_ordered
from tests.builders.pdfgen import write_pdf
from tests.builders.zotero_library import Paper, build_library

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data" / "scifact"
ITEMS = 10_000
MACHINES = (4, 16, 64)
CORES = 2
FLOOR_TASKS = 2_000
REPEATS = 2


@dataclass(frozen=True)
class Job:
    """One batch command: its items and how to run it on `n` of them into a fresh folder."""

    name: str
    n: int
    argv: Callable[[int, Path], list[str]]  # (items, a fresh folder) -> command line
    chunk: int = 1  # items the command sends in one cluster task


def run() -> Iterator[dict[str, Any]]:
    saved = os.environ.get("SYNAPSE_STATE_DIR")
    with tempfile.TemporaryDirectory(prefix="bench-cluster-") as temp:
        folder = Path(temp)
        # The clusters' workers and every command share this index key.
        os.environ["SYNAPSE_STATE_DIR"] = str(folder / "state")
        try:
            jobs = _jobs(folder)
            ceiling = _ceiling()
            yield row(
                "two busy processes vs one, no Dask (this machine's ceiling)",
                ceiling,
                "x",
            )
            started = time.perf_counter()
            with _cluster(2) as two:
                yield row(
                    "LocalCluster start, 2 worker processes", time.perf_counter() - started, "s"
                )
                with _cluster(1) as one:
                    floor = _floor(two)
                    yield row(
                        f"cluster floor per item ({FLOOR_TASKS:,} no-op tasks, 64 in flight)",
                        floor * 1000,
                        "ms",
                    )
                    for job in jobs:
                        yield from _rows(job, _measure(job, one, two, folder), floor)
            yield row("two busy processes vs one, again at the end", _ceiling(), "x")
        finally:
            if saved is None:
                os.environ.pop("SYNAPSE_STATE_DIR", None)
            else:
                os.environ["SYNAPSE_STATE_DIR"] = saved


@dataclass(frozen=True)
class Measured:
    """Seconds of one job: serial on 1 and n items, 1 process on 1 and n, 2 processes on n."""

    serial_one: float
    serial: float
    one_one: float
    one: float
    two: float


def _measure(job: Job, one: str, two: str, folder: Path) -> Measured:
    """The best of `REPEATS` rounds, the five runs interleaved so the machine's load drifts
    over all of them alike."""
    fresh = _fresh(folder / job.name.split()[0])

    def on(argv: list[str], address: str) -> list[str]:
        return [*argv, "--cluster", address]

    _time(on(job.argv(1, fresh()), one))  # warm-ups, not timed
    _time(on(job.argv(1, fresh()), two))
    runs: list[list[float]] = []
    for _ in range(REPEATS):
        runs.append(
            [
                _time(job.argv(1, fresh())),
                _time(job.argv(job.n, fresh())),
                _time(on(job.argv(1, fresh()), one)),
                _time(on(job.argv(job.n, fresh()), one)),
                _time(on(job.argv(job.n, fresh()), two)),
            ]
        )
    return Measured(*(min(column) for column in zip(*runs, strict=True)))


def _rows(job: Job, m: Measured, floor: float) -> Iterator[dict[str, Any]]:
    work = max((m.serial - m.serial_one) / (job.n - 1), 0.0)
    overhead = (m.one - m.one_one) / (job.n - 1) - work
    speedup = m.one / m.two
    yield row(
        f"{job.name} ({job.n:,} items): 2 worker processes",
        m.two,
        "s",
        peer=f"serial {m.serial:.1f} s, 1 process {m.one:.1f} s",
    )
    yield row(
        f"{job.name}: speed-up 1 -> 2 processes",
        speedup,
        "x",
        peer=f"efficiency {speedup / 2:.2f}; serial -> 2 processes {m.serial / m.two:.2f}x",
    )
    yield row(
        f"{job.name}: cluster overhead per item",
        overhead * 1000,
        "ms",
        peer=f"work per item {work * 1000:.1f} ms; {job.chunk} item(s) a task",
    )
    per_item = work + max(overhead, 0.0)
    fixed = max(m.one_one - per_item, 0.0)
    serial = max(m.serial_one - work, 0.0) + ITEMS * work
    projected = {
        machines: serial / (fixed + ITEMS * max(per_item / (CORES * machines), floor / job.chunk))
        for machines in MACHINES
    }
    yield row(
        f"{job.name}: projected speed-up, {ITEMS:,} items, {MACHINES[1]} machines x {CORES} cores",
        projected[MACHINES[1]],
        "x",
        peer=", ".join(f"{k} machines {v:.1f}x" for k, v in projected.items() if k != MACHINES[1]),
    )


def _ceiling() -> float:
    """How much faster two busy processes finish two units of pure-Python work than one
    does: what this shared machine lets any two processes reach, Dask or not."""
    busy = [sys.executable, "-c", "sum(i * i for i in range(12_000_000))"]
    started = time.perf_counter()
    subprocess.run(busy, check=True)
    subprocess.run(busy, check=True)
    one = time.perf_counter() - started
    started = time.perf_counter()
    running = [subprocess.Popen(busy) for _ in range(2)]
    for process in running:
        process.wait()
    return one / (time.perf_counter() - started)


def _jobs(folder: Path) -> list[Job]:
    """The six batch commands, with their inputs written under `folder`."""
    workspace = folder / "scifact"
    import_scifact(DATA / "corpus.jsonl.gz", DATA / "claims_train.jsonl", workspace)
    open_workspace(workspace).close()  # indexed once, outside the timings
    gold = labels_path(workspace)
    claims = [json.loads(line) for line in gold.read_text().splitlines() if line.strip()]
    questions = _batches(
        folder, "questions", [{"id": c["id"], "question": c["claim"]} for c in claims]
    )
    payloads = sorted((ROOT / "examples" / "payloads").glob("*.json"))
    routable = [_routable(p) for p in payloads]
    routed = [payload for payload in routable if payload is not None] * 200
    lines = _batches(folder, "payloads", routed)
    pdfs = _pdfs(folder / "pdfs", 30)
    library = _library(folder / "zotero", 200)
    ws = str(workspace)
    lab = str(ROOT / "examples" / "momentum-lab")
    wsa, laba = ["--workspace", ws], ["--workspace", lab]
    evaluate = ["eval", "scifact", *wsa, "--claims", str(gold), "--limit"]
    overlay = ["overlay", "build", *wsa, "--quiet", "--limit"]

    def add(n: int) -> list[str]:
        return ["sources", "add", *pdfs[:n]]

    def zotero(n: int) -> list[str]:
        return ["import", "zotero", "--data-dir", library(n)]

    return [
        Job("ask --batch", 80, lambda n, _: ["ask", "--batch", questions(n), *wsa], ASK_CHUNK),
        Job("route --batch", 1500, lambda n, _: ["route", "--batch", lines(n), *laba], ROUTE_CHUNK),
        Job("eval scifact", 80, lambda n, _: [*evaluate, str(n)], CLAIM_CHUNK),
        Job("overlay build", 300, lambda n, _: [*overlay, str(n)], ENTRY_CHUNK),
        Job("sources add", 30, lambda n, out: [*add(n), "--workspace", _made(out)]),
        Job("import zotero", 200, lambda n, out: [*zotero(n), "--workspace", str(out)]),
    ]  # fmt: skip


def _routable(path: Path) -> dict[str, Any] | None:
    """The example's payload when it routes (some examples are malformed on purpose)."""
    payload: dict[str, Any] = json.loads(path.read_text())["payload"]
    try:
        route_payload(payload)
    except PayloadError:
        return None
    return payload


def _batches(folder: Path, name: str, rows: list[dict[str, Any]]) -> Callable[[int], str]:
    """A JSON-lines file of the first n rows, written once per n."""

    def path(n: int) -> str:
        out = folder / f"{name}-{n}.jsonl"
        if not out.exists():
            out.write_text("".join(json.dumps(r) + "\n" for r in rows[:n]), encoding="utf-8")
        return str(out)

    return path


def _pdfs(folder: Path, count: int) -> list[str]:
    rng, sentences = random.Random(26), _sentences()
    return [
        str(write_pdf(folder / f"paper{n:03d}.pdf", _pages(sentences, rng.randint(10, 30), rng)))
        for n in range(count)
    ]


def _library(folder: Path, count: int) -> Callable[[int], str]:
    """A Zotero data folder of the first n items (nine in ten with a 2-page PDF)."""
    rng, sentences = random.Random(27), _sentences()
    papers = [
        Paper(
            key=f"K{n:07d}",
            title=sentences[(n * 7) % len(sentences)][:90],
            authors=[(f"Author{n % 61}", "A")],
            date=str(1990 + n % 35),
            abstract=sentences[(n * 11) % len(sentences)],
            pages=_pages(sentences, 2, rng) if n % 10 else None,
        )
        for n in range(count)
    ]
    made: dict[int, str] = {}

    def path(n: int) -> str:
        if n not in made:
            made[n] = str(build_library(folder / f"lib-{n}", papers[:n]))
        return made[n]

    return path


def _fresh(base: Path) -> Callable[[], Path]:
    counter = iter(range(1_000_000))
    return lambda: base / f"run-{next(counter)}"


def _made(folder: Path) -> str:
    folder.mkdir(parents=True, exist_ok=True)
    return str(folder)


def _time(argv: list[str]) -> float:
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "engine", *argv],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=False,
    )
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(argv[:2])} exited {done.returncode}: {done.stderr[-500:]}")
    return seconds


@contextlib.contextmanager
def _cluster(workers: int) -> Iterator[str]:
    with start_local(LocalSize(workers=workers)) as cluster, Client(cluster) as client:
        client.wait_for_workers(workers, timeout=120)
        yield cluster.scheduler_address


def noop(value: int) -> int:
    """A task that does nothing: what is left of its time is the cluster's."""
    return value


def _floor(address: str) -> float:
    """Seconds per item the client and scheduler need alone, 64 tasks in flight."""
    with Client(address) as client:
        tasks = [Task(str(n), noop, (n,)) for n in range(FLOOR_TASKS)]
        list(run_ordered(client, tasks[:100], Plan(window=64)))  # warm-up
        started = time.perf_counter()
        list(run_ordered(client, tasks, Plan(window=64)))
        return (time.perf_counter() - started) / FLOOR_TASKS

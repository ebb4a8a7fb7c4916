"""A library reopened by a new process: the open, its first question, then more questions.

What a researcher scripting questions, a batch job per chapter or a restarted notebook waits
for: the workspace was opened before (its caches kept), and a new process opens it again and
asks. Questions are sentences of passages picked with a fixed seed; the first is asked
before any other passage is read.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_CHILD = """
import json, random, resource, statistics, sys, time
from engine.api import ask, open_workspace

started = time.perf_counter()
opened = open_workspace(sys.argv[1])
opened_at = time.perf_counter()
passages = opened.workspace.notes.passages
rng = random.Random(int(sys.argv[2]))
picked = rng.sample(list(passages), int(sys.argv[3]) + 1)
first_question = passages[picked[0]].quotes[0].body
began = time.perf_counter()
ask(opened, first_question)
first = time.perf_counter() - began
latencies = []
for address in picked[1:]:
    question = rng.choice(passages[address].quotes).body
    began = time.perf_counter()
    ask(opened, question)
    latencies.append((time.perf_counter() - began) * 1000)
latencies.sort()
print(json.dumps({
    "open": opened_at - started,
    "first": first,
    "p50": statistics.median(latencies),
    "p95": latencies[max(int(0.95 * len(latencies)) - 1, 0)],
    "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    "passages": len(passages),
}))
"""


@dataclass(frozen=True)
class Reopened:
    """Seconds to open and to answer the first question; later questions' p50 and p95 in
    milliseconds; the process's peak RSS in MB; how many passages the library holds."""

    open_s: float
    first_s: float
    p50_ms: float
    p95_ms: float
    rss_mb: float
    passages: int


def reopen(workspace: Path, questions: int = 60, *, seed: int = 23) -> Reopened:
    """Open `workspace` in a new process (its caches kept from an earlier open) and ask."""
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, str(workspace), str(seed), str(questions)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    got = json.loads(done.stdout.strip().splitlines()[-1])
    return Reopened(
        open_s=float(got["open"]),
        first_s=float(got["first"]),
        p50_ms=float(got["p50"]),
        p95_ms=float(got["p95"]),
        rss_mb=float(got["rss"]),
        passages=int(got["passages"]),
    )


def reopen_twice(workspace: Path) -> tuple[Reopened, Reopened]:
    """Two `reopen`s in a row: the first builds the ranking view a question needs (as the
    first process after an import or an edit does: any kept view is removed first) and keeps
    it; the second reads it back."""
    from engine.workspace.caches import cache_folder
    from engine.workspace.index_view_file import VIEW_FILE

    (cache_folder(workspace) / VIEW_FILE).unlink(missing_ok=True)
    return reopen(workspace), reopen(workspace)


def reopen_rows(suite: str, label: str, runs: tuple[Reopened, Reopened]) -> list[dict[str, object]]:
    """The bench rows of `reopen_twice` (`suite`: the rows' prefix; `label`: the library)."""
    from bench.timing import row

    built, found = runs
    return [
        row(
            f"{suite}: reopen in a new process ({label}, {found.passages:,} passages)",
            found.open_s,
            "s",
            target="< 2 s",
            meets=found.open_s < 2,
        ),
        row(f"{suite}: that process's first question (ranking view kept)", found.first_s, "s"),
        row(
            f"{suite}: the first question after an import or an edit (view built)",
            built.first_s,
            "s",
        ),
        row(
            f"{suite}: ask p50 in that process (a sentence of a random passage)",
            found.p50_ms,
            "ms",
            target="< 300 ms",
            meets=found.p50_ms < 300,
        ),
        row(f"{suite}: ask p95 in that process", found.p95_ms, "ms"),
        row(f"{suite}: peak RSS of that process", found.rss_mb, "MB"),
    ]

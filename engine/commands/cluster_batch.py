"""`ask --batch` and `route --batch` one line per task: on a cluster, or into a resumable file.

Each line is one task, pure and deterministic (a question answered over the workspace, a
payload routed), and its output line is written here, in input order, exactly as the
serial loop writes it. With `--out FILE` the lines are appended to FILE whole, and a run
that was interrupted is finished by the next run with the same FILE.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.api import answer, route_json
from engine.commands.batch import Tally, batch_lines
from engine.commands.cluster_session import Where, session, skipped_line, worker_workspace
from engine.commands.progress import Progress, answers_redirected
from engine.core.errors import ConfigError, PayloadError
from engine.core.wire import dumps
from engine.distributed.jsonl_out import Identity, LinesOut
from engine.distributed.ordered import Plan, Ready, Skipped, Task
from engine.navigation.substrate import Budget
from engine.workspace.opened import OpenWorkspace

# Items per cluster task: an answer takes tens of milliseconds, a routed payload one or two,
# and a task's round trip through the scheduler several.
ASK_CHUNK = 2
ROUTE_CHUNK = 32


@dataclass(frozen=True)
class AskRules:
    """How `ask` reads a batch line and shapes an answer: the command's own functions."""

    # (data, problem, line, tally) -> entry
    item: Callable[[object, str, int, Tally], dict[str, Any]]
    # (answer as a dict, full) -> what is printed
    shape: Callable[[dict[str, Any], bool], dict[str, Any]]


@dataclass(frozen=True)
class AskJob:
    """What every question of one batch is answered with, on whichever worker."""

    where: Where
    reasoner: str
    budget: Budget
    shape: Callable[[dict[str, Any], bool], dict[str, Any]]
    full: bool


def ask_batch(opened: OpenWorkspace, args: argparse.Namespace, rules: AskRules) -> int:
    """Answer every line of `args.batch`, one task a line; the exit status of the serial loop."""
    tally = Tally(args.batch)
    entries = [
        (number, rules.item(data, problem, number, tally))
        for number, data, problem in batch_lines(args.batch)
    ]
    budget = Budget(hops=args.hops, max_nodes=args.max_nodes, max_steps=args.max_steps)
    expected = [entry.get("id") for _, entry in entries]
    skipped = 0
    with _sink(args.out, expected, _by_id) as sink, session(args.cluster) as run:
        where, image = run.share(opened)
        job = AskJob(where, args.reasoner, budget, rules.shape, args.full)
        todo = entries[sink.kept :]
        items = [
            Ready(entry)
            if "error" in entry
            else Task(f"line {number}", ask_line, (job, image, entry["question"]))
            for number, entry in todo
        ]
        line = Progress("asking", enabled=_progress_shown(args.out))
        plan = Plan(total=len(items), progress=line, job="ask", chunk=ASK_CHUNK)
        with run.run(items, plan) as results:
            for (number, entry), value in zip(todo, results, strict=True):
                if isinstance(value, Skipped):
                    skipped += 1
                    sink.write(dumps(_skipped(entry.get("id"), number, value)))
                elif "error" in entry:
                    sink.write(dumps(entry))
                else:
                    sink.write(dumps({"id": entry["id"], **value}))
    return tally.exit_status(1 if skipped else 0)


def ask_line(job: AskJob, image: object, question: str) -> dict[str, Any]:
    """One question answered on a worker, shaped as the command prints it (the task)."""
    opened = worker_workspace(job.where, image)
    result = answer(opened, question, reasoner=job.reasoner, budget=job.budget)
    return job.shape(result.to_dict(), job.full)


def route_batch(args: argparse.Namespace) -> int:
    """Route every payload line of `args.batch`: one decision a line, with its line number."""
    tally = Tally(args.batch)
    lines = list(raw_lines(args.batch))
    workspace = str(args.workspace) if args.workspace is not None else None
    skipped = 0
    with (
        _sink(args.out, [number for number, _ in lines], _by_line) as sink,
        session(args.cluster) as run,
    ):
        tally.problems.extend(sink.errors)
        todo = lines[sink.kept :]
        items = [Task(f"line {number}", route_line, (raw, workspace)) for number, raw in todo]
        line = Progress("routing", enabled=_progress_shown(args.out))
        plan = Plan(total=len(items), progress=line, job="route", chunk=ROUTE_CHUNK)
        with run.run(items, plan) as results:
            for (number, _), value in zip(todo, results, strict=True):
                if isinstance(value, Skipped):
                    skipped += 1
                    record = _skipped(None, number, value)
                elif isinstance(value, str):
                    record = tally.error(None, number, value)
                else:
                    record = {"line": number, **value}
                sink.write(dumps(record))
    return tally.exit_status(1 if skipped else 0)


def route_line(raw: bytes, workspace: str | None) -> dict[str, Any] | str:
    """One payload routed on a worker: the decision, or the problem that makes it malformed."""
    try:
        return route_json(raw, workspace=workspace).to_dict()
    except PayloadError as exc:
        return str(exc)


def raw_lines(path: Path) -> Iterator[tuple[int, bytes]]:
    """(line number, bytes) of each non-blank line; ConfigError when the file cannot be read."""
    try:
        with path.open("rb") as stream:
            yield from ((n, raw) for n, raw in enumerate(stream, start=1) if raw.strip())
    except OSError as exc:
        raise ConfigError(f"cannot read batch file {path}: {exc.strerror or exc}") from None


def _skipped(ident: object, number: int, skipped: Skipped) -> dict[str, Any]:
    print(skipped_line(f"line {number}", skipped.reason), file=sys.stderr, flush=True)
    return {"id": ident, "line": number, "error": f"line {number}: skipped: {skipped.reason}"}


def _by_id(record: dict[str, Any]) -> object:
    return record.get("id")


def _by_line(record: dict[str, Any]) -> object:
    return record.get("line")


def _progress_shown(out: Path | None) -> bool | None:
    # Printed answers show their own progress on a terminal; a file's lines do not.
    return None if out is not None else answers_redirected()


class _Printed:
    """Lines to standard output, each flushed as it is written, as the serial loop prints."""

    kept = 0
    errors: Sequence[str] = ()

    def write(self, line: str) -> None:
        print(line, flush=True)


@contextlib.contextmanager
def _sink(
    out: Path | None, expected: Sequence[object], identity: Identity
) -> Iterator[_Printed | LinesOut]:
    if out is None:
        yield _Printed()
        return
    with LinesOut.resume(out, expected, identity) as lines:
        yield lines
    summary = {"out": str(out), "kept": lines.kept, "written": lines.written}
    print(json.dumps(summary, sort_keys=True))

"""`overlay build` and `eval scifact` on a cluster: a practice entry or a claim per task.

The client still does what makes the result one result: the overlay's candidates are drawn
here from the index (one search per practice entry), the typed pairs come back in order and
`build_overlay` keeps, ranks and writes the edges exactly as it does serially; the claims'
outcomes come back in order and are scored here.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from engine.commands.cluster_session import Session, Where, session, skipped_line, worker_workspace
from engine.distributed.cluster import ClusterSpec
from engine.distributed.ordered import Plan, Skipped, Task
from engine.evaluation.navigation_scores import ClaimOutcome, GoldClaim, run_claims, score
from engine.review.overlay import Candidate, Pairwise, Progress, note_text
from engine.review.relations import Typing
from engine.review.typers import make_typer
from engine.workspace.opened import OpenWorkspace, Reading, read_with

# Items per cluster task: a practice entry's pairs type in a few milliseconds, a claim is
# asked in tens; a task's round trip through the scheduler takes several.
ENTRY_CHUNK = 8
CLAIM_CHUNK = 2


@dataclass
class ClusterTyping:
    """A `PairTyping` that types each practice entry's pairs as one task on the cluster."""

    run: Session
    where: Where
    image: object
    typer: str
    skipped: list[str] = field(default_factory=list)  # the practice entries left untyped

    def __call__(
        self, typed_by: Pairwise, pairs: Sequence[Candidate], progress: Progress | None
    ) -> list[Typing | None]:
        groups = [
            list(group) for _, group in itertools.groupby(pairs, key=lambda p: p.practice.address)
        ]
        items = [
            Task(
                group[0].practice.address,
                type_entry,
                (
                    self.where,
                    self.image,
                    self.typer,
                    [(p.practice.address, p.canon.address) for p in group],
                ),
                weight=len(group),
            )
            for group in groups
        ]
        if progress is not None:
            progress(0, len(pairs))
        out: list[Typing | None] = []
        plan = Plan(total=len(pairs), progress=progress, job="overlay", chunk=ENTRY_CHUNK)
        with self.run.run(items, plan) as results:
            for group, value in zip(groups, results, strict=True):
                if isinstance(value, Skipped):
                    self.skipped.append(skipped_line(group[0].practice.address, value.reason))
                    out.extend([None] * len(group))
                else:
                    out.extend(value)
        return out


@contextlib.contextmanager
def cluster_typing(
    opened: OpenWorkspace, spec: ClusterSpec | None, typer: str
) -> Iterator[ClusterTyping | None]:
    """The typing to build an overlay with on the cluster `spec`; None (serial) without one."""
    if spec is None:
        yield None
        return
    with session(spec) as run:
        where, image = run.share(opened)
        yield ClusterTyping(run, where, image, typer)


def type_entry(
    where: Where, image: object, typer: str, pairs: list[tuple[str, str]]
) -> list[Typing]:
    """One practice entry's pairs typed on a worker, in order (the task)."""
    notes = worker_workspace(where, image).workspace.notes
    typed_by = _typer(typer)
    return [
        typed_by(note_text(notes[practice]), note_text(notes[canon])) for practice, canon in pairs
    ]


def score_on_cluster(
    opened: OpenWorkspace,
    claims: Sequence[GoldClaim],
    args: argparse.Namespace,
    line: Progress,
    reading: Reading = Reading.READER,
) -> tuple[dict[str, object], int]:
    """Ask every claim as one task and score the outcomes here: (figures, claims skipped).

    Workers answer with what `reading` allows (words alone, the vectors, the reader). A claim
    skipped as poison is named on stderr and left out of the figures.
    """
    outcomes: list[ClaimOutcome] = []
    skipped = 0
    with session(args.cluster) as run:
        where, image = run.share(opened)
        items = [
            Task(f"claim {c.id}", claim_outcome, (where, image, c, args.reasoner, reading.value))
            for c in claims
        ]
        plan = Plan(total=len(items), progress=line, job="eval", chunk=CLAIM_CHUNK)
        with run.run(items, plan) as results:
            for claim, value in zip(claims, results, strict=True):
                if isinstance(value, Skipped):
                    skipped += 1
                    print(skipped_line(f"claim {claim.id}", value.reason), file=sys.stderr)
                else:
                    outcomes.append(value)
    figures: dict[str, object] = dict(score(outcomes))
    if skipped:
        figures["skipped"] = skipped
    return figures, skipped


def claim_outcome(
    where: Where, image: object, claim: GoldClaim, reasoner: str, reading: str = "reader"
) -> ClaimOutcome:
    """One claim asked on a worker, as `run_claims` records it (the task), with `reading`
    (a `Reading` value) of the machinery."""
    opened = worker_workspace(where, image)
    view = read_with(opened, Reading(reading))
    return run_claims(view, [claim], reasoner=reasoner)[0]


_typers: dict[str, Pairwise] = {}
_typers_lock = threading.Lock()


def _typer(name: str) -> Callable[[str, str], Typing]:
    """The named gated typer, built once per worker process (its stance model loads once)."""
    with _typers_lock:
        if name not in _typers:
            _typers[name] = make_typer(name)
        return _typers[name]

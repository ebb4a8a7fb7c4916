"""The contradiction triage log: an append-only record of reviewers' decisions on edges.

`.synapse/triage.jsonl` holds one JSON object a line,
`{"at", "by", "edge": {"memory_id", "zk_source", "zk_id"}, "decision", "note"}` (`by`, who
decided, is absent from older lines). Lines are only ever appended, under an exclusive lock,
each in one write followed by fsync. The log is shared by everyone who opens the workspace:
`by` names the reviewer (`reviewer()`) and `at` the time, in UTC.

The current state is the fold of the log: each reviewer's last decision on an edge stands,
and a `reset` line withdraws its reviewer's (the earlier lines stay, as every line does).
When reviewers' standing decisions on one edge differ, that is a disagreement, reported as
such (`TriageLog.disagreements`), and until they agree the most cautious of them acts
(`CAUTION`: a confirmation, which contests the literature claim, before anything that would
leave it grounded), never the last one written. A line from before reviewers were named (no
`by`) supersedes every decision before it and is superseded by any after it, as it was.

Triage is the review of cross-store contradictions, and a decision says which side is wrong:
`confirmed` asserts the practice entry contests the canon note (the literature claim is
contested), whatever the overlay now says about the pair; `practice-wrong` says our practice
note is the wrong side (the canon claim stays grounded, the note is flagged);
`scope-differs` and `dismissed` say there is no contradiction to act on.
Which contradictions contest a node for the router is decided in `engine.review.contest`:
confirmed ones always, unreviewed overlay ones only when the workspace opts in. A later
decision by the same reviewer supersedes their earlier one, so undoing is deciding again, or
resetting.
"""

from __future__ import annotations

import getpass
import json
import os
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from engine.core import jsonsafe
from engine.core.environment import environment
from engine.core.errors import ConfigError, EngineError, WorkspaceError
from engine.core.model import Edge
from engine.review.relations import EdgeKey, Relation
from engine.workspace.atomic import AppFile, append_durable, file_lock, read_app_file, synapse_path
from engine.workspace.layout import TRIAGE_LOCK, TRIAGE_LOG

LOG_PATH = TRIAGE_LOG
LOCK_PATH = TRIAGE_LOCK
MAX_NOTE_CHARS = 10_000


class TriageDecision(StrEnum):
    """A reviewer's verdict on one edge, naming which side is wrong or contested.

    The values are what the log stores; the first three are the log's original words and
    keep their meaning: `confirmed` contests the literature claim, `dismissed` says the pair
    is not a contradiction.
    """

    CONFIRMED = "confirmed"  # the literature (canon) claim is contested
    DISMISSED = "dismissed"  # not a contradiction
    FOLLOW_UP = "follow-up"  # undecided: look again later
    PRACTICE_WRONG = "practice-wrong"  # our practice note is wrong; the canon claim stands
    SCOPE_DIFFERS = "scope-differs"  # both stand: they speak of different scopes
    RESET = "reset"  # back to unreviewed: the edge leaves the state, as if never decided

    @property
    def contests_canon(self) -> bool:
        """Whether the router treats the canon claim as contested (only `confirmed`)."""
        return self is TriageDecision.CONFIRMED

    @property
    def settled(self) -> bool:
        """Whether a reviewer decided the pair is no open contradiction against the canon."""
        return self in _SETTLED

    @property
    def flags_practice(self) -> bool:
        """Whether the practice note is marked wrong."""
        return self is TriageDecision.PRACTICE_WRONG


_SETTLED = frozenset(
    (TriageDecision.DISMISSED, TriageDecision.PRACTICE_WRONG, TriageDecision.SCOPE_DIFFERS)
)


@dataclass(frozen=True)
class TriageEntry:
    """One line of the log."""

    at: str
    edge: EdgeKey
    decision: TriageDecision
    note: str = ""
    by: str = ""  # who decided; "" on lines written before the log named anyone

    def to_dict(self) -> dict[str, Any]:
        out = {
            "at": self.at,
            "edge": self.edge.to_dict(),
            "decision": self.decision.value,
            "note": self.note,
        }
        return out | ({"by": self.by} if self.by else {})

    @classmethod
    def from_dict(cls, data: object) -> TriageEntry:
        """Raises ValueError naming the problem."""
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")
        note, by = data.get("note", ""), data.get("by", "")
        if not all(isinstance(v, str) for v in (data.get("at"), note, by)):
            raise ValueError("at, note and by must be strings")
        decision = jsonsafe.member(TriageDecision, data.get("decision"))
        if decision is None:
            raise ValueError(f"unknown decision {data.get('decision')!r}")
        return cls(data["at"], EdgeKey.from_dict(data.get("edge")), decision, note, by)


@dataclass(frozen=True)
class TriageLog:
    """The readable entries of the log, in order, and the lines that were skipped."""

    entries: tuple[TriageEntry, ...]
    problems: tuple[str, ...] = ()

    @classmethod
    def empty(cls) -> TriageLog:
        return cls(())

    def state(self) -> dict[EdgeKey, TriageDecision]:
        """The decision that acts on each edge: the reviewers', or the most cautious of them."""
        return {key: acting(standing) for key, standing in self.standing().items()}

    def latest(self) -> dict[EdgeKey, TriageEntry]:
        """The last entry on each edge that stands, in key order: a reset edge is left out."""
        last: dict[EdgeKey, TriageEntry] = {}
        for entry in self.entries:
            last[entry.edge] = entry
        return {k: e for k, e in sorted(last.items()) if e.decision is not TriageDecision.RESET}

    def standing(self) -> dict[EdgeKey, tuple[TriageEntry, ...]]:
        """Each reviewer's standing entry on each edge, oldest first, in key order.

        An edge every reviewer reset (or none decided) is left out.
        """
        by_edge: dict[EdgeKey, dict[str, TriageEntry]] = {}
        for entry in self.entries:
            reviewers = by_edge.setdefault(entry.edge, {})
            if not entry.by:  # an unnamed line supersedes every decision before it
                reviewers.clear()
            reviewers.pop("", None)  # and is superseded by any after it
            reviewers.pop(entry.by, None)
            if entry.decision is not TriageDecision.RESET:
                reviewers[entry.by] = entry
        return {key: tuple(by_edge[key].values()) for key in sorted(by_edge) if by_edge[key]}

    def disagreements(self) -> dict[EdgeKey, tuple[TriageEntry, ...]]:
        """The edges whose reviewers' standing decisions differ, with those decisions."""
        return {
            key: standing
            for key, standing in self.standing().items()
            if len({entry.decision for entry in standing}) > 1
        }


# Which decision acts while reviewers disagree, most cautious first: a confirmation contests
# the literature claim; a pair left to follow up stays an open contradiction; the rest let
# the literature claim stand.
CAUTION = (
    TriageDecision.CONFIRMED,
    TriageDecision.FOLLOW_UP,
    TriageDecision.PRACTICE_WRONG,
    TriageDecision.SCOPE_DIFFERS,
    TriageDecision.DISMISSED,
)


def acting(standing: tuple[TriageEntry, ...]) -> TriageDecision:
    """The decision that acts on an edge given its reviewers' standing entries (not empty)."""
    return min((entry.decision for entry in standing), key=CAUTION.index)


def record(
    root: str | os.PathLike[str],
    edge: EdgeKey,
    decision: TriageDecision | str,
    *,
    note: str = "",
    by: str | None = None,
) -> TriageEntry:
    """Append one decision to the log of the workspace at `root`; durable when it returns.

    `by` names who decided (`reviewer()` when None). Raises ConfigError for an unknown
    decision.
    """
    try:
        decision = TriageDecision(decision)
    except ValueError:
        names = ", ".join(d.value for d in TriageDecision)
        raise ConfigError(f"unknown decision {decision!r} (one of {names})") from None
    by = reviewer() if by is None else by
    _check_fields(edge, note, by)
    at = datetime.now(UTC).isoformat(timespec="microseconds")
    entry = TriageEntry(at, edge, decision, note, by)
    line = json.dumps(entry.to_dict(), ensure_ascii=False, sort_keys=True) + "\n"
    log = synapse_path(root, LOG_PATH)
    try:
        with file_lock(synapse_path(root, LOCK_PATH)):
            # A crash can leave a torn last line without its newline; start on a fresh line so
            # this record is not glued to it (the torn fragment is then skipped as malformed).
            prefix = b"" if _ends_cleanly(log) else b"\n"
            append_durable(log, prefix + line.encode("utf-8"))
    except OSError as exc:  # a full disk or a read-only workspace
        raise WorkspaceError(
            f"cannot record the decision: {exc.strerror or exc}; the triage log is unchanged"
        ) from None
    return entry


def read_log(root: str | os.PathLike[str]) -> TriageLog:
    """The log as written; unreadable lines are skipped and named in `problems`, never fatal.

    A link, FIFO, device or oversized file in place of the log is one problem, not a hang.
    """
    try:
        raw = read_app_file(synapse_path(root, LOG_PATH))
    except FileNotFoundError:
        return TriageLog.empty()
    except (OSError, EngineError) as exc:
        return TriageLog((), (f"cannot read the triage log: {exc}",))
    lines = raw.split(b"\n")
    torn_tail = lines[-1] != b""  # the last record was cut off before its newline
    entries, problems = [], []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            entries.append(TriageEntry.from_dict(jsonsafe.loads(line)))
        except ValueError as exc:
            if torn_tail and number == len(lines):
                problems.append(f"line {number}: incomplete last line ignored")
            else:
                problems.append(f"line {number}: skipped ({exc})")
    return TriageLog(tuple(entries), tuple(problems))


def state(root: str | os.PathLike[str]) -> dict[EdgeKey, TriageDecision]:
    """The current decision on every triaged edge: the last one recorded wins."""
    return read_log(root).state()


def confirmed_edges(root: str | os.PathLike[str]) -> list[Edge]:
    """A `contradicts` edge, practice → canon, for every confirmed triage decision."""
    return [
        Edge(key.practice_address, key.canon_address, Relation.CONTRADICTS.value)
        for key, decision in state(root).items()
        if decision.contests_canon
    ]


def practice_flags(decisions: dict[EdgeKey, TriageDecision]) -> frozenset[str]:
    """The addresses of practice notes a reviewer marked wrong, on any pair."""
    return frozenset(key.practice_address for key, d in decisions.items() if d.flags_practice)


def reviewer() -> str:
    """Who is deciding: `SYNAPSE_REVIEWER`, else the login name, else "" when neither is known.

    A workspace shared on a synced folder is triaged by several people; each line says whose
    decision it is.
    """
    name = environment().reviewer
    if name:
        return name
    try:
        return getpass.getuser()
    except (OSError, KeyError):  # no login name in a bare container
        return ""


def _check_fields(edge: EdgeKey, note: object, by: object = "") -> None:
    """Refuse what `read_log` would later skip: empty or non-text ids, a non-text note."""
    for name, value in edge.to_dict().items():
        if not isinstance(value, str) or not value.strip():
            raise ConfigError(f"{name} is empty; name the note it refers to")
        if value != value.strip() or any(ord(c) < 32 for c in value):
            raise ConfigError(f"{name} {value!r} has surrounding spaces or control characters")
    if not isinstance(note, str):
        raise ConfigError("the triage note must be text")
    if len(note) > MAX_NOTE_CHARS:
        raise ConfigError(f"the triage note is over {MAX_NOTE_CHARS:,} characters")
    if not isinstance(by, str) or len(by) > 200 or any(ord(c) < 32 for c in by):
        raise ConfigError("who decided must be a name on one line, under 200 characters")


def _ends_cleanly(log: AppFile) -> bool:
    """True when the file is missing, empty, or ends with a newline."""
    try:
        return read_app_file(log)[-1:] in (b"", b"\n")
    except FileNotFoundError:
        return True

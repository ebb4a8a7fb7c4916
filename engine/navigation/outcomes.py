"""Why a walk ended without an answer, as values: a failure by kind, or a reasoner's give-up.

Each value carries what happened; its words for people are made here, from its fields, so a
renderer or the JSON never parses a sentence back into a meaning.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class FailureKind(StrEnum):
    """What stopped a run before the router decided."""

    EMPTY = "empty"  # no question was asked
    UNAVAILABLE = "unavailable"  # the reasoner could not be built (unknown, unconfigured)
    ENDPOINT = "endpoint"  # the model endpoint failed (refused, timed out, errored)
    REASONER_ERROR = "reasoner-error"  # the reasoner raised while drafting
    INVALID_OUTPUT = "invalid-output"  # the model replied, but never with a valid DAG
    BUDGET = "budget"  # the step budget ran out before an answer
    NOTHING_FOUND = "nothing-found"  # nothing checkable was retrieved
    ABSTAINED = "abstained"  # the reasoner abstained for a reason of its own
    INTERNAL = "internal"  # the navigation itself failed (a bug or a broken adapter)


_DEFAULT_DETAIL = {
    FailureKind.EMPTY: "empty question",
    FailureKind.NOTHING_FOUND: "nothing checkable was retrieved for this question",
    FailureKind.ABSTAINED: "the reasoner abstained",
}


@dataclass(frozen=True)
class Failure:
    """Why a run produced no routed answer: its kind and what exactly happened."""

    kind: FailureKind
    detail: str = ""

    @property
    def message(self) -> str:
        """The one-line account of the failure (the JSON's `failure`)."""
        return self.detail or _DEFAULT_DETAIL.get(self.kind, "no answer was produced")

    def __str__(self) -> str:
        return self.message

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind.value, "detail": self.message}


class GiveUpReason(StrEnum):
    """Why the offline reasoner left its closest sentence to the router as a bare inference."""

    WEAK = "weak"  # the closest sentence does not cover the question well enough
    AIM = "aim"  # it covers the question, but says what a study set out to do, not found
    OWN_WORDS = "own-words"  # the note's own text, and nothing of the note was confirmed


@dataclass(frozen=True)
class Match:
    """How the closest sentence a reasoner found covers the question, for plain words.

    `rival` is the runner-up note named only when it covers the question about as well
    (then neither note stands out); `rival_title` is its title ("" for none known).
    """

    address: str
    title: str
    coverage: float
    note_coverage: float
    gaps: tuple[str, ...] = ()
    asks: bool = False
    rival: str = ""
    rival_title: str = ""

    def words(self, *, gaps: bool = True) -> str:
        """The match in plain words; without `gaps`, the unmentioned terms are left unsaid."""
        where = f"\u201c{self.title}\u201d" if self.title else self.address
        said = f"the closest sentence, from {where}, covers {self.coverage:.0%} of the question"
        if f"{self.note_coverage:.0%}" != f"{self.coverage:.0%}":
            said += f" (its note as a whole {self.note_coverage:.0%})"
        if self.gaps:
            if gaps:
                said += " and never mentions " + ", ".join(
                    f"\u2018{g}\u2019" for g in self.gaps[:4]
                )
        elif self.asks:
            said += ", but it says what the study set out to do or how, not what it found"
        elif self.rival:
            other = f"\u201c{self.rival_title}\u201d" if self.rival_title else self.rival
            said += f", but {other} covers it almost as well, so neither note stands out"
        return said


@dataclass(frozen=True)
class AlsoStated:
    """Other papers that state the answer's sentence word for word, in citing order.

    The answer cites the first of the papers by year (then by citekey); these are the rest,
    one address each (the note whose sentence matched) with the name a reader knows the
    paper by ("Author Year", else its title).
    """

    addresses: tuple[str, ...]
    names: tuple[str, ...]

    def words(self) -> str:
        """The line for people: "also stated word for word in: Smith 2020, Jones 2021"."""
        return "also stated word for word in: " + ", ".join(self.names)

    def to_dict(self) -> dict[str, Any]:
        return {
            "papers": [
                {"address": address, "name": name}
                for address, name in zip(self.addresses, self.names, strict=True)
            ]
        }


_VERDICTS = {
    GiveUpReason.WEAK: "too weak to restate as an answer",
    GiveUpReason.AIM: "only what a study found is restated as an answer",
    GiveUpReason.OWN_WORDS: (
        "it is the note's own text, and nothing of the note was confirmed against a source"
    ),
}


@dataclass(frozen=True)
class GiveUp:
    """A reasoner's give-up: why, the closest candidate, and the question terms it misses.

    `budget_spent` says the step budget ran out before every relevant note was checked.
    """

    reason: GiveUpReason
    candidate: Match
    uncovered_terms: tuple[str, ...] = ()
    budget_spent: bool = False

    @property
    def note(self) -> str:
        """The step caption: "gave up: " and why, as the trace records it."""
        return "gave up: " + self._why()

    def explanation(self, *, gaps_named: bool) -> str:
        """Why the reasoner gave up, for the abstain explanation.

        With `gaps_named` the missing terms were said just before, so only how close the
        match came is said again.
        """
        if gaps_named and self.candidate.gaps:
            return self.candidate.words(gaps=False) + "; " + _VERDICTS[GiveUpReason.WEAK]
        return self._why()

    def _why(self) -> str:
        budget = ""
        if self.budget_spent:
            budget = " (the step budget ran out before every relevant note was checked)"
        return f"{self.candidate.words()}; {_VERDICTS[self.reason]}{budget}"

    def to_dict(self) -> dict[str, Any]:
        match = self.candidate
        return {
            "reason": self.reason.value,
            "candidate": {
                "address": match.address,
                "coverage": round(match.coverage, 4),
                "note_coverage": round(match.note_coverage, 4),
                "asks": match.asks,
                "rival": match.rival or None,
            },
            "uncovered_terms": list(self.uncovered_terms),
        }

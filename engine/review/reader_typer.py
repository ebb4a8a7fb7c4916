"""The reader typer: contradiction candidates from the trained reader, in its out-of-fold bands.

For a (practice, canon) pair the reader reads the practice against every sentence of the
note; the sentence it finds most contradicting gives the confidence, P(CONTRADICT). A pair
at or above the lowest band is a candidate: `contradicts` in a band whose out-of-fold
precision reached 0.70 in and out of domain (`lab/reader_bands.py`), a possible
`tension` below it. Every other verdict (supports, extends, unrelated) is the offline
typer's. It never makes anything green; without the reader (`SYNAPSE_READER=none`, a file
missing) the factory hands out the offline typer and the overlay says so in its typer name.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from functools import cache

from engine.core.stance import ContradictionCue
from engine.models.reader import DATA, Reader, load_reader
from engine.review.calibration import Band
from engine.review.offline_stance import OfflineTyper
from engine.review.relations import Relation, Typing
from engine.text.sentences import sentences_of

NAME = "reader"
MAX_SENTENCES = 24  # a note longer than this is read on its first sentences only


@cache
def reader_bands() -> tuple[Band, ...]:
    """The shipped bands of P(CONTRADICT), lowest first; empty when none were measured."""
    try:
        raw = json.loads((DATA / "bands.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return ()
    return tuple(Band.from_json(b) for b in raw.get("bands", ()))


def reader_band(confidence: float) -> Band | None:
    return next((b for b in reader_bands() if b.holds(confidence)), None)


def called(band: Band) -> Relation:
    """`contradicts` for a band called so out of fold (it and every band above), else tension."""
    above = [b for b in reader_bands() if b.low >= band.low]
    return Relation.CONTRADICTS if all(b.contradicts for b in above) else Relation.TENSION


@dataclass(frozen=True)
class ReaderTyper:
    """Candidates from the reader's P(CONTRADICT); the rest from the offline typer."""

    reader: Reader
    name: str = NAME

    def __call__(self, practice: str, canon: str) -> Typing:
        pool = sentences_of(canon)[:MAX_SENTENCES] or (canon,)
        readings = self.reader.read(practice, pool)
        best = max(range(len(pool)), key=lambda i: (readings[i].contradict, -i))
        confidence = readings[best].contradict
        band = reader_band(confidence)
        if band is None:
            return _not_candidate(OfflineTyper()(practice, canon))
        relation = called(band)
        what = "contradicts" if relation is Relation.CONTRADICTS else "may be in tension with"
        return Typing(
            relation,
            round(confidence, 4),
            f"The reader finds that this sentence {what} the practice "
            f"(P = {confidence:.2f}; {band.phrase()}).",
            pool[best],
            ContradictionCue.NONE,
        )


@dataclass(frozen=True)
class ReaderStance:
    """The gate's stance function: the larger of the reader's P(CONTRADICT) in either order.

    The bands were measured on the practice read against a sentence. The gate asks both
    orders and wants each over the floor; the larger of the two makes the stance symmetric,
    so the gate never refuses a pair the typer's band has already priced.
    """

    reader: Reader

    def __call__(self, a: str, b: str) -> float:
        return max(self.reader.read(a, [b])[0].contradict, self.reader.read(b, [a])[0].contradict)


def _not_candidate(typing: Typing) -> Typing:
    """The offline verdict, less a contradiction the reader does not see (its bands rule)."""
    if not typing.relation.candidate:
        return typing
    return replace(
        typing,
        relation=Relation.EXTENDS,
        confidence=round(typing.confidence * 0.5, 4),
        cue=ContradictionCue.NONE,
        rationale=f"The reader does not read a contradiction here; words alone said: "
        f"{typing.rationale}",
    )


def reader_typer() -> ReaderTyper | OfflineTyper:
    """The reader typer, or the offline typer when the reader cannot run here."""
    choice = load_reader()
    if choice.reader is None or not reader_bands():
        return OfflineTyper()
    return ReaderTyper(choice.reader)

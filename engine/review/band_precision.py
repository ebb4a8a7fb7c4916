"""How often a machine contradiction like this one was right: its band's out-of-fold precision.

A reviewer (and an answer's stance line) sees a machine contradiction as a candidate with
the precision measured for its confidence band (`engine.review.calibration.Band`), never as
a finding. The offline typer's and the reader's confidences are calibrated (each against its
own bands); a model typer's are its own, so for them the precision is said to be unmeasured.
"""

from __future__ import annotations

from engine.review.calibration import Band
from engine.review.offline_stance import model
from engine.review.reader_typer import NAME as READER
from engine.review.reader_typer import reader_band
from engine.review.relations import Relation

CALIBRATED_TYPERS = frozenset({"offline", READER})
UNMEASURED = "precision not measured for this typer"


def band_of(confidence: float, typer: str = "offline") -> Band | None:
    """The shipped calibration's band for a contradiction confidence, or None."""
    if typer == READER:
        return reader_band(confidence)
    calibration = model().calibration
    return calibration.band(confidence) if calibration is not None else None


def in_ten(relation: Relation | str, confidence: float, typer: str = "offline") -> str:
    """The band's precision as a short cell: "about 7 in 10", "not measured" or ""."""
    phrase = measured(relation, confidence, typer)
    if phrase == UNMEASURED:
        return "not measured"
    return phrase.split(" at this confidence")[0] if phrase else ""


def measured(relation: Relation | str, confidence: float, typer: str = "offline") -> str:
    """The band's precision in words for a contradiction or possible tension, else ""."""
    try:
        relation = Relation(relation)
    except ValueError:
        return ""
    if not relation.candidate:
        return ""
    if typer not in CALIBRATED_TYPERS:
        return UNMEASURED
    band = band_of(confidence, typer)
    return band.phrase() if band is not None else ""

"""The reader as a judge of paraphrase: does this quoted sentence answer the claim in other words?

The offline reasoner asks it only about a sentence words alone left (a question word the
note never uses, a runner-up as close, or the relevance gate's no). Its reading counts only
in a confidence band where, held out on SciFact train (`python -m lab.reader_answers
--write`), such answers cited an abstract the annotators tied to the claim at least
`min_precision` of the time; the band's record travels with the answer, which the router
keeps at most hedged. The bands were measured on candidates found with the sentence
encoder they name, so they apply only beside that encoder's vectors.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from engine.core.paraphrase import Band, Paraphrased
from engine.models.reader import DATA, Reader, load_reader

BANDS = DATA / "paraphrase.json"


@dataclass(frozen=True)
class ParaphraseBands:
    """The measured bands, the precision a band needs to answer, and the encoder measured with."""

    encoder: str
    reader: str
    min_precision: float
    bands: tuple[Band, ...]
    min_read: int = 10  # a band with fewer candidates read says too little to answer on

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> ParaphraseBands:
        return cls(
            encoder=str(raw["encoder"]),
            reader=str(raw["reader"]),
            min_precision=float(raw["min_precision"]),
            bands=tuple(
                Band(float(b["low"]), float(b["high"]), int(b["right"]), int(b["read"]))
                for b in raw["bands"]
            ),
            min_read=int(raw["min_read"]),
        )

    def answers(self, band: Band) -> bool:
        """Whether a reading in `band` may answer: measured often enough, right often enough."""
        return band.read >= self.min_read and band.precision >= self.min_precision

    @property
    def any_answers(self) -> bool:
        return any(self.answers(b) for b in self.bands)

    def band_of(self, evidence: float) -> Band | None:
        """The band `evidence` falls in when that band may answer, else None."""
        for band in self.bands:
            if band.low <= evidence < band.high:
                return band if self.answers(band) else None
        return None


class Paraphraser:
    """The shipped reader with its paraphrase bands; `read` gives a `Paraphrased` or None."""

    def __init__(self, reader: Reader, bands: ParaphraseBands) -> None:
        self.reader = reader
        self.bands = bands

    def applies_to(self, encoder_fingerprint: str) -> bool:
        """Whether the bands were measured beside vectors of this encoder."""
        return encoder_fingerprint == self.bands.encoder

    def read(self, claim: str, sentence: str) -> Paraphrased | None:
        """The reading of `sentence` against `claim` when its band may answer, else None."""
        (reading,) = self.reader.read(claim, [sentence])
        band = self.bands.band_of(reading.evidence)
        if band is None:
            return None
        # Rounded as the wire writes it, so a saved answer routes again to the same value.
        evidence = round(reading.evidence, 4)
        return Paraphrased(evidence, band)


def load_paraphraser() -> Paraphraser | None:
    """The reader with its bands, or None when no band may answer, or either is missing,
    changed or turned off (then the reader is not even loaded)."""
    bands = _bands(BANDS)
    if bands is None or not bands.any_answers:
        return None
    choice = load_reader()
    if choice.reader is None or bands.reader != choice.reader.fingerprint:
        return None
    return Paraphraser(choice.reader, bands)


@lru_cache(maxsize=2)
def _bands(path: Path) -> ParaphraseBands | None:
    try:
        return ParaphraseBands.from_json(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError):
        return None

"""How rare a word is, one interface for both wings: the index's counts or a frozen table.

A `Rarity` maps terms to weights (inverse document frequency, higher is rarer). The
workspace index gives one over the notes as they are now (`Index.rarity`); the stance model
carries an `IdfTable` fitted on SciFact abstracts, so its features do not drift with a
workspace. Coverage and alignment weigh words only through this interface.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Protocol


class Rarity(Protocol):
    """Term -> rarity weight for every term asked about; a term never seen is rarest."""

    def __call__(self, terms: Iterable[str]) -> Mapping[str, float]: ...


@dataclass(frozen=True)
class IdfTable:
    """Inverse document frequency of stems from a fixed corpus; a stem missing is rare."""

    idf: dict[str, float]
    default: float

    def __call__(self, terms: Iterable[str]) -> Mapping[str, float]:
        return {t: self.idf.get(t, self.default) for t in terms}

    def weight(self, stems: AbstractSet[str]) -> float:
        """The summed rarity of `stems`."""
        # fsum: the same total whatever order the set iterates in (it differs by process).
        return math.fsum(self.idf.get(s, self.default) for s in stems)

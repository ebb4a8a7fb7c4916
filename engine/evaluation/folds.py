"""The folds every tuning and cross-validation run splits by, in one place.

SciFact claims that cite one abstract are near-duplicates of each other's evidence, so a
claim held out while a sibling citing the same abstract trains would leak: claims are
grouped by the abstracts they cite, and a group takes the fold of its smallest claim id.
Texts with no abstract to group by (Climate-FEVER claims) take the fold of their normalised
words, so near-duplicate wordings share one. Deterministic: a hash, never a random draw.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Iterable, Mapping

FOLDS = 5


def fold_of(key: str, folds: int = FOLDS) -> int:
    """The fold of one key: a hash of it, modulo `folds`."""
    return zlib.crc32(key.encode("utf-8")) % folds


def text_fold(text: str, folds: int = FOLDS) -> int:
    """The fold of a text by its lower-cased words, so spacing and case do not split it."""
    return fold_of(" ".join(re.findall(r"\w+", text.lower())), folds)


def claim_folds(cites: Mapping[str, Iterable[str]], folds: int = FOLDS) -> dict[str, int]:
    """A fold for every claim id in `cites` (claim id -> the abstracts it cites).

    Claims linked through a shared abstract, directly or along a chain, share one fold; a
    claim citing nothing is a group of its own.
    """
    parent = {claim: claim for claim in cites}

    def root(claim: str) -> str:
        while parent[claim] != claim:
            parent[claim] = parent[parent[claim]]
            claim = parent[claim]
        return claim

    first_citer: dict[str, str] = {}
    for claim in sorted(cites):
        for doc in sorted(set(cites[claim])):
            other = first_citer.setdefault(doc, claim)
            a, b = root(claim), root(other)
            if a != b:
                parent[max(a, b)] = min(a, b)
    return {claim: fold_of(root(claim), folds) for claim in cites}

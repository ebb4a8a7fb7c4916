"""A sentence that moves what a claim changes both ways, each in its own scope."""

from __future__ import annotations

import pytest

from engine.review.split_directions import split_by_scope
from engine.text.tokens import word_sequence

SPLIT = "Ticagrelor increased bleeding in men but decreased bleeding in women."


@pytest.mark.parametrize(
    ("claim", "evidence", "split"),
    [
        ("Ticagrelor increases bleeding.", SPLIT, True),
        ("Ticagrelor reduces bleeding.", SPLIT, True),
        ("Ticagrelor increases bleeding in men.", SPLIT, False),
        ("Ticagrelor reduces bleeding in women.", SPLIT, False),
        ("Ticagrelor increases bleeding.", "Ticagrelor increased bleeding.", False),
        ("Metformin increases insulin sensitivity.",
         "Metformin increased insulin sensitivity but decreased body weight.", False),
        ("Studies find positive feedback.",
         "The iris effect is a positive feedback rather than the negative feedback proposed.",
         False),
    ],
    ids=["up-unscoped", "down-unscoped", "up-in-its-scope", "down-in-its-scope", "one-way",
         "other-objects", "alternative-set-aside"],
)  # fmt: skip
def test_a_yes_both_ways_holds_only_in_the_scope_the_claim_names(
    claim: str, evidence: str, split: bool
) -> None:
    assert split_by_scope(word_sequence(claim), [evidence]) is split

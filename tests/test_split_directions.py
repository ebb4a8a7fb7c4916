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
        ("Ticagrelor increases bleeding.",
         "Ticagrelor increased bleeding in men but decreased it in women.", True),
        ("Statins reduce cardiac events.",
         "Statins reduced cardiac events in 2019 but increased them in 2020.", True),
        ("Hormone therapy reduces coronary events.",
         "Hormone therapy reduced coronary events in observational but not randomised studies.",
         True),
        ("Aspirin reduces pain in men.", "Aspirin reduced pain in men but not women.", False),
        ("Aspirin reduces pain.", "Aspirin reduced pain but not significantly.", False),
    ],
    ids=["up-unscoped", "down-unscoped", "up-in-its-scope", "down-in-its-scope", "one-way",
         "other-objects", "alternative-set-aside", "it-names-it-again", "by-year",
         "kinds-but-not", "one-named-but-not-another", "but-not-significantly"],
)  # fmt: skip
def test_a_yes_both_ways_holds_only_in_the_scope_the_claim_names(
    claim: str, evidence: str, split: bool
) -> None:
    assert split_by_scope(word_sequence(claim), [evidence]) is split

"""A finding said of part of what was studied, read against a claim that names no part."""

from __future__ import annotations

import pytest

from engine.review.yes_parts import partial
from engine.text.tokens import word_sequence

CLAIM = word_sequence("Aspirin reduces mortality.")


@pytest.mark.parametrize(
    ("evidence", "held"),
    [
        ("Aspirin reduced mortality in most analyses.", True),
        ("Aspirin reduced mortality in many older patients.", True),
        ("Aspirin reduced mortality in some patients.", True),
        ("Aspirin reduced mortality in 3 of 10 trials.", True),
        ("Aspirin reduced mortality in two thirds of patients.", True),
        ("Aspirin reduced mortality in all but one trial.", True),
        ("Aspirin reduced mortality in a single case.", True),
        ("Aspirin acts in most eukaryotic cells and reduced mortality.", False),
        ("Aspirin reduced mortality, the most common outcome.", False),
        ("Aspirin reduced mortality in all trials.", False),
    ],
    ids=["most-analyses", "many-older-patients", "some-patients", "3-of-10", "two-thirds",
         "all-but-one", "single-case", "most-cells-a-scope", "most-a-superlative",
         "all-trials"],
)  # fmt: skip
def test_a_finding_held_in_part_is_named(evidence: str, held: bool) -> None:
    assert partial(CLAIM, word_sequence(evidence)) is held


def test_a_claim_that_names_the_part_keeps_it() -> None:
    claim = word_sequence("Aspirin reduces mortality in most analyses.")
    assert not partial(claim, word_sequence("Aspirin reduced mortality in most analyses."))

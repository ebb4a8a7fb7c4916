"""A finding said to come only near significance, or to have little effect, is no firm yes."""

from __future__ import annotations

import pytest

from engine.core.stance import Overstated
from engine.review.yes_near_null import near_null
from engine.review.yes_rules import overstates
from engine.text.tokens import word_sequence

CLAIM = "Metformin reduces weight."


@pytest.mark.parametrize(
    ("sentence", "held"),
    [
        ("Metformin reduced weight (borderline significant).", True),
        ("Metformin reduced weight, which approached significance.", True),
        ("Metformin reduced weight, which approached statistical significance.", True),
        ("Metformin reduced weight with marginal significance.", True),
        ("Metformin lowered weight, a nearly significant difference.", True),
        ("Metformin had little effect on weight.", True),
        ("Metformin had minimal impact on weight.", True),
        ("Metformin produced hardly any change in weight.", True),
        ("Weight loss with metformin was marginal.", True),
        ("Metformin caused weight loss, falling just short of significance.", True),
        ("Metformin caused weight loss that narrowly missed significance.", True),
        ("Metformin reduced weight, falling short of the target.", False),
        ("Metformin reduced weight significantly.", False),
        ("Metformin reduced weight in borderline diabetes.", False),
        ("Metformin reduced weight slightly.", False),
        ("Metformin reduced weight with minimal side effects.", False),
        ("Metformin reduced weight a little.", False),
    ],
    ids=["borderline", "approached", "approached-statistical", "marginal", "nearly",
         "little-effect", "minimal-impact", "hardly-any-change", "was-marginal",
         "short-of-significance", "missed-significance", "short-of-target", "significantly",
         "borderline-diabetes", "slightly", "minimal-side-effects", "a-little"],
)  # fmt: skip
def test_a_near_null_finding_is_named(sentence: str, held: bool) -> None:
    assert near_null(word_sequence(CLAIM), word_sequence(sentence)) is held


@pytest.mark.parametrize(
    ("claim", "sentence", "rule"),
    [
        (CLAIM, "Metformin reduced weight (borderline significant).",
         Overstated.NOT_SIGNIFICANT),
        ("Metformin affects weight.", "Metformin had little effect on weight.",
         Overstated.NOT_SIGNIFICANT),
        (CLAIM, "Metformin showed a tendency to reduce weight.", Overstated.HEDGE),
        (CLAIM, "Metformin showed a tendency toward lower weight.", Overstated.HEDGE),
        (CLAIM, "Metformin reduced weight in obese adults.", None),
        (CLAIM, "Metformin reduced weight modestly.", None),
        ("Metformin has little effect on weight.", "Metformin had little effect on weight.",
         None),
    ],
    ids=["borderline", "little-effect", "tendency-to", "tendency-toward", "control", "modestly",
         "claim-says-little"],
)  # fmt: skip
def test_a_near_null_finding_withholds_the_yes(
    claim: str, sentence: str, rule: Overstated | None
) -> None:
    assert overstates(claim, [sentence]) is rule

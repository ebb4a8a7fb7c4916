"""A no at a point in time, or one that may deny an expectation, is no firm no."""

from __future__ import annotations

import pytest

from engine.core.stance import Overstated
from engine.review.no_rules import overstated_no

CLAIM = "Metformin reduces weight."


@pytest.mark.parametrize(
    ("sentence", "rule"),
    [
        ("Metformin did not reduce weight at 1 week.", Overstated.QUALITY),
        ("Metformin did not reduce weight after 2 weeks of treatment.", Overstated.QUALITY),
        ("At 1 week, metformin did not reduce weight.", Overstated.QUALITY),
        ("By week 4, metformin had not reduced weight.", Overstated.QUALITY),
        ("Metformin did not reduce weight on day 3.", Overstated.QUALITY),
        ("Metformin did not reduce weight as expected.", Overstated.FRAMED),
        ("Metformin failed to reduce weight as anticipated.", Overstated.FRAMED),
        ("Metformin did not reduce weight over 12 months.", None),
        ("Metformin did not reduce weight at 12 months, the primary end point.", None),
        ("Metformin did not reduce weight in obese adults.", None),
        ("Metformin did not reduce weight, as expected.", None),
        ("Contrary to what was expected, metformin did not reduce weight.", None),
    ],
    ids=["at-1-week", "after-2-weeks", "opening-at-1-week", "by-week-4", "on-day-3",
         "as-expected", "failed-as-anticipated", "over-12-months", "primary-end-point",
         "in-obese-adults",
         "paused-as-expected", "contrary-to-expected"],
)  # fmt: skip
def test_a_no_at_a_point_in_time_or_against_an_expectation_is_withheld(
    sentence: str, rule: Overstated | None
) -> None:
    assert overstated_no(CLAIM, sentence) is rule


def test_a_claim_at_the_same_point_keeps_its_no() -> None:
    assert (
        overstated_no(
            "Metformin reduces weight at 1 week.", "Metformin did not reduce weight at 1 week."
        )
        is None
    )

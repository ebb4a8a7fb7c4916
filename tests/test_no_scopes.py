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
        ("Metformin did not reduce weight after 2 weeks.", Overstated.QUALITY),
        ("At 1 week, metformin did not reduce weight.", Overstated.QUALITY),
        ("By week 4, metformin had not reduced weight.", Overstated.QUALITY),
        ("Metformin did not reduce weight on day 3.", Overstated.QUALITY),
        ("Metformin did not reduce weight as expected.", Overstated.FRAMED),
        ("Metformin failed to reduce weight as anticipated.", Overstated.FRAMED),
        ("Metformin did not reduce weight by 5% or more.", Overstated.QUALITY),
        ("Metformin did not reduce weight in patients who did not exercise.",
         Overstated.CONDITION),
        ("In a subgroup analysis, metformin did not reduce weight.", Overstated.CONDITION),
        ("Metformin did not reduce weight (mean change -3.1 kg, P < 0.001).",
         Overstated.TAKEN_BACK),
        ("Metformin did not reduce weight over 12 months.", None),
        ("Metformin did not reduce weight after 5 years of follow-up.", None),
        ("Metformin did not reduce weight in patients with type 2 diabetes.", None),
        ("Metformin did not reduce weight in the intention-to-treat analysis.", None),
        ("Metformin did not reduce weight (P = 0.40).", None),
        ("Metformin did not reduce weight at 12 months, the primary end point.", None),
        ("Metformin did not reduce weight in obese adults.", None),
        ("Metformin did not reduce weight, as expected.", None),
        ("Contrary to what was expected, metformin did not reduce weight.", None),
        ("Metformin did not reduce weight at 6 or 12 months.", Overstated.QUALITY),
        ("Metformin did not reduce weight at 28 and 90 days.", Overstated.QUALITY),
        ("Metformin did not reduce weight at 6, 12 or 24 months.", Overstated.QUALITY),
        ("Metformin did not reduce weight at weeks 4 and 8.", Overstated.QUALITY),
        ("Metformin reduced weight compared with patients not given metformin.",
         Overstated.GROUP_NEGATED),
        ("Metformin did not reduce weight in a trial that was not powered for weight.",
         Overstated.DOUBTED),
        ("Metformin did not reduce weight to normal.", Overstated.QUALITY),
        ("Metformin did not reduce weight in obese mice.", Overstated.CONDITION),
        ("Metformin did not reduce weight at the 500 mg dose.", Overstated.QUALITY),
        ("No trial has tested whether metformin reduces weight.", Overstated.DOUBTED),
        ("We did not examine whether metformin reduces weight.", Overstated.DOUBTED),
    ],
    ids=["at-1-week", "after-2-weeks", "opening-at-1-week", "by-week-4", "on-day-3",
         "as-expected", "failed-as-anticipated", "by-a-degree", "in-those-who", "subgroup",
         "significant-p", "over-12-months", "after-years-of-follow-up", "with-a-disease",
         "intention-to-treat", "p-above-the-level", "primary-end-point", "in-obese-adults",
         "paused-as-expected", "contrary-to-expected", "listed-or", "listed-and", "listed-three",
         "unit-first-listed", "control-named-by-a-negation", "not-powered", "not-to-normal",
         "in-mice", "at-one-dose", "tested-whether", "examine-whether"],
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


@pytest.mark.parametrize(
    ("claim", "sentence", "rule"),
    [
        ("Metformin reduces mortality.",
         "Metformin did not reduce mortality (HR 0.70, 95% CI 0.55-0.89).",
         Overstated.TAKEN_BACK),
        ("Metformin increases mortality.",
         "Metformin did not increase mortality (HR 1.40, 95% CI 1.10-1.80).",
         Overstated.TAKEN_BACK),
        ("Metformin reduces mortality.",
         "Metformin did not reduce mortality (HR 0.98, 95% CI 0.85-1.12).", None),
        ("Metformin reduces mortality.",
         "Metformin increased mortality (HR 1.40, 95% CI 1.10-1.80).", None),
    ],
    ids=["ratio-shows-the-reduction", "ratio-shows-the-increase", "interval-holds-one",
         "ratio-agrees-with-the-other-direction"],
)  # fmt: skip
def test_a_no_beside_figures_that_show_the_change_is_withheld(
    claim: str, sentence: str, rule: Overstated | None
) -> None:
    assert overstated_no(claim, sentence) is rule

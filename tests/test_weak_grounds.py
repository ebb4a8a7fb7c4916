"""A sentence that judges its own grounds weak, or its trial futile, is no firm yes or no."""

from __future__ import annotations

import pytest

from engine.core.stance import Overstated
from engine.review.no_rules import overstated_no
from engine.review.weak_grounds import undercut
from engine.review.yes_rules import overstates

CLAIM = "Metformin reduces weight."


@pytest.mark.parametrize(
    ("sentence", "held"),
    [
        ("The evidence is mixed, but metformin reduced weight.", True),
        ("Metformin reduced weight, although results were inconsistent.", True),
        ("Limited evidence shows metformin reduced weight.", True),
        ("Metformin reduced weight, although the evidence was of low quality.", True),
        ("Low-certainty evidence shows that metformin reduced weight.", True),
        ("Metformin reduced weight, but the quality of the evidence was very low.", True),
        ("Metformin reduced weight, but studies were prone to bias.", True),
        ("Metformin reduced weight, but the trial was stopped early for futility.", True),
        ("The trial was stopped for lack of efficacy after metformin reduced weight.", True),
        ("In trials at low risk of bias, metformin reduced weight.", False),
        ("Metformin reduced weight, with no evidence of publication bias.", False),
        ("Metformin reduced weight in high-quality trials.", False),
        ("Metformin reduced weight in a mixed population of adults.", False),
        ("Metformin reduced glucose after a mixed meal.", False),
        ("The trial was stopped early for benefit because metformin reduced weight.", False),
        ("Metformin reduced weight in an underpowered trial.", True),
        ("Metformin reduced weight, but the trial was not powered for weight.", True),
        ("Metformin reduced weight, though the study lacked statistical power.", True),
        ("Metformin reduced weight, but the trial had low power to detect it.", True),
        ("Metformin reduced weight in a trial powered to detect a 5% loss.", False),
        ("Metformin reduced weight in an adequately powered trial.", False),
        ("Metformin reduced weight as much as low power laser therapy.", False),
        ("Metformin reduced weight in a case report.", True),
        ("Metformin reduced weight in a pilot trial.", True),
        ("Metformin reduced weight, a result that requires confirmation.", True),
        ("Metformin reduced weight, but the confidence interval was wide.", True),
        ("Metformin reduced weight in a trial piloted in 12 clinics.", False),
        ("Metformin reduced weight in an uncontrolled study.", True),
        ("Metformin reduced weight in a before-after study.", True),
        ("Metformin reduced weight in a single-arm trial.", True),
        ("Metformin reduced weight in patients with uncontrolled diabetes.", False),
        ("Metformin reduced weight (n = 6).", True),
        ("Metformin reduced weight in 3 patients.", True),
        ("Metformin reduced weight in mice (n = 6 per group).", False),
        ("Metformin reduced weight in 3 of 40 patients.", False),
        ("Metformin reduced weight in 12 patients.", False),
        ("In a sample of 8 patients, metformin reduced weight.", True),
        ("In a total of 5 participants, metformin reduced weight.", True),
        ("In a sample of 80 patients, metformin reduced weight.", False),
    ],
    ids=["evidence-is-mixed", "results-inconsistent", "limited-evidence", "of-low-quality",
         "low-certainty", "quality-very-low", "prone-to-bias", "futility", "lack-of-efficacy",
         "low-risk-of-bias", "no-publication-bias", "high-quality", "mixed-population",
         "mixed-meal", "stopped-for-benefit", "underpowered", "not-powered", "lacked-power",
         "low-power-to-detect", "powered-to-detect", "adequately-powered", "low-power-laser",
         "case-report", "pilot-trial", "requires-confirmation", "wide-interval", "piloted",
         "uncontrolled-study", "before-after", "single-arm", "uncontrolled-diabetes",
         "n-of-6", "in-3-patients", "6-per-group", "3-of-40", "in-12-patients",
         "sample-of-8", "total-of-5", "sample-of-80"],
)  # fmt: skip
def test_weak_grounds_are_named(sentence: str, held: bool) -> None:
    assert undercut(CLAIM, sentence) is held


def test_weak_grounds_withhold_both_a_yes_and_a_no() -> None:
    assert overstates(CLAIM, ["The evidence is mixed, but metformin reduced weight."]) is (
        Overstated.DOUBTED
    )
    assert overstated_no(
        CLAIM, "Results were inconsistent, and metformin did not reduce weight."
    ) is (Overstated.DOUBTED)
    assert (
        overstates(
            "Mixed evidence shows metformin reduces weight.",
            ["Mixed evidence shows metformin reduced weight."],
        )
        is None
    )

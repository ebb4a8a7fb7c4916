"""A no must deny what the claim says: not a thing on the other side of a contrast, a
degree, a property, a comparison with another drug or a licence."""

from __future__ import annotations

import pytest

from engine.core.stance import Overstated, StanceRelation
from engine.review.claim_stance import stance_toward
from engine.review.no_rules import overstated_no

CLAIM = "Metformin reduces glucose."


@pytest.mark.parametrize(
    ("sentence", "rule"),
    [
        ("Glucose was not reduced by placebo but by metformin.", Overstated.OTHER_CLAUSE),
        ("No reduction in glucose was seen with placebo, whereas metformin lowered it.",
         Overstated.OTHER_CLAUSE),
        ("Metformin did not reduce weight, although it reduced glucose.",
         Overstated.OTHER_CLAUSE),
        ("Metformin did not reduce glucose by itself.", Overstated.QUALITY),
        ("Metformin did not reduce glucose alone.", Overstated.QUALITY),
        ("Metformin did not reduce glucose to normal levels.", Overstated.QUALITY),
        ("Metformin did not reduce glucose below 5 mmol/L.", Overstated.QUALITY),
        ("Metformin did not reduce glucose consistently.", Overstated.QUALITY),
        ("Metformin did not reduce glucose in a clinically meaningful way.",
         Overstated.QUALITY),
        ("Metformin did not reduce glucose variability.", Overstated.ATTRIBUTE),
        ("Metformin did not reduce glucose-related complications.", Overstated.ATTRIBUTE),
        ("Metformin did not reduce the glucose response to insulin.", Overstated.ATTRIBUTE),
        ("Metformin did not reduce glucose faster than insulin.", Overstated.COMPARED),
        ("Metformin did not reduce glucose compared with gliclazide.", Overstated.COMPARED),
        ("Metformin is not approved to reduce glucose in children.", Overstated.FRAMED),
        ("Metformin did not reduce glucose.", None),
        ("Metformin did not reduce glucose compared with placebo.", None),
        ("Metformin did not reduce glucose, although it was well tolerated.", None),
        ("Metformin did not reduce glucose, but it reduced weight.", None),
        ("Metformin did not reduce glucose, but not weight either.", None),
        ("Metformin did not increase glucose, but reduced it.", Overstated.OTHER_CLAUSE),
    ],
    ids=["not-by-placebo-but-by", "whereas", "although-the-other-way", "by-itself", "alone",
         "to-normal-levels", "below-a-figure", "consistently", "clinically-meaningful",
         "variability", "related-complications", "response-to", "faster-than",
         "compared-with-an-active-drug", "not-approved", "control", "compared-with-placebo",
         "although-tolerated", "but-reduced-another", "but-not-inside-a-clause",
         "denied-the-other-way-then-stated"],
)  # fmt: skip
def test_a_no_that_denies_something_else_is_withheld(
    sentence: str, rule: Overstated | None
) -> None:
    assert overstated_no(CLAIM, sentence) is rule


@pytest.mark.parametrize(
    ("claim", "sentence"),
    [
        ("Birth weight is negatively associated with breast cancer.",
         "Birth weight was positively associated with breast cancer risk, but not with "
         "ovarian cancer; no other link was found."),
        ("Statins increase hip fractures.",
         "Statin use was associated with fewer hip fractures; no other outcome differed."),
    ],
    ids=["other-direction-on-the-plain-side", "fewer-on-the-plain-side"],
)  # fmt: skip
def test_a_plain_side_that_states_the_other_direction_is_still_a_no(
    claim: str, sentence: str
) -> None:
    stance = stance_toward(claim, [sentence])
    assert stance is not None and stance.relation is StanceRelation.CONTRADICTS

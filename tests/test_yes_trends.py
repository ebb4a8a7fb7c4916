"""What the claim says acts, named only as rising or falling itself beside the outcome."""

from __future__ import annotations

import pytest

from engine.core.stance import Overstated, StanceRelation
from engine.review.claim_stance import stance_toward
from engine.review.no_rules import overstated_no
from engine.review.yes_rules import overstates
from engine.review.yes_trends import actor_trended
from engine.text.tokens import word_sequence


@pytest.mark.parametrize(
    ("claim", "evidence", "trended"),
    [
        ("Aspirin reduces sepsis mortality.",
         "Sepsis mortality fell over the decade in which aspirin use rose.", True),
        ("Aspirin reduces sepsis mortality.", "Aspirin use rose while sepsis mortality fell.",
         True),
        ("Aspirin reduces sepsis mortality.",
         "As aspirin prescriptions increased, sepsis mortality declined.", True),
        ("Aspirin increases sepsis mortality.", "Sepsis mortality rose as aspirin use fell.",
         True),
        ("Vitamin D reduces falls.", "Falls fell as vitamin D levels rose by 20%.", True),
        ("Aspirin reduces sepsis mortality.", "Aspirin use has steadily risen.", True),
        ("Aspirin reduces sepsis mortality.", "Aspirin reduced sepsis mortality.", False),
        ("Aspirin reduces sepsis mortality.", "Aspirin use increased the risk of bleeding.",
         False),
        ("Aspirin reduces sepsis mortality.",
         "Aspirin use rose, and aspirin reduced sepsis mortality.", False),
        ("Did aspirin use rise?", "Aspirin use rose over the decade.", False),
        ("Sympathetic nerve activity is reduced in pregnancy.",
         "Sympathetic nerve activity is increased during pregnancy.", False),
    ],
    ids=["decade-in-which", "while", "as-prescriptions", "fell-as-rose", "levels-by-figure",
         "has-risen", "a-change-made", "an-object-after", "also-a-change-made",
         "asked-of-the-trend", "passive-claim"],
)  # fmt: skip
def test_an_actor_named_only_as_a_trend_of_its_own(
    claim: str, evidence: str, trended: bool
) -> None:
    assert actor_trended(word_sequence(claim), [evidence]) is trended


def test_a_trend_beside_a_trend_is_neither_a_yes_nor_a_no() -> None:
    rose = "Sepsis mortality rose as aspirin use fell."
    assert overstates("Aspirin increases sepsis mortality.", [rose]) is Overstated.TREND
    fell = "Aspirin use rose while sepsis mortality fell."
    assert overstated_no("Aspirin reduces sepsis mortality.", fell) is Overstated.TREND
    read = stance_toward("Aspirin reduces sepsis mortality.", [fell])
    assert read is not None and read.relation is StanceRelation.NEITHER
    assert read.overstated is Overstated.TREND and read.withheld_no

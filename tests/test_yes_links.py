"""A yes to a change is withheld where the sentence reports only an association."""

from __future__ import annotations

import pytest

from engine.core.stance import Overstated
from engine.review.yes_links import associated_only
from engine.review.yes_rules import overstates
from engine.text.tokens import word_sequence

COFFEE = "Coffee consumption was associated with reduced liver cancer risk."


@pytest.mark.parametrize(
    ("claim", "evidence", "only"),
    [
        ("Coffee consumption reduces liver cancer risk.", COFFEE, True),
        ("Does coffee consumption lower liver cancer risk?", COFFEE.replace("reduced", "lower"),
         True),
        ("Coffee consumption is associated with reduced liver cancer risk.", COFFEE, False),
        ("Coffee consumption reduces liver cancer risk.",
         "Coffee consumption reduced liver cancer risk.", False),
        ("Breastfeeding reduces childhood leukaemia.",
         "Breastfeeding was inversely associated with childhood leukaemia.", True),
        ("Patients in stable partnerships have a slower progression to AIDS.",
         "A stable partnership is associated with a slower rate of progression to AIDS.", False),
        ("RAD52 increases replication.",
         "ALT-associated replication defects increased replication in a RAD52-dependent manner.",
         False),
        ("Fish oil lowers triglycerides.",
         "Fish oil lowered triglycerides relative to baseline.", False),
        ("Aspirin increases mortality.",
         "Higher aspirin doses were associated with higher mortality.", True),
        ("Aspirin reduces mortality.", "Aspirin use predicted lower mortality.", True),
        ("Aspirin reduces mortality.", "Aspirin users had lower mortality.", True),
        ("Aspirin reduces sepsis mortality.", "Sepsis mortality was lower among aspirin users.",
         True),
        ("Aspirin reduces mortality.", "Patients given aspirin had lower mortality.", False),
        ("Aspirin reduces mortality.", "Aspirin use reduced mortality.", False),
    ],
    ids=["reduces", "lower-asked", "association-kept", "change-stated", "inversely",
         "a-group-described", "compound-adjective", "relative-to", "exposure-described",
         "predicted", "users-had", "lower-among-users", "given-had", "use-reduced"],
)  # fmt: skip
def test_an_association_is_no_change(claim: str, evidence: str, only: bool) -> None:
    assert associated_only(word_sequence(claim), [evidence]) is only


def test_the_rule_is_named_as_an_association() -> None:
    claim = "Coffee consumption reduces liver cancer risk."
    assert overstates(claim, [COFFEE]) is Overstated.ASSOCIATION

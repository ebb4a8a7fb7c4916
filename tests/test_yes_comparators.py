"""A yes found only against another treatment is no yes against none; a control is."""

from __future__ import annotations

import pytest

from engine.core.stance import Overstated
from engine.review.yes_comparators import against_another, in_other_side
from engine.review.yes_rules import overstates
from engine.text.tokens import word_sequence

CLAIM = "Aspirin reduces mortality."


@pytest.mark.parametrize(
    ("sentence", "against"),
    [
        ("Aspirin reduced mortality compared with clopidogrel.", True),
        ("Aspirin reduced mortality versus heparin.", True),
        ("Aspirin reduced mortality vs heparin in sepsis.", True),
        ("Aspirin reduced mortality relative to patients given heparin.", True),
        ("Mortality was lower with aspirin than with heparin.", True),
        ("Aspirin reduced mortality more than heparin did.", False),
        ("Aspirin was superior to heparin in reducing mortality.", True),
        ("Aspirin reduced mortality as much as heparin did.", False),
        ("Aspirin reduced mortality compared with placebo.", False),
        ("Aspirin reduced mortality compared with usual care.", False),
        ("Aspirin reduced mortality versus no treatment.", False),
        ("Aspirin reduced mortality compared with baseline.", False),
        ("Aspirin reduced mortality versus untreated controls.", False),
        ("Aspirin reduced mortality compared with non-users.", False),
        ("Aspirin plus heparin reduced mortality compared with heparin alone.", False),
        ("Aspirin reduced mortality more than expected.", False),
        ("Aspirin reduced mortality (5% versus 7% with placebo).", False),
        ("Aspirin reduced mortality.", False),
        ("Aspirin users who took it for more than eight years had lower mortality than those "
         "who took it for less than six years.", False),
        ("Aspirin reduced mortality by coordinating rapid versus long-term responses.", False),
        ("Aspirin reduced mortality, as reported in Myths vs. Facts.", False),
    ],
    ids=["compared-with-a-drug", "versus-a-drug", "vs-a-drug", "relative-to-patients-given",
         "lower-than-with", "reduced-more-than", "superior-to", "as-much-as", "placebo",
         "usual-care", "no-treatment",
         "baseline", "untreated-controls", "non-users", "background-alone", "than-expected",
         "figures", "no-comparison", "less-than-a-number-word", "kinds-set-against",
         "a-title"],
)  # fmt: skip
def test_a_finding_against_another_treatment_is_named(sentence: str, against: bool) -> None:
    assert against_another(word_sequence(CLAIM), word_sequence(sentence)) is against


def test_a_claim_naming_the_other_treatment_keeps_its_yes() -> None:
    sentence = "Aspirin reduced mortality compared with clopidogrel."
    assert overstates(CLAIM, [sentence]) is Overstated.AGAINST_ANOTHER
    assert overstates("Aspirin reduces mortality compared with clopidogrel.", [sentence]) is None


def test_a_negation_in_the_other_side_names_the_control() -> None:
    said = word_sequence("Aspirin reduced mortality compared with patients not given aspirin.")
    assert in_other_side(said, said.index("not"))
    plain = word_sequence("Aspirin did not reduce mortality compared with placebo.")
    assert not in_other_side(plain, plain.index("not"))

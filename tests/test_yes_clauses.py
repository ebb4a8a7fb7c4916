"""Which clause of a sentence states a claim's direction, and what it sets aside."""

from __future__ import annotations

import pytest

from engine.review.yes_clauses import (
    asserted,
    directions,
    other_subject,
    relative_subject,
    scattered,
)
from engine.text.tokens import word_sequence


@pytest.mark.parametrize(
    ("sentence", "other"),
    [
        ("Melatonin improved sleep quality and caffeine reduced reaction time.", True),
        ("Ketamine lowered depression scores while placebo raised anxiety.", True),
        ("Melatonin improved sleep quality and reduced reaction time.", False),
        ("Melatonin improved sleep quality and markedly reduced reaction time.", False),
        ("Melatonin and caffeine reduced reaction time.", False),
        ("Melatonin reduced reaction time and improved sleep quality.", False),
    ],
    ids=["second-subject", "while-second-subject", "second-verb", "adverb-before-verb",
         "joined-subjects", "direction-first"],
)  # fmt: skip
def test_a_direction_said_of_a_second_subject_is_not_the_claims(sentence: str, other: bool) -> None:
    claim = word_sequence("Melatonin reduces reaction time.")
    if "Ketamine" in sentence:
        claim = word_sequence("Ketamine raises anxiety.")
    assert other_subject(claim, sentence) is other


@pytest.mark.parametrize(
    ("sentence", "kept"),
    [
        ("Caffeine increased rather than reduced anxiety.", 1),
        ("Caffeine reduced anxiety rather than increasing it.", 1),
        ("Caffeine increased anxiety instead of reducing it.", 1),
        ("Caffeine increased anxiety and reduced sleep.", 2),
    ],
    ids=["rather-than-before", "rather-than-after", "instead-of", "both-stated"],
)  # fmt: skip
def test_a_direction_set_aside_as_the_alternative_is_not_asserted(sentence: str, kept: int) -> None:
    words = word_sequence(sentence)
    assert sum(asserted(words).values()) == kept
    assert sum(directions(words).values()) == 2


@pytest.mark.parametrize(
    ("claim", "sentence", "held"),
    [
        ("Fish oil reduces arrhythmias in women.",
         "Fish oil reduced arrhythmias in men; women were not studied.", True),
        ("Fish oil reduces arrhythmias in men.",
         "Fish oil reduced arrhythmias in men; women were not studied.", False),
        ("Melting ice leads to more sunlight absorbed, heating the Arctic.",
         "Arctic sea ice melts in summer, and more of the sun is absorbed by the ocean.", False),
    ],
    ids=["word-only-in-a-denying-clause", "words-in-the-stating-clause", "compound-claim"],
)  # fmt: skip
def test_a_claims_words_must_stand_in_the_clause_that_states_its_direction(
    claim: str, sentence: str, held: bool
) -> None:
    assert scattered(word_sequence(claim), sentence) is held


@pytest.mark.parametrize(
    ("claim", "sentence", "held"),
    [
        ("Rapamycin inhibits autophagy.",
         "Rapamycin is an inhibitor of mTOR, which inhibits autophagy.", True),
        ("Rapamycin inhibits mTOR.",
         "Rapamycin, which inhibits mTOR, reduced autophagy.", False),
        ("Statins increase IL-10.", "Statins increased STAT3, which increases IL-10.", True),
        ("Statins increase IL-10.", "Statins increased IL-10, which increases STAT3.", False),
    ],
    ids=["which-of-another", "which-of-the-actor", "chain", "which-after-the-finding"],
)  # fmt: skip
def test_a_direction_said_in_a_relative_clause_about_another_thing_is_not_the_claims(
    claim: str, sentence: str, held: bool
) -> None:
    assert relative_subject(word_sequence(claim), sentence) is held

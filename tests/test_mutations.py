"""Mutation families that turn a finding around or state it more strongly."""

from __future__ import annotations

import random

import pytest

from engine.datasets.scifact_text import TrainSentence
from engine.evaluation.overstatements import OVERSTATEMENTS


@pytest.mark.parametrize(
    ("family", "sentence", "mutant"),
    [
        ("direction-flip", "Infiltration was enhanced in the CNS.",
         "Infiltration was impaired in the CNS."),
        ("direction-flip", "Higher doses were safer.", "Lower doses were safer."),
        ("sides-swap", "Recall was better in women than in men.",
         "Recall was better in men than in women."),
        ("sides-swap", "Risk was lower among smokers than nonsmokers.",
         "Risk was lower among nonsmokers than among smokers."),
        ("role-swap", "In neuroblastoma, cells increases FM1-43 uptake.",
         "In neuroblastoma, FM1-43 increases cells uptake."),
        ("role-swap", "HDAC6 inhibits tubulin acetylation.", "tubulin inhibits HDAC6 acetylation."),
        ("hedge-dropped", "UCPs may provide defense against obesity.",
         "UCPs provides defense against obesity."),
        ("hedge-dropped", "Treatment could be beneficial.", "Treatment is beneficial."),
        ("hedge-dropped", "These data suggest that X binds Y.", "These data show that X binds Y."),
        ("quantifier-change", "Some patients relapsed.", "All patients relapsed."),
        ("unit-change", "A dose 2 hours before exposure protected.",
         "A dose 2 days before exposure protected."),
        ("number-word-change", "Immunization stopped after three injections.",
         "Immunization stopped after four injections."),
        ("prefix-flip", "A UCP1-independent mechanism.", "A UCP1-dependent mechanism."),
        ("prefix-flip", "Active kinase was seen.", "Inactive kinase was seen."),
        ("prefix-flip", "It had anti-inflammatory effects.", "It had pro-inflammatory effects."),
        ("word-swap", "Fractures fell in children.", "Fractures fell in adults."),
        ("loss-dropped", "SIRT1 deficiency increased steatosis.", "SIRT1 increased steatosis."),
        ("loss-dropped", "Knockdown of FOXO3 reduced apoptosis.", "FOXO3 reduced apoptosis."),
        ("condition-dropped", "In the absence of insulin, glucagon raised output.",
         "Glucagon raised output."),
        ("condition-dropped", "Calcium reduced fractures among those who adhered to it.",
         "Calcium reduced fractures."),
    ],
    ids=["participle", "capitalised", "in-than-in", "among-than", "around-a-verb",
         "at-the-start", "may-verb", "could-be", "suggest", "some-to-all", "hours-to-days",
         "spelled-number", "prefix-dropped", "prefix-added", "prefix-swapped", "group-swapped",
         "loss-after", "loss-before", "condition-opening", "condition-closing"],
)  # fmt: skip
def test_a_family_turns_the_sentence_around(family: str, sentence: str, mutant: str) -> None:
    item = TrainSentence("doc", 0, sentence, f"Background. {sentence}")
    claims = [m.claim for m in OVERSTATEMENTS[family](item, random.Random(0))]
    assert mutant in claims, claims


@pytest.mark.parametrize(
    ("family", "sentence"),
    [
        ("direction-flip", "Sleep duration was recorded for every participant."),
        ("sides-swap", "Recall was better in women than in women."),
        ("role-swap", "This increases survival."),  # "This" is no actor
        ("prefix-flip", "Signalling was de-regulated in aged cells."),  # one word, hyphened
    ],
    ids=["no-direction-word", "same-sides", "stop-word-actor", "hyphened-prefix"],
)  # fmt: skip
def test_a_sentence_with_nothing_to_turn_gives_no_mutant(family: str, sentence: str) -> None:
    item = TrainSentence("doc", 0, sentence, sentence)
    assert OVERSTATEMENTS[family](item, random.Random(0)) == []

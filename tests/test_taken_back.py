"""The taken-back family: a clause restated alone while its sentence goes on to withdraw it."""

from __future__ import annotations

import random

import pytest

from engine.datasets.scifact_text import TrainSentence, restatement_payload
from engine.evaluation.soundness import grounded_answer
from engine.evaluation.soundness_payloads import mutant_payloads
from engine.evaluation.taken_back import taken_back, taken_back_controls

SENTENCE = "Coffee intake was associated with lower mortality in older adults."
ITEM = TrainSentence("doc", 1, SENTENCE, f"We followed 4,000 adults. {SENTENCE} Data are open.")


@pytest.mark.parametrize("seed", range(12), ids=lambda s: f"seed-{s}")
def test_no_taken_back_clause_answers(seed: int) -> None:
    (mutant,) = taken_back(ITEM, random.Random(seed))
    assert mutant.claim == SENTENCE and mutant.source.startswith(SENTENCE[:-1])
    assert mutant.source in mutant.abstract and SENTENCE not in mutant.abstract
    assert not any(grounded_answer(payload) for payload in mutant_payloads(mutant))


@pytest.mark.parametrize("seed", range(3), ids=lambda s: f"seed-{s}")
def test_a_clause_that_only_adds_leaves_the_first_answering(seed: int) -> None:
    (control,) = taken_back_controls(ITEM, random.Random(seed))
    assert control.source.startswith(f"{SENTENCE[:-1]}, and ")
    assert all(grounded_answer(payload) for payload in mutant_payloads(control))
    assert grounded_answer(restatement_payload([ITEM]))  # the sentence alone, unmutated


@pytest.mark.parametrize(
    "sentence",
    [
        "No toxicity was observed.",  # opens with a restricting word
        "OBJECTIVES To describe misunderstandings.",  # a heading
        "Mice that ate less lived longer.",  # a scope word of its own
        "In mice, tumours shrank.",  # a comma of its own
        "Tumours shrank",  # no full stop
    ],
    ids=["restricting-onset", "heading", "scope-word", "comma", "no-stop"],
)
def test_controls_only_where_the_sentence_splits_cleanly(sentence: str) -> None:
    item = TrainSentence("doc", 0, sentence, f"Background. {sentence}")
    assert taken_back_controls(item, random.Random(0)) == []

"""A finding stated only inside a frame that denies or doubts it is neither a yes nor a no."""

from __future__ import annotations

import pytest

from engine.review.doubt_frames import doubted, doubts, literature_denied
from engine.text.tokens import word_sequence

CLAIM = "Probiotics reduce diarrhoea."


@pytest.mark.parametrize(
    ("sentence", "held"),
    [
        ("It is a myth that probiotics reduce diarrhoea.", True),
        ("The idea that probiotics reduce diarrhoea is a myth.", True),
        ("Few studies have shown that probiotics reduce diarrhoea.", True),
        ("There is little evidence that probiotics reduce diarrhoea.", True),
        ("It has not been established that probiotics reduce diarrhoea.", True),
        ("These results challenge the view that probiotics reduce diarrhoea.", True),
        ("Contrary to the belief that probiotics reduce diarrhoea, we saw no change.", True),
        ("It remains unproven that probiotics reduce diarrhoea.", True),
        ("It is no myth that probiotics reduce diarrhoea.", False),
        ("The idea that probiotics reduce diarrhoea is not wrong.", False),
        ("Studies have shown that probiotics reduce diarrhoea.", False),
        ("It is clear that probiotics reduce diarrhoea.", False),
        ("The hypothesis that probiotics reduce diarrhoea was confirmed.", False),
        ("Contrary to expectations, probiotics reduced diarrhoea.", False),
        ("Probiotics reduced diarrhoea, a finding that few had expected.", False),
    ],
    ids=["a-myth", "idea-is-a-myth", "few-studies", "little-evidence", "not-established",
         "challenge-the-view", "contrary-to-the-belief", "unproven", "no-myth",
         "idea-not-wrong", "studies-have-shown", "it-is-clear", "hypothesis-confirmed",
         "contrary-to-expectations", "frame-after-the-finding"],
)  # fmt: skip
def test_a_yes_inside_a_doubting_frame_is_held(sentence: str, held: bool) -> None:
    assert doubted(CLAIM, [sentence]) is held


def test_a_doubt_denied_is_no_doubt() -> None:
    assert doubts(word_sequence("it is a myth"))
    assert not doubts(word_sequence("it is not a myth"))
    assert doubts(word_sequence("few trials have demonstrated"))
    assert not doubts(word_sequence("few patients reported"))  # scarcity of no showing


@pytest.mark.parametrize(
    ("after", "denied"),
    [
        ("study has shown that probiotics reduce diarrhoea", True),
        ("been proven that probiotics reduce diarrhoea", True),
        ("show that probiotics reduce diarrhoea", False),  # "our trial did not show": a null
        ("evidence that probiotics reduce diarrhoea", False),
        ("reduce diarrhoea", False),
    ],
    ids=["no-study-has-shown", "not-been-proven", "did-not-show", "no-evidence", "plain"],
)  # fmt: skip
def test_a_no_that_denies_only_the_literature_is_named(after: str, denied: bool) -> None:
    assert literature_denied(word_sequence(after)) is denied

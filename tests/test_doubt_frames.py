"""A finding stated only inside a frame that denies or doubts it is neither a yes nor a no."""

from __future__ import annotations

import random

import pytest

from engine.core.stance import StanceRelation
from engine.datasets.scifact_text import train_abstracts, train_sentences
from engine.review.claim_stance import stance_toward
from engine.review.doubt_frames import debated, doubted, doubts, literature_denied, retracted
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
        ("That probiotics reduce diarrhoea is a common misconception.", True),
        ("That probiotics reduce diarrhoea is now well established.", False),
    ],
    ids=["a-myth", "idea-is-a-myth", "few-studies", "little-evidence", "not-established",
         "challenge-the-view", "contrary-to-the-belief", "unproven", "no-myth",
         "idea-not-wrong", "studies-have-shown", "it-is-clear", "hypothesis-confirmed",
         "contrary-to-expectations", "frame-after-the-finding", "opening-that-misconception",
         "opening-that-established"],
)  # fmt: skip
def test_a_yes_inside_a_doubting_frame_is_held(sentence: str, held: bool) -> None:
    assert doubted(CLAIM, [sentence]) is held


@pytest.mark.parametrize(
    ("sentence", "held"),
    [
        ("The ability of probiotics to reduce diarrhoea is debated.", True),
        ("Whether probiotics reduce diarrhoea remains unclear.", True),
        ("That probiotics reduce diarrhoea has been questioned.", True),
        ("Probiotics reduced diarrhoea; the mechanism is unclear.", False),
        ("The ability of probiotics to reduce diarrhoea is not disputed.", False),
        ("Probiotics reduced diarrhoea, which was confirmed.", False),
    ],
    ids=["ability-debated", "remains-unclear", "been-questioned", "another-phrase",
         "not-disputed", "confirmed"],
)  # fmt: skip
def test_a_finding_its_phrase_calls_doubted_is_held(sentence: str, held: bool) -> None:
    assert debated(CLAIM, [sentence]) is held


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


# (opening, closing, the reading the frame itself gives when it gives one)
FRAMES = [
    ("It is a myth that ", "", None),
    ("Few studies have shown that ", "", None),
    ("No study has shown that ", "", None),
    ("The idea that ", " is a myth", None),
    ("These results challenge the view that ", "", None),
    ("There is little evidence that ", "", None),
    ("It has not been established that ", "", None),
    ("There is no doubt that ", "", StanceRelation.SUPPORTS),
    ("It is not true that ", "", StanceRelation.CONTRADICTS),
]


def test_real_sentences_wrapped_in_a_frame_read_only_what_the_frame_says() -> None:
    """Real SciFact sentences, each read as the claim against itself inside a frame: a
    doubting frame gives neither a yes nor a no; "no doubt" gives no no, "not true" no yes."""
    items = [
        item
        for item in train_sentences(train_abstracts())
        if item.text.endswith(".") and item.text[:1].isupper() and item.text[1:2].islower()
    ]
    sample = random.Random(11).sample(items, 40)
    supported = 0
    for item in sample:
        found = stance_toward(item.text, [item.text])
        supported += found is not None and found.relation is StanceRelation.SUPPORTS
        inner = item.text[:1].lower() + item.text[1:-1]
        for opening, closing, allowed in FRAMES:
            read = stance_toward(item.text, [f"{opening}{inner}{closing}."])
            relation = read.relation if read is not None else StanceRelation.NEITHER
            assert relation in (StanceRelation.NEITHER, allowed), (opening, item.text)
    assert supported >= 36  # the sentences themselves still read as yes to themselves


@pytest.mark.parametrize(
    ("sentence", "held"),
    [
        ("Probiotics reduced diarrhoea, a finding that was later retracted.", True),
        ("Probiotics reduced diarrhoea in a retracted study.", True),
        ("Probiotics reduced diarrhoea in a study since discredited.", True),
        ("Probiotics reduced diarrhoea in a study that was not retracted.", True),
        ("Probiotics reduced diarrhoea after the catheter was withdrawn.", False),
    ],
    ids=["later-retracted", "retracted-study", "discredited", "not-retracted-still-said",
         "withdrawn-is-not-retracted"],
)  # fmt: skip
def test_a_finding_whose_record_was_retracted_is_no_yes(sentence: str, held: bool) -> None:
    assert retracted(CLAIM, [sentence]) is held

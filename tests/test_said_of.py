"""What a direction word is said of: its phrase after, a change noun's object, or its subject."""

from __future__ import annotations

import pytest

from engine.text.said_of import said_of


def _of(text: str, word: str) -> tuple[str, ...]:
    found = [s for s in said_of(text) if s.word == word]
    assert len(found) == 1, found
    return found[0].of


@pytest.mark.parametrize(
    ("text", "word", "of"),
    [
        (
            "The compliance to VD supplementation is lower in subjects without fractures.",
            "lower",
            ("compliance",),
        ),
        (
            "Vitamin D reduced the risk of hip fracture by 20%.",
            "reduced",
            ("risk", "of", "hip", "fracture"),
        ),
        (
            "Fracture rates were significantly lower in the treated group.",
            "lower",
            ("fracture", "rates"),
        ),
        ("Use was associated with a 20% reduction in fractures.", "reduction", ("fractures",)),
        (
            "BMI was inversely associated with mortality in women.",
            "inversely",
            ("bmi", "mortality"),
        ),
        (
            "Patients with higher vitamin D levels had fewer fractures.",
            "higher",
            ("vitamin", "d", "levels"),
        ),
        ("Patients with higher vitamin D levels had fewer fractures.", "fewer", ("fractures",)),
        ("Mortality decreased 20 percent after the change.", "decreased", ("mortality",)),
        (
            "In treated women fracture rates decreased.",
            "decreased",
            ("treated", "women", "fracture", "rates"),
        ),
        (
            "We found that serum levels were elevated, whereas pain fell.",
            "elevated",
            ("serum", "levels"),
        ),
        ("Lower family income predicted relapse.", "lower", ("family", "income")),
        ("Are headaches linked to cognitive impairment?", "impairment", ("cognitive",)),
        ("Is amitriptyline an effective drug?", "effective", ("amitriptyline", "drug")),
        ("Does DUSP4 increase apoptosis?", "increase", ("apoptosis",)),
        (
            "Does screening decrease in-hospital mortality?",
            "decrease",
            ("in", "hospital", "mortality"),
        ),
        ("Incidence varied by age, and was higher in men.", "higher", ("incidence",)),
        (
            "Adverse drug events (ADEs) were reduced.",
            "reduced",
            ("adverse", "drug", "events", "ades"),
        ),
    ],
    ids=[
        "subject-head-before-its-preposition",
        "transitive-object-runs-through-of",
        "predicate-back-over-copula-and-adverb",
        "change-noun-takes-its-in",
        "adverb-of-a-link-takes-both-sides",
        "attribute-stops-at-the-verb",
        "second-direction-its-own-object",
        "a-measure-after-is-no-object",
        "opening-phrase-of-place-skipped",
        "clause-word-ends-the-subject",
        "a-noun-in-ly-is-no-adverb",
        "a-noun-of-change-names-its-modifiers",
        "a-predicate-noun-in-a-question",
        "a-verb-that-could-be-a-noun",
        "a-compound-after-the-verb",
        "a-second-predicate-of-one-subject",
        "a-short-parenthesis-is-read-inline",
    ],
)
def test_what_a_direction_is_said_of(text: str, word: str, of: tuple[str, ...]) -> None:
    assert _of(text, word) == of


def test_stop_words_are_no_direction_words() -> None:
    assert [s.word for s in said_of("More patients had less pain.")] == ["less"]


def test_a_text_without_direction_words_says_none() -> None:
    assert said_of("The trial enrolled 300 patients, (aged 40 to 60).") == ()


def test_each_direction_carries_its_axis_and_sign() -> None:
    said = said_of("Exercise improved sleep and reduced pain.")
    assert [(s.word, s.axis, s.sign) for s in said] == [
        ("improved", "valence", 1),
        ("reduced", "quantity", -1),
    ]

from collections.abc import Callable

import pytest

from engine.navigation.spelling import Acronym, acronyms_of, correction, spells_out


def known_of(*words: str) -> Callable[[object], bool]:
    vocabulary = set(words)
    return vocabulary.__contains__


@pytest.mark.parametrize(
    ("word", "vocabulary", "fixed"),
    [
        ("coavtivator", {"coactivator", "activator"}, "coactivator"),
        ("osteoparthritis", {"osteoarthritis"}, "osteoarthritis"),
        ("supresse", {"suppresse"}, "suppresse"),
        ("sclerosi", {"sclerosis"}, "sclerosis"),
    ],
    ids=["substitution", "insertion", "deletion", "short-plural"],
)
def test_an_unknown_word_stands_for_the_one_word_a_typo_away(
    word: str, vocabulary: set[str], fixed: str
) -> None:
    assert correction(word, known_of(*vocabulary)) == fixed


@pytest.mark.parametrize(
    ("word", "vocabulary"),
    [
        ("coactivator", {"coactivator", "coactivators"}),
        ("mutatione", {"mutationa", "mutations"}),
        ("tumour", {"tumor"}),
        ("asymptomatic", {"symptomatic"}),
        ("increased", {"decreased"}),
        ("without", {"withoud"}),
        ("cd4", {"cd8"}),
    ],
    ids=[
        "known",
        "two-corrections",
        "too-short",
        "negating-prefix",
        "opposite",
        "negation",
        "not-letters",
    ],
)
def test_no_correction_that_is_not_sure_or_would_change_the_meaning(
    word: str, vocabulary: set[str]
) -> None:
    assert correction(word, known_of(*vocabulary), min_length=7 if word != "cd4" else 1) is None


def test_a_correction_never_lands_on_a_negation() -> None:
    assert correction("nevers", known_of("never"), min_length=5) is None


def test_acronyms_are_capitals_and_only_defined_ones_when_asked() -> None:
    question = "Decreased diastolic blood pressure (DBP) is linked to AAA in SCD patients."
    assert [a.word for a in acronyms_of(question)] == ["dbp", "aaa", "scd"]
    assert acronyms_of(question, defined=True) == [Acronym("dbp", "dbp", defined=True)]
    assert acronyms_of("Pure neural progenitor cells (NPCs) grow.", defined=True) == [
        Acronym("npc", "npc", defined=True)
    ]


@pytest.mark.parametrize(
    ("text", "spelled"),
    [
        ("Pain crises in sickle cell disease were frequent.", True),
        ("Sickle-cell disease patients", True),
        ("sickle cells in disease", False),
        ("cell sickle disease", False),
    ],
    ids=["words", "hyphenated", "stop-word-in-between", "wrong-order"],
)
def test_an_acronym_is_spelled_out_by_consecutive_initials(text: str, spelled: bool) -> None:
    assert spells_out(Acronym("scd", "scd"), text) is spelled

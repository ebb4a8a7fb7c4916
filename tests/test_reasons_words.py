"""Reasons in the user's words: question words as typed, framing never salient, the headline
naming the real cause, and numbers counted as a reader sees them."""

from __future__ import annotations

import pytest

from engine import Cause, answer
from engine.api import OpenWorkspace
from engine.core.traceability import check_traceability
from engine.navigation.coverage import CoverageReport, Term, question_words, typed_words
from engine.text.numbers import read
from engine.text.tokens import token_spans
from present import views
from present.gallery import example

SIGNAL = "does the momentum signal skip the most recent month?"


@pytest.mark.parametrize(
    ("question", "words"),
    [
        ("Reviewing what is known about statins?", ["statin"]),
        ("I am reviewing the literature on statins", ["statin"]),
        ("I'm reviewing what is known about statins", ["statin"]),
        ("What is known about statins and fractures?", ["statin", "fracture"]),
        ("Is it true that statins prevent fractures?", ["statin", "prevent", "fracture"]),
        ("Tell me about statins", ["statin"]),
        ("Can you tell me about statins?", ["statin"]),
        (
            "Statins prevent fractures, according to the literature",
            ["statin", "prevent", "fracture"],
        ),
        ("What does the literature say about statins?", ["statin"]),
        ("Do statins prevent fractures in the literature?", ["statin", "prevent", "fracture"]),
    ],
    ids=[
        "reviewing",
        "i-am-reviewing-the-literature",
        "im-reviewing-what-is-known",
        "what-is-known-about",
        "is-it-true-that",
        "tell-me-about",
        "can-you-tell-me",
        "according-to-the-literature",
        "what-does-the-literature-say",
        "in-the-literature",
    ],
)
def test_framing_words_are_never_question_words(question: str, words: list[str]) -> None:
    assert question_words(question) == words


@pytest.mark.parametrize(
    ("question", "typed"),
    [
        ("Do enzymes' actions slow?", {"enzyme": "enzymes", "action": "actions", "slow": "slow"}),
        ("Statins and SCD crises", {"statin": "Statins", "scd": "SCD", "crise": "crises"}),
        (
            "Do studies of tumours agree?",
            {"study": "studies", "tumour": "tumours", "agree": "agree"},
        ),
    ],
    ids=["possessive-plural", "case-kept", "ies-plural"],
)
def test_each_question_word_maps_to_the_word_as_typed(question: str, typed: dict[str, str]) -> None:
    assert typed_words(question) == typed


def test_a_report_names_its_gaps_as_typed_and_keeps_the_tokens_for_matching() -> None:
    report = CoverageReport(
        (
            Term("enzyme", 3.0, True, False, "enzymes"),
            Term("action", 2.0, True, False, "actions"),
            Term("liver", 1.0, False, False, "liver"),
        )
    )
    assert report.uncovered == ("enzymes", "actions")
    assert report.uncovered_terms == ("enzyme", "action")
    assert report.to_dict()["terms"][0]["shown"] == "enzymes"


@pytest.mark.parametrize(
    ("question", "label", "head"),
    [
        (SIGNAL, "ANSWER", "ANSWER — grounded"),
        ("I am reviewing what is known about this: " + SIGNAL, "ANSWER", "ANSWER — grounded"),
        ("Is it true that " + SIGNAL, "ANSWER", "ANSWER — grounded"),
        (
            "Do the momentum signals skip the most recent months, according to the literature?",
            "ANSWER",
            "ANSWER — grounded",
        ),
        (
            "Tell me whether momentum signals skip the most recent months in Tumours",
            "ABSTAIN",
            "ABSTAIN — uncovered term. The answer never mentions ‘Tumours’,",
        ),
    ],
    ids=["plain", "reviewing", "is-it-true", "according-to", "uncovered-as-typed"],
)
def test_framing_never_blocks_and_gaps_are_named_as_typed(
    lab: OpenWorkspace, question: str, label: str, head: str
) -> None:
    run = answer(lab, question).run
    banner = views.banner(run)
    assert run.label == label
    assert banner.text.startswith(head)
    assert "‘tumour’" not in banner.text and "reviewing" not in banner.text.lower()


@pytest.mark.parametrize(
    ("key", "causes", "head"),
    [
        ("missing-hop", (Cause.MISSING_HOP,), "ABSTAIN — missing hop."),
        ("stale", (Cause.STALE,), "ABSTAIN — stale source."),
        ("false-premise", (Cause.FALSE_PREMISE,), "ABSTAIN — refuted source."),
        ("orphan-prose", (Cause.UNLICENSED_SENTENCE,), "ABSTAIN — unlicensed sentence."),
        ("honesty", (Cause.HONESTY_VIOLATION,), "ABSTAIN — honesty violation."),
        ("contested", (Cause.CONTESTED_SOURCE,), "ABSTAIN — contested source."),
        ("grounded", (), "ANSWER — grounded."),
    ],
    ids=["missing-hop", "stale", "refuted", "orphan-prose", "honesty", "contested", "answer"],
)
def test_the_headline_names_the_real_cause_never_low_coverage(
    key: str, causes: tuple[Cause, ...], head: str
) -> None:
    run = views.audit_result(example(key).text).run
    assert run.decision is not None
    assert run.decision.causes == causes
    assert run.decision.to_dict()["causes"] == [c.value for c in causes]
    text = views.banner(run).text
    assert text.startswith(head) and "low-coverage" not in text


def test_every_cause_is_explained_under_its_own_name() -> None:
    run = views.audit_result(example("honesty").text).run
    (item,) = views.explanations(run)
    assert item.reason == "honesty violation"
    assert "asserted a status above" in item.explanation
    assert any("as measured, but only grounded" in line for line in item.specifics)


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("Of 10/66 patients.", ["10/66"]),
        ("Survival was 18·2 months.", ["18·2"]),
        ("OR 2.1 (95% CI 1.2–3.4).", ["2.1", "95% CI 1.2–3.4"]),
        ("HR 0.8; 95% CI, 0.6-0.9.", ["0.8", "95% CI, 0.6-0.9"]),
        ("We counted 1,234 cells.", ["1234"]),
        ("A change of −0.5 points.", ["-0.5"]),
        ("Weight 4 ± 1 kg.", ["4 ± 1"]),
        ("Doses of 10, 20 and 30 mg.", ["10", "20", "30"]),
        ("From 3 to 12 months.", ["3", "12"]),
        ("Group 1: 45 patients.", ["1", "45"]),
        ("A 3:1 ratio over 18 – 20 weeks.", ["3:1", "18 – 20"]),
    ],
    ids=[
        "ratio",
        "middle-dot-decimal",
        "confidence-interval",
        "ci-with-comma",
        "thousands",
        "unicode-minus",
        "plus-minus",
        "list-stays-three",
        "words-between-stay-two",
        "label-colon-stays-two",
        "ratio-and-spaced-dash-range",
    ],
)
def test_numbers_are_counted_as_a_reader_sees_them(text: str, numbers: list[str]) -> None:
    assert [found.label for found in read(text, token_spans(text))] == numbers
    trace = check_traceability(text, {})
    stray = [o.removeprefix("number:") for o in trace.orphans if o.startswith("number:")]
    assert stray == numbers
    assert f"{len(numbers)} number(s) in orphan sentences" in trace.detail
    spans = [s for s in trace.spans if s.kind.value == "number"]
    assert len(spans) == len(numbers)

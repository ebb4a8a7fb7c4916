"""Natural questions on the SciFact demo: green only when the sources answer what was asked."""

from __future__ import annotations

import json

import pytest

from engine.api import OpenWorkspace, ask, route_json
from engine.core.stance import Overstated
from engine.reading.aims import asks
from engine.review.claim_stance import pair_stance
from present.answer import answer_area, never, stance_line, summary
from present.views import banner


@pytest.mark.parametrize(
    ("question", "word"),
    [
        ("Do statins reduce mortality in patients with sepsis?", "sepsis"),
        ("Does metformin reduce cancer incidence in diabetic patients?", "cancer"),
        ("Does HPV vaccination reduce cervical cancer?", "vaccination"),
    ],
    ids=["sepsis-never-said", "cancer-never-said", "vaccination-not-testing"],
)
def test_an_answer_that_never_says_a_topic_word_is_not_green(
    demo: OpenWorkspace, question: str, word: str
) -> None:
    result = ask(demo, question)
    assert result.label != "ANSWER", result.prose
    named = result.decision.unmentioned if result.decision else ()
    assert word in named or word in (result.coverage.uncovered if result.coverage else ())
    if result.label == "HEDGED ANSWER":
        # Text that never says the question's topic gives it no yes or no.
        assert result.stance is not None and result.stance.reading == "mixed"


def test_an_aim_is_never_the_answer(demo: OpenWorkspace) -> None:
    result = ask(demo, "Are PD-1 inhibitors effective in melanoma?")
    assert "This review will focus" not in result.prose
    if result.label == "ANSWER":
        assert not asks(result.prose)


def test_a_typo_in_the_question_finds_the_word_the_sources_spell(demo: OpenWorkspace) -> None:
    result = ask(demo, "Is asprin associated with a lower risk of colorectal cancer?")
    assert result.coverage is not None and "asprin" not in result.coverage.uncovered
    assert ("asprin", "aspirin") in result.coverage.respelled
    assert result.label == "ANSWER" and "aspirin" in result.prose.lower()
    assert result.stance is not None and result.stance.asked and result.stance.reading == "yes"


def test_without_an_increase_is_never_an_increase(demo: OpenWorkspace) -> None:
    result = ask(
        demo,
        "Ticagrelor increases the rate of major bleeding compared with clopidogrel in diabetic "
        "patients with acute coronary syndromes.",
    )
    assert "without an increase in major bleeding" in result.prose
    assert result.stance is not None and result.stance.relation.value != "supports"


CLAIM = "Ticagrelor increases major bleeding compared with clopidogrel."
NOT_YES = {"neither", "contradicts"}
STANCES = [
    ("without", CLAIM, "Ticagrelor reduced events without an increase in major bleeding.", NOT_YES),
    ("did-not", CLAIM, "Ticagrelor did not increase major bleeding versus clopidogrel.", NOT_YES),
    (
        "failed-to",
        CLAIM,
        "Ticagrelor failed to increase major bleeding versus clopidogrel.",
        NOT_YES,
    ),
    ("no-difference", CLAIM, "There was no difference in major bleeding with ticagrelor.", NOT_YES),
    ("neither-nor", CLAIM, "Neither ticagrelor nor clopidogrel increased major bleeding.", NOT_YES),
    (
        "swap-human-machine",
        "Human effort improves annotation quality.",
        "Machine effort improves annotation quality.",
        {"neither"},
    ),
    (
        "swap-drug",
        "Aspirin therapy reduces stroke recurrence.",
        "Statin therapy reduces stroke recurrence.",
        {"neither"},
    ),
    (
        "control",
        CLAIM,
        "Ticagrelor increased major bleeding compared with clopidogrel.",
        {"supports"},
    ),
]


@pytest.mark.parametrize(
    ("claim", "sentence", "allowed"), [s[1:] for s in STANCES], ids=[s[0] for s in STANCES]
)
def test_negation_in_scope_and_swapped_words_never_support(
    claim: str, sentence: str, allowed: set[str]
) -> None:
    assert pair_stance(claim, sentence).relation.value in allowed


@pytest.mark.parametrize(
    ("question", "word"),
    [
        (
            "In British men, does haplogroup I decrease the risk of cardiovascular disease?",
            "decrease",
        ),
        ("Do hypocretin neurones suppress a panicprone state in rats?", "suppress"),
    ],
    ids=["haplogroup-counts-not-risk", "a-role-is-no-suppression"],
)
def test_a_relation_the_source_never_states_is_not_green(
    demo: OpenWorkspace, question: str, word: str
) -> None:
    # The cited sentence states a relation of its own (or none) that no cue reads as the
    # one asked: the answer may stand hedged, naming the word, never green.
    result = ask(demo, question)
    assert result.label != "ANSWER", result.prose
    assert result.decision is not None and word in result.decision.unmentioned
    assert result.stance is not None and result.stance.reading == "mixed"


@pytest.mark.parametrize(
    ("verb", "reading"), [("reduced", "yes"), ("increased", "no")], ids=["same-way", "opposite"]
)
def test_a_relation_said_in_other_words_and_read_by_the_stance_stays_green(
    demo: OpenWorkspace, verb: str, reading: str
) -> None:
    asked = "in-hospital mortality in extremely preterm infants?"
    question = f"Is screening echocardiography associated with {verb} {asked}"
    result = ask(demo, question)
    assert (
        result.label == "ANSWER" and "associated with lower in-hospital mortality" in result.prose
    )
    assert result.stance is not None and result.stance.reading == reading


def test_an_association_asked_as_a_change_stands_hedged(demo: OpenWorkspace) -> None:
    result = ask(demo, "Does screening echocardiography reduce in-hospital mortality in "
                 "extremely preterm infants?")  # fmt: skip
    assert result.label == "HEDGED ANSWER", result.prose
    assert result.decision is not None and result.decision.withheld is Overstated.ASSOCIATION


# Strict: a known false green, kept in the suite until the relation's subject is read. The
# question's topic words are all covered ("VD" for vitamin D, "lower" for reduce,
# "fractures"), but "lower" is said of compliance, and the fractures sit in "without …".
def test_a_relation_said_of_something_else_is_not_green(demo: OpenWorkspace) -> None:
    result = ask(demo, "Does vitamin D supplementation reduce fractures?")
    assert not (result.label == "ANSWER" and "compliance to VD" in result.prose), result.prose


def test_a_relation_said_of_something_else_is_named_as_not_stated_as_asked(
    demo: OpenWorkspace,
) -> None:
    result = ask(demo, "Does vitamin D supplementation reduce fractures?")
    assert result.label == "HEDGED ANSWER"
    assert never(result) == "never states ‘reduce’ as the question asks it"
    assert "but it never states ‘reduce’ as the question asks it: it may" in summary(result)
    line = stance_line(result)
    assert line is not None and "never states ‘reduce’" in line.text


def test_a_word_never_said_is_named_as_never_said(demo: OpenWorkspace) -> None:
    result = ask(demo, "Do statins reduce mortality in patients with sepsis?")
    assert "never says ‘sepsis’" in never(result)


@pytest.mark.parametrize(
    ("question", "rule"),
    [
        ("Reduced phosphorylation of PP2A suppresses HDAC4 dephosphorylation.", "direction"),
        ("Pioglitazone use is not associated with an increased risk of prostate cancer.",
         "negation"),
        ("Does increased LDL receptors play a role in the reduction of plasma Lp(a)?", "hedge"),
        ("Is ca2+ cycling a UCP1-dependent thermogenic mechanism?", "unmarked"),
    ],
    ids=["direction-stated", "negation-stated", "hedge-asked", "prefix-dropped-asked"],
)  # fmt: skip
def test_text_that_withholds_the_yes_stands_hedged_with_the_rule_named(
    demo: OpenWorkspace, question: str, rule: str
) -> None:
    result = ask(demo, question)
    assert result.label == "HEDGED ANSWER", result.prose
    assert result.decision is not None and result.decision.withheld is not None
    assert result.decision.withheld.value == rule == result.decision.to_dict()["withheld"]
    assert result.stance is not None and result.stance.overstated is result.decision.withheld
    assert "not a yes to what was asked" in summary(result)
    assert "not a yes to the question" in banner(result).text
    assert "Quoted, verified, but not a yes to the question" in answer_area(result).html
    assert stance_line(result) is None  # the banner says why; no line says it twice
    # The saved payload carries the rule: routed again, the answer stays hedged.
    again = route_json(json.dumps(result.payload), workspace=demo.workspace.root)
    assert (again.label, again.withheld) == ("HEDGED ANSWER", result.decision.withheld)

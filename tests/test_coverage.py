import math
from collections.abc import Iterable
from typing import Any

import pytest

from engine.navigation.coverage import (
    AcronymRule,
    MentionRules,
    QuestionTerms,
    question_words,
)
from engine.text.stems import mention_stem

# Document frequencies over a 1,000-note workspace: the rarer, the more a word weighs.
DF = {"vitamin": 150, "d": 400, "deficiency": 120, "increase": 600, "risk": 500,
      "tuberculosis": 40, "brca1": 8, "mutation": 200}  # fmt: skip
NOTES = 1000


def rarity(terms: Iterable[str]) -> dict[str, float]:
    return {w: math.log((NOTES + 1) / (DF.get(w, 0) + 1)) for w in terms}


def terms(question: str) -> QuestionTerms:
    return QuestionTerms(question, rarity, notes=NOTES)


def test_the_topic_an_answer_never_mentions_is_the_blocking_gap() -> None:
    report = terms("Vitamin D deficiency increases the risk of tuberculosis.").measure(
        ["Vitamin D insufficiency and deficiency increase the risk of skeletal fractures."]
    )
    assert report.uncovered == ("tuberculosis",)
    assert report.blocking_count == 1
    assert 0.5 < report.covered_share < 1.0
    assert report.to_dict()["uncovered"] == ["tuberculosis"]


def test_an_answer_that_mentions_every_salient_term_has_no_gap() -> None:
    report = terms("Vitamin D deficiency increases the risk of tuberculosis.").measure(
        ["Deficient vitamin D raises tuberculosis risk."]
    )
    assert report.blocking_count == 0


def test_common_words_are_not_salient() -> None:
    salient = terms("Vitamin D deficiency increases the risk of tuberculosis.").salient
    assert "tuberculosis" in salient and "increase" not in salient and "risk" not in salient


@pytest.mark.parametrize(
    ("question", "words"),
    [
        ("What does the knowledge base say about BRCA1 mutations?", ["brca1", "mutation"]),
        ("Is it true that statins lower LDL?", ["statin", "lower", "ldl"]),
        ("Tell me about mitosis", ["mitosis"]),
    ],
    ids=["knowledge-base", "is-it-true", "tell-me"],
)
def test_question_framing_is_not_content(question: str, words: list[str]) -> None:
    assert question_words(question) == words


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("tuberculosis", "tuberculous", True),
        ("deficiency", "deficient", True),
        ("increase", "increased", True),
        ("rose", "rise", True),
        ("interleukin", "interaction", False),
        ("cd4", "cd8", False),
    ],
    ids=["tb", "deficien", "increase", "irregular", "different", "numbers"],
)
def test_mentions_by_stem(a: str, b: str, same: bool) -> None:
    question = QuestionTerms(a, lambda ws: dict.fromkeys(ws, 9.0), notes=NOTES)
    assert (question.measure([b]).blocking_count == 0) is same, (mention_stem(a), mention_stem(b))


def test_an_empty_workspace_blocks_nothing() -> None:
    question = QuestionTerms("tuberculosis", lambda ws: dict.fromkeys(ws, 0.0), notes=0)
    assert question.measure([""]).blocking_count == 0


CORPUS_WORDS = {"coactivator", "recruitment", "panic", "prone", "state", "symptomatic",
                "carrier", "decreased", "risk", "diastolic", "blood", "pressure"}  # fmt: skip


def spelled(question: str, **rules: Any) -> QuestionTerms:
    """Terms over a workspace whose canon notes hold exactly CORPUS_WORDS."""
    return QuestionTerms(
        question,
        lambda ws: {w: 9.0 for w in ws},
        notes=NOTES,
        known=CORPUS_WORDS.__contains__,
        rules=MentionRules(**rules),
    )


@pytest.mark.parametrize(
    ("question", "text", "covered"),
    [
        ("recruitment of the coavtivator", "the coactivator was recruited", True),
        ("recruitment of the coavtivator", "the activator was recruited", False),
        ("a panicprone state", "a panic-prone state", True),
        ("a panicprone state", "prone to panic", False),
        ("asymptomatic carriers", "symptomatic carriers", False),
        # A direction word is a relation, met by any relation: the stance reads which one.
        ("increased risk", "decreased risk", True),
        ("diastolic blood pressure (DBP)", "diastolic blood pressure fell", True),
        ("DBP fell", "diastolic blood pressure fell", False),
    ],
    ids=[
        "typo",
        "typo-other-word",
        "compound",
        "compound-apart",
        "negating-prefix",
        "opposite-direction-is-the-stance's",
        "defined-acronym",
        "undefined-acronym",
    ],
)
def test_spelling_rules_cover_only_what_the_question_means(
    question: str, text: str, covered: bool
) -> None:
    report = spelled(question).measure([text])
    assert (report.blocking_count == 0) is covered, report.to_dict()
    assert len(report.uncovered) <= 1, "only the word under test may be uncovered"


def test_without_an_index_or_with_the_rules_off_only_stems_count() -> None:
    off = {"correct_unseen": False, "compounds": False, "acronyms": AcronymRule.OFF}
    assert spelled("the coavtivator", **off).measure(["the coactivator"]).uncovered
    unknown = QuestionTerms("the coavtivator", lambda ws: {w: 9.0 for w in ws}, notes=NOTES)
    assert unknown.corrections == {}
    assert unknown.measure(["the coactivator"]).uncovered == ("coavtivator",)


def test_an_undefined_acronym_may_be_spelled_out_only_when_asked() -> None:
    question = spelled("DBP fell", acronyms=AcronymRule.ANY)
    assert question.measure(["diastolic blood pressure fell"]).blocking_count == 0


def test_a_word_whose_stem_is_a_corpus_word_is_not_corrected() -> None:
    known = {"tumour", "tumoral", "cell"}.__contains__
    question = QuestionTerms(
        "tumoural cells", lambda ws: {w: 9.0 for w in ws}, notes=NOTES, known=known
    )
    assert question.corrections == {}
    assert question.measure(["tumour cells"]).blocking_count == 0


@pytest.mark.parametrize(
    ("question", "text", "related"),
    [
        ("Does BCL2 promote apoptosis?", "BCL2 was downregulated during apoptosis.", ("promote",)),
        ("Does BCL2 promote apoptosis?", "BCL2 promoted apoptosis.", ()),
        ("Is obesity associated with asthma?", "Obesity was linked to asthma.", ()),
        ("Is obesity associated with asthma?", "Obesity caused asthma.", ()),
        ("Does obesity cause asthma?", "Obesity was associated with asthma.", ("cause",)),
        ("Is obesity associated with asthma?", "Obesity raised asthma rates.", ("associated",)),
        ("Does vitamin D raise bone mass?", "Vitamin D elevated bone mass.", ()),
        ("Does vitamin D raise bone mass?", "Vitamin D lowered bone mass.", ("raise",)),
    ],
    ids=[
        "other-direction-is-the-stance's",
        "same-word",
        "same-link-family",
        "stronger-link",
        "weaker-link-is-no-cause",
        "a-direction-is-no-association",
        "same-direction-other-word",
        "opposite-direction",
    ],
)
def test_a_relation_said_only_in_other_words_is_left_to_the_stance(
    question: str, text: str, related: tuple[str, ...]
) -> None:
    report = terms(question).measure([text])
    assert report.related == related, report.to_dict()
    assert report.unmentioned == ()
    unread = report.unread()
    assert unread.unmentioned == related
    assert report.unread(read=related).unmentioned == ()


@pytest.mark.parametrize(
    ("question", "text", "itself"),
    [
        (
            "Does vitamin D supplementation reduce fractures?",
            "The compliance to vitamin D supplementation is lower in subjects without fractures.",
            False,
        ),
        (
            "Does vitamin D supplementation reduce fractures?",
            "Vitamin D supplementation reduced compliance among patients with fractures.",
            False,
        ),
        (
            "Does vitamin D supplementation reduce fractures?",
            "Vitamin D supplementation is reduced in patients with fractures.",
            False,
        ),
        (
            "Does vitamin D supplementation reduce fractures?",
            "Vitamin D supplementation reduced fractures in older women.",
            True,
        ),
        (
            "Does vitamin D supplementation reduce fractures?",
            "Fractures were significantly lower with vitamin D supplementation.",
            True,
        ),
        (
            "Does vitamin D supplementation reduce fractures?",
            "Vitamin D supplementation gave a 20% reduction in fractures.",
            True,
        ),
        (
            "Is fracture risk reduced by vitamin D?",
            "Vitamin D lowered the risk of hip fracture.",
            True,
        ),
        (
            "Is fracture risk reduced by vitamin D?",
            "Vitamin D lowered compliance in patients at risk of fracture.",
            False,
        ),
        (
            "Does vitamin D supplementation reduce fractures?",
            "Fractures reduced vitamin D supplementation in the cohort.",
            False,
        ),
    ],
    ids=[
        "lower-said-of-compliance",
        "reduced-said-of-compliance",
        "the-agent-itself-reduced",
        "control-reduced-fractures",
        "control-fractures-lower",
        "control-reduction-in-fractures",
        "control-passive-question",
        "passive-question-said-of-other",
        "roles-swapped",
    ],
)
def test_a_direction_counts_only_when_said_of_what_the_question_moves(
    question: str, text: str, itself: bool
) -> None:
    report = terms(question).measure([text])
    moved = next(t for t in report.terms if t.shown in ("reduce", "reduced"))
    assert moved.covered
    assert moved.related is not itself, report.to_dict()

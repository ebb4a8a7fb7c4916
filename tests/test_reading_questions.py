"""A stated claim rewritten as the question a researcher would ask, and a question read back."""

import pytest

from engine.reading.questions import as_claim, as_question, yes_no


@pytest.mark.parametrize(
    ("claim", "question"),
    [
        ("Aspirin reduces stroke.", "Does aspirin reduce stroke?"),
        ("Statins reduced mortality in sepsis.", "Did statins reduce mortality in sepsis?"),
        (
            "Obese patients have higher rates of asthma.",
            "Do obese patients have higher rates of asthma?",
        ),
        (
            "APOE4 is associated with Alzheimer disease.",
            "Is APOE4 associated with Alzheimer disease?",
        ),
        ("Vitamin D can prevent fractures.", "Can vitamin D prevent fractures?"),
        (
            "The gut microbiome has been linked to obesity.",
            "Has the gut microbiome been linked to obesity?",
        ),
        ("Nothing here at all.", "Is it the case that nothing here at all?"),
    ],
    ids=["third-person", "past", "plural-have", "copula", "modal", "perfect", "no-verb-found"],
)
def test_a_claim_is_asked_as_a_yes_no_question(claim: str, question: str) -> None:
    assert as_question(claim) == question
    assert yes_no(question)


@pytest.mark.parametrize(
    ("question", "claim"),
    [
        ("Does aspirin reduce stroke?", "aspirin reduce stroke"),
        ("Doesn't aspirin reduce stroke?", "not aspirin reduce stroke"),
        ("Can't aspirin reduce stroke?", "not aspirin reduce stroke"),
        ("Won\u2019t aspirin reduce stroke?", "not aspirin reduce stroke"),
        ("Is there evidence that statins lower LDL?", "statins lower LDL"),
        (
            "In British men, does haplogroup I decrease the risk of heart disease?",
            "haplogroup I decrease the risk of heart disease in British men",
        ),
        (
            "Among older adults, is it true that exercise improves mood?",
            "exercise improves mood among older adults",
        ),
        ("What reduces stroke?", None),
        ("In mice, what reduces stroke?", None),
        ("Does aspirin reduce stroke", None),
    ],
    ids=[
        "auxiliary",
        "negated",
        "cannot",
        "will-not-curly",
        "lead-in",
        "setting",
        "setting-and-lead-in",
        "open",
        "open-with-setting",
        "no-question-mark",
    ],
)
def test_a_yes_no_question_is_read_as_the_claim_it_asks(question: str, claim: str | None) -> None:
    assert as_claim(question) == claim
    assert yes_no(question) is (claim is not None)

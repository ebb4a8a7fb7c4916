"""What the Audit says each quote check found: the true reason, from the check's values."""

from __future__ import annotations

import json

import pytest

from engine import Fit, audit_answer
from engine.navigation.result import NavResult
from present.causes import headline, summary
from present.checks import check_words, confirmed_words
from present.tables import claim_rows

SOURCE = (
    "In this trial, vitamin D supplements reduced hip fractures by a third. "
    "Falls were unchanged. Calcium was given to every arm."
)


def routed(quote: str, claim: str | None = None) -> NavResult:
    """The audited answer for one restatement citing one quote of SOURCE."""
    text = claim or quote
    payload = {
        "dag": {
            "claims": [{"id": "c1", "text": text, "kind": "restatement", "cites": ["zk:t:n1"]}],
            "conclusion": "c1",
        },
        "prose": text,
        "groundings": {
            "zk:t:n1": {"type": "quote", "payload": {"body": quote, "fulltext": SOURCE}}
        },
    }
    return audit_answer(json.dumps(payload), None).run


CASES = [
    ("Falls were unchanged.", Fit.WHOLE, "Found word for word, as whole sentences", "ANSWER"),
    ("Falls were unchnaged.", Fit.WHOLE, "Found with a typo (score", "ANSWER"),
    (
        "vitamin D supplements reduced hip fractures by a third.",
        Fit.INSIDE,
        "Found word for word, but inside a longer sentence, so it licenses nothing",
        "ABSTAIN",
    ),
    (
        "by a third. Falls were",
        Fit.ACROSS,
        "Found word for word, but not as whole sentences",
        "ABSTAIN",
    ),
    ("Vitamin K cured every fracture in the trial.", None, "Not found in the source", "ABSTAIN"),
]


@pytest.mark.parametrize(
    ("quote", "fit", "words", "label"), CASES, ids=["whole", "typo", "inside", "across", "absent"]
)
def test_each_check_says_what_it_found(quote: str, fit: Fit | None, words: str, label: str) -> None:
    run = routed(quote)
    assert run.decision is not None
    check = run.decision.verifier_results["zk:t:n1"]
    assert check.fit is fit
    assert check_words(check).startswith(words)
    assert run.label == label
    assert words in claim_rows(run)[0]["verifiers"][0]


def test_a_quote_found_inside_a_longer_sentence_is_never_called_not_found() -> None:
    run = routed("vitamin D supplements reduced hip fractures by a third.")
    said = summary(run)
    assert "not found" not in said and "not found" not in headline(run)
    assert "so it licenses nothing (only a whole sentence or clause" in said
    assert said.endswith("“In this trial, vitamin D supplements reduced hip fractures by a third.”")
    assert headline(run) == "quote not a whole sentence"
    assert run.decision is not None
    check = run.decision.verifier_results["zk:t:n1"]
    assert confirmed_words(check, True) == "none: the quote is found, but inside a longer sentence"


def test_a_claim_that_differs_from_a_whole_quote_is_still_not_found_word_for_word() -> None:
    run = routed("Falls were unchanged.", claim="Falls were much reduced.")
    assert "is not found word for word in what it cites" in summary(run)
    assert headline(run) == "not found word for word"

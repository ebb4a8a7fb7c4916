"""Every sign that shows is kept: spaced minus signs, primes and raised or lowered signs,
in the tokens, the quote check, licensing, traceability and the figures of briefs."""

from typing import Any

import pytest

from engine.api import route_payload
from engine.core.quote import verify_quote
from engine.review.figures import untraced_figures
from engine.text.tokens import word_sequence
from tests import values

REF = "zk:lab:n1"
SPACES = {"space": " ", "thin": "\u2009", "no-break": "\u00a0", "narrow": "\u202f"}
DASHES = {"hyphen": "-", "minus": "\u2212", "en": "\u2013", "em": "\u2014"}


def restating(claim: str, source: str) -> dict[str, Any]:
    """A restatement of `source`, quoted whole against itself and its note's body."""
    ground = {"type": "quote", "payload": {"body": source, "fulltext": source}}
    return values.restating(claim, REF, ground, node_bodies={REF: source})


def answers(claim: str, source: str) -> bool:
    out = route_payload(restating(claim, source))
    return out["verdict"] == "answer" and not out["hedged"]


SPACED = [
    f"Reversal earned {dash}{space}1.2% a month."
    for dash in DASHES.values()
    for space in SPACES.values()
]
SPACED_IDS = [f"{d}-{s}" for d in DASHES for s in SPACES]


@pytest.mark.parametrize("source", SPACED, ids=SPACED_IDS)
def test_a_spaced_sign_is_the_number_s_sign(source: str) -> None:
    assert word_sequence(source) == ("reversal", "earned", "-1.2%", "a", "month")
    assert not answers("Reversal earned 1.2% a month.", source)


@pytest.mark.parametrize("source", SPACED, ids=SPACED_IDS)
def test_a_spaced_minus_restated_with_its_sign_still_answers(source: str) -> None:
    assert answers("Reversal earned \u22121.2% a month.", source)
    assert answers(source, source)


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("The angle was 40\u2033 wide.", "The angle was 40\u2032 wide."),
        ("The angle was 40\u2032 wide.", "The angle was 40\u2033 wide."),
        ("The angle was 40 wide.", "The angle was 40\u2034 wide."),
        ("Tumours were ER in the trial.", "Tumours were ER\u207b in the trial."),
        ("Tumours were ER in the trial.", "Tumours were ER\u207a in the trial."),
        ("Tumours were x in the trial.", "Tumours were x\u208b in the trial."),
    ],
    ids=["prime-to-double", "double-to-prime", "triple-dropped", "raised-minus-dropped",
         "raised-plus-dropped", "lowered-minus-dropped"],
)  # fmt: skip
def test_primes_and_raised_signs_are_tokens(claim: str, source: str) -> None:
    assert not answers(claim, source)
    assert answers(source, source)


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("Doses of 10-20 mg were given.", "Doses of 10 - 20 mg were given."),
        ("Doses of 10 to 20 mg were given.", "Doses of 10 to 20 mg were given."),
        ("Pre- and post-treatment scores were 4.", "Pre- and post-treatment scores were 4."),
        ("The long-term effect was 5%.", "The long - term effect was 5%."),
        ("A 5′ cap was found.", "A 5' cap was found."),
    ],
    ids=["range-between-numbers", "range-in-words", "hyphenated-words", "spaced-hyphen-words",
         "prime-as-apostrophe"],
)  # fmt: skip
def test_ranges_and_hyphenated_words_still_answer(claim: str, source: str) -> None:
    assert answers(claim, source)


@pytest.mark.parametrize(
    "quote",
    [
        "Reversal earned 1.2% a month.",
        "1.2% a month",
        "The angle was 40\u2032 wide.",
        "The angle was 40",
        "Tumours were ER",
        "Tumours were ER in the trial.",
    ],
    ids=["drops-spaced-sign", "starts-after-spaced-sign", "prime-for-double", "cuts-a-prime",
         "cuts-a-raised-sign", "drops-a-raised-sign"],
)  # fmt: skip
def test_a_quote_that_drops_a_sign_or_mark_is_not_verified(quote: str) -> None:
    source = (
        "Reversal earned \u2212\u2009 1.2% a month. The angle was 40\u2033 wide. "
        "Tumours were ER\u207b in the trial."
    )
    assert not verify_quote(quote, source).verified
    assert verify_quote("Reversal earned \u2212\u2009 1.2% a month.", source).verified


def test_a_brief_that_drops_a_spaced_sign_is_untraced() -> None:
    material = "Reversal earned \u2212\u2009 1.2% a month."
    assert untraced_figures("Reversal earned 1.2% a month.", material) == ["1.2%"]
    assert untraced_figures("Reversal earned -1.2% a month.", material) == []
    assert untraced_figures("Doses of 20 mg.", "Doses of 10 - 20 mg.") == []


def test_a_spaced_sign_after_a_heading_is_not_its_separator() -> None:
    source = "PARTICIPANTS \u2212\u2009102 patients with pain were seen."
    assert not answers("PARTICIPANTS 102 patients with pain were seen.", source)
    assert answers("PARTICIPANTS \u2013 102 patients with pain were seen.", source)


def test_a_plus_minus_is_no_sign_of_the_number_after_it() -> None:
    source = "Levels were 15.1 +/- 14.3 pg/mL, P = 0.03). Serum levels fell."
    assert verify_quote("14.3 pg/mL, P = 0.03).", source).verified

"""The question is read once, at the boundary, into the value every wing takes."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.api import OpenWorkspace, answer, ask, open_workspace
from engine.core.errors import ConfigError
from engine.reading.asked import MAX_QUESTION_CHARS, Acronym, Question, read_question
from tests.workspaces import sentence_workspace

WINNERS = (
    "Does buying past winners and selling past losers generate abnormal returns over 3 to 12 "
    "month holding periods?"
)

READINGS = [
    pytest.param(
        "Does aspirin reduce stroke in 2 trials?",
        ("aspirin", "reduce", "stroke", "2", "trial"),
        False,
        "aspirin reduce stroke in 2 trials",
        id="yes-no",
    ),
    pytest.param("What is known about Aspirin?", ("aspirin",), False, None, id="framing-left-out"),
    pytest.param(
        "Aspirin reduces stroke.", ("aspirin", "reduce", "stroke"), True, None, id="a-claim"
    ),
]


@pytest.mark.parametrize(("text", "words", "claim", "asks"), READINGS)
def test_a_question_is_read_into_its_words_and_forms(
    text: str, words: tuple[str, ...], claim: bool, asks: str | None
) -> None:
    question = read_question(text)
    assert (question.text, question.words) == (text, words)
    assert (question.claim_shaped, question.asks) == (claim, asks)


@pytest.mark.parametrize(
    ("text", "denies"),
    [
        ("Does aspirin not reduce stroke?", True),
        ("Doesn't aspirin reduce stroke?", True),
        ("Can\u2019t aspirin reduce stroke?", True),
        ("Is there no link between aspirin and stroke?", True),
        ("Does aspirin never reduce stroke?", True),
        ("Does aspirin reduce stroke?", False),
        ("Does aspirin reduce nosebleeds?", False),
        ("Aspirin does not reduce stroke.", False),
        ("Does aspirin reduce stroke in patients not taking statins?", False),
        ("Does aspirin reduce stroke in adults with no prior stroke?", False),
    ],
    ids=["not", "doesnt", "cant-curly", "no-link", "never", "plain", "no-inside-a-word",
         "a-claim", "a-group-not-taking", "a-group-with-no"],
)  # fmt: skip
def test_a_question_that_asks_a_denial_says_so_and_keeps_its_words(text: str, denies: bool) -> None:
    question = read_question(text)
    assert question.denies is denies
    # "doesn't" is "does not": no "doesn" and "t" for the answer to mention.
    assert not {"doesn", "t", "can"} & set(question.words)


def test_words_keep_how_they_were_typed_and_numbers_are_named() -> None:
    question = read_question("Does Aspirin cut 30-day mortality by 12%?")
    assert question.typed()["aspirin"] == "Aspirin"
    assert question.numbers == tuple(w for w in question.words if w.isdigit())
    assert question.numbers


def test_acronyms_say_whether_the_question_spells_them_out() -> None:
    question = read_question("Is diastolic blood pressure (DBP) linked to AAA?")
    assert question.acronyms == (Acronym("dbp", "dbp", True), Acronym("aaa", "aaa", False))


def test_the_one_length_limit_is_checked_where_the_question_is_read() -> None:
    read_question("x" * MAX_QUESTION_CHARS)
    with pytest.raises(ConfigError, match="characters long"):
        read_question("x" * (MAX_QUESTION_CHARS + 1))
    long = Question.of("x" * (MAX_QUESTION_CHARS + 1))  # a text derived from one asked
    assert read_question(long) is long


def test_every_step_of_the_walk_sees_the_value_read_at_the_boundary(lab: OpenWorkspace) -> None:
    asked = read_question(WINNERS)
    seen = []
    result = answer(lab, asked, observer=lambda state, action: seen.append(state.question))
    assert seen and all(q is asked for q in seen)
    as_text = answer(lab, WINNERS)
    assert result.to_dict(timings=False) == as_text.to_dict(timings=False)


def test_ask_still_takes_the_question_as_text(lab: OpenWorkspace) -> None:
    assert ask(lab, WINNERS).question == WINNERS


def test_a_joined_negation_is_asked_as_the_denial_it_is(tmp_path: Path) -> None:
    finding = "Colchicine reduced pericarditis recurrence."
    opened = open_workspace(sentence_workspace(tmp_path, [(finding,)]))
    try:
        for text in ("Can't colchicine reduce pericarditis recurrence?",
                     "Doesn\u2019t colchicine reduce pericarditis recurrence?"):  # fmt: skip
            result = ask(opened, text)
            assert result.label == "ANSWER", result.decision
            assert result.stance is not None and result.stance.denied
            # Not a yes: "can't reduce" was read as "'t colchicine reduce" and answered yes.
            assert result.stance.reading == "no"
            assert result.stance.answer_words == "stated, not denied"
    finally:
        opened.close()

"""The question as asked: read once, at the boundary, into a value every wing takes.

`read_question` checks the one length limit and reads the text's words once: its topic
words (framing left out, as ranking tokens), each as the user typed it, the acronyms it
writes in capitals, the numbers it states, whether it states a claim rather than asks, and
the claim a yes/no question asks. Coverage, the reasoners, the relation gate and the stance
take this value instead of tokenising the string again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.core.errors import ConfigError
from engine.reading.questions import as_claim
from engine.text.lexicon import (
    DEGREE_WORDS,
    QUESTION_FRAME_PHRASES,
    QUESTION_FRAME_WORDS,
    relation_word,
)
from engine.text.tokens import plain_words, ranking_tokens, surface_words

# A question longer than this is refused before any work: a question is a sentence or a
# paragraph, and every extra word costs retrieval, coverage and spelling work.
MAX_QUESTION_CHARS = 2000

# A question asks; a claim states. These openings make a sentence a question.
_ASKING = re.compile(
    r"^\s*(?:what|which|who|whom|whose|when|where|why|how|does|do|did|is|are|was|were|can|"
    r"could|should|would|will|has|have|had|tell|list|show|explain|describe|summari[sz]e)\b",
    re.IGNORECASE,
)
# A negation joined to its auxiliary ("doesn't", "can't", "won’t"): its words are the
# auxiliary and "not", not "doesn" and "t".
_CONTRACTED = re.compile(r"\b(\w+?)n['\u2019]t\b", re.IGNORECASE)
_SHORTENED = {"ca": "can", "wo": "will", "sha": "shall"}
# The words by which a question asks a denial.
_DENYING = frozenset({"not", "never", "no", "cannot"})
# An acronym as a question writes it: capitals only, three to six, an optional plural "s".
_ACRONYM = re.compile(r"(?<![\w-])([A-Z]{3,6})s?(?![\w-])")


@dataclass(frozen=True)
class Acronym:
    """A question word written in capitals and the letters its spelled-out form starts with."""

    word: str
    letters: str
    # The question spells it out just before it ("diastolic blood pressure (DBP)").
    defined: bool = False


@dataclass(frozen=True)
class Question:
    """A question as typed, with its words read once (see `read_question`)."""

    text: str
    words: tuple[str, ...]  # distinct content words, framing left out, as ranking tokens
    shown: tuple[tuple[str, str], ...]  # (content word, the word as the user typed it)
    acronyms: tuple[Acronym, ...]
    claim_shaped: bool  # it states a claim evidence can judge, rather than asks
    asks: str | None  # the claim a yes/no question asks about; None for any other

    @property
    def numbers(self) -> tuple[str, ...]:
        """The numbers the question states, as its content words write them."""
        return tuple(w for w in self.words if w.isdigit())

    @property
    def denies(self) -> bool:
        """Whether the yes/no question asks a denial ("Does aspirin not reduce stroke?",
        "Doesn't it …?", "Is there no link …?"): its yes is "it does not", its no "it does",
        which a bare yes or no leaves for a reader to guess."""
        if self.asks is None:
            return False
        words = plain_words(self.asks)
        # The denial must come before what the question relates: "… in patients not taking
        # statins" or "with no prior stroke" names a group, it does not deny the question.
        first = next((at for at, word in enumerate(words) if relation_word(word)), len(words))
        return not _DENYING.isdisjoint(words[:first])

    @property
    def blank(self) -> bool:
        return not self.text.strip()

    @classmethod
    def of(cls, text: str) -> Question:
        """`text` read as a question, whatever its length: for texts derived from one already
        asked (the question as the sources spell it) and for readers of stored texts."""
        unframed_text = unframed(text)
        words = _content_words(unframed_text)
        typed = surface_words(unframed_text)
        return cls(
            text=text,
            words=tuple(words),
            shown=tuple((w, typed.get(w, w)) for w in words),
            acronyms=tuple(acronyms_of(text)),
            claim_shaped=claim_shaped(text),
            asks=as_claim(text),
        )

    def typed(self) -> dict[str, str]:
        """Each content word -> the word as the user typed it."""
        return dict(self.shown)


def question_problem(question: str) -> str | None:
    """Why `question` cannot be asked (it is over MAX_QUESTION_CHARS), or None."""
    if len(question) > MAX_QUESTION_CHARS:
        return (
            f"the question is {len(question):,} characters long; ask in at most "
            f"{MAX_QUESTION_CHARS:,}"
        )
    return None


def read_question(question: str | Question) -> Question:
    """`question` read once into its value; a value given is returned as it is.

    Raises ConfigError for a question `question_problem` refuses.
    """
    if isinstance(question, Question):
        return question
    if (problem := question_problem(question)) is not None:
        raise ConfigError(problem)
    return Question.of(question)


def claim_shaped(question: str) -> bool:
    """Whether the text states a claim (rather than asks a question) that evidence can judge."""
    text = question.strip()
    return bool(text) and not text.endswith("?") and _ASKING.match(text) is None


def unframed(question: str) -> str:
    """The question with its framing ("is it true that", "what is known about") blanked and
    a joined negation written out ("doesn't" as "does not")."""
    spelled = _CONTRACTED.sub(_spelled_out, question)
    return QUESTION_FRAME_PHRASES.sub(" ", spelled)


def _spelled_out(found: re.Match[str]) -> str:
    word = found.group(1)
    return f"{_SHORTENED.get(word.lower(), word)} not"


def question_words(question: str) -> list[str]:
    """The question's distinct content words, framing ("what does … say about") left out."""
    return _content_words(unframed(question))


def typed_words(question: str) -> dict[str, str]:
    """Each content word of the question -> the word as the user typed it."""
    return surface_words(unframed(question))


def acronyms_of(question: str, *, defined: bool = False) -> list[Acronym]:
    """The acronyms the question writes in capitals ("SCD", "CRCTs"), as ranking words.

    Each says whether the question spells it out just before it ("diastolic blood
    pressure (DBP)"); with `defined`, only those are given.
    """
    out: dict[str, Acronym] = {}
    for match in _ACRONYM.finditer(question):
        word = ranking_tokens(match.group(0))
        letters = match.group(1).lower()
        spelled = _spelled_before(question[: match.start()], letters)
        if word and (word[0] not in out or (spelled and not out[word[0]].defined)):
            out[word[0]] = Acronym(word[0], letters, spelled)
    return [a for a in out.values() if a.defined or not defined]


def initials(text: str) -> str:
    """First letters of the text's words, hyphenated parts counted apart ("sickle-cell")."""
    return "".join(w[0] for w in plain_words(text) if w[:1].isalpha())


def _spelled_before(text: str, letters: str) -> bool:
    return initials(text).endswith(letters)


def _content_words(unframed_text: str) -> list[str]:
    return [
        w
        for w in dict.fromkeys(ranking_tokens(unframed_text))
        if w not in QUESTION_FRAME_WORDS and w not in DEGREE_WORDS
    ]

"""Question coverage: which of the question's content words an answer's closure mentions.

Every content word of a question (framing aside) is a topic word, weighted by how rare it
is in the workspace index. A rare (salient) word that nothing in the conclusion's closure
mentions is a blocking gap: the answer, however well grounded, is not about what was asked.
A common word nothing mentions keeps the answer from green: it may stand hedged, naming
the word. Rarity weighs a word in ranking; it never excuses it from coverage. The report
goes to the router through the payload's `coverage_report`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from engine.core.stance import Overstated
from engine.navigation.spelling import correction, joins, spells_out, split_compound
from engine.reading.asked import (
    Acronym,
    Question,
    claim_shaped,
    question_words,
    read_question,
    typed_words,
    unframed,
)
from engine.reading.rarity import Rarity
from engine.text.lexicon import direction, link_strength, relation_word
from engine.text.said_of import Said, said_of
from engine.text.stems import mention_stem, mentions
from engine.text.tokens import ranking_tokens

# The question's own words are read where it is asked (`engine.reading.asked`); these stay
# importable from here, where coverage's callers found them.
__all__ = [
    "AcronymRule",
    "CoverageReport",
    "MentionRules",
    "QuestionTerms",
    "Term",
    "claim_shaped",
    "question_words",
    "typed_words",
    "unframed",
]

# A question word is salient when its rarity, ln((N + 1) / (df + 1)), reaches this share of
# the rarest possible, ln(N + 1): on the 6,000-note SciFact demo, at most four notes
# mention it. Chosen on SciFact train folds (see the README).
SALIENT_SHARE = 0.8
# The question's rarest word is salient as well once its rarity reaches TOPIC_FLOOR of the
# rarest possible, so the topic of a question about common-enough things ("tuberculosis")
# still has to be met. TOPIC_SHARE widens that to words nearly as rare as the rarest.
TOPIC_SHARE = 1.0
TOPIC_FLOOR = 0.46

# A question word at least this share of the rarest possible (on the SciFact demo: in at most
# about 70 of 6,000 notes) sets the question apart: the quoted sentence or its paper's title
# must say it, not only the paper somewhere ("HPV vaccination" answered by a sentence on
# HPV testing in a paper that mentions vaccines once is not green).
DISTINCT_SHARE = 0.5

Known = Callable[[str], bool]


class AcronymRule(StrEnum):
    """Which of the question's capitalised acronyms text may mention by spelling them out."""

    OFF = "off"
    DEFINED = "defined"  # only those the question itself spells out ("blood pressure (BP)")
    ANY = "any"


@dataclass(frozen=True)
class MentionRules:
    """Besides the same stem, what else counts as mentioning a question word.

    The spelling rules apply only to a word no canon note contains, which no note could
    ever mention as written. `correct_unseen`: such a word of at least `min_correct_len`
    letters stands for the one corpus word a single typo away, when that correction is
    unique and cannot change the meaning. `compounds`: such a run-together word
    ("panicprone") is mentioned by its two corpus words in a row ("panic-prone").
    `acronyms`: an acronym is mentioned by text whose consecutive words' initials spell it.
    """

    correct_unseen: bool = True
    min_correct_len: int = 6
    compounds: bool = True
    acronyms: AcronymRule = AcronymRule.DEFINED


@dataclass(frozen=True)
class Term:
    """One content word of the question, its rarity weight and whether the answer mentions it.

    `word` is the token mentions are measured by; `shown` is the word as the user typed it,
    the only form words for people use.
    """

    word: str
    weight: float
    salient: bool
    covered: bool
    shown: str = ""
    # A word that sets the question apart (rare enough) must be in the quoted sentences or
    # their papers' titles, not only somewhere in the paper: `quoted` says whether it is.
    distinct: bool = False
    quoted: bool = True
    # A relation word of the question the quoted text meets only with a relation of its own
    # ("promote" asked, "downregulated" said): it is met only if the stance's cue reads that
    # word as a yes or a no; `unread` marks one no cue read.
    related: bool = False
    unread: bool = False

    @property
    def unmet(self) -> bool:
        """Whether the word keeps an answer from green: never used, not where quoted, or a
        relation the quoted text states differently and the stance cannot read."""
        return not self.covered or (self.distinct and not self.quoted) or self.unread

    @property
    def typed(self) -> str:
        return self.shown or self.word

    def to_dict(self) -> dict[str, Any]:
        return {
            "word": self.word,
            "shown": self.typed,
            "weight": round(self.weight, 4),
            "salient": self.salient,
            "covered": self.covered,
            "distinct": self.distinct,
            "quoted": self.quoted,
            "related": self.related,
            "unread": self.unread,
        }


@dataclass(frozen=True)
class CoverageReport:
    """How well a body of text covers a question; uncovered salient terms block an answer."""

    terms: tuple[Term, ...]
    # (the word as typed, the word as the sources spell it) for each typo corrected.
    respelled: tuple[tuple[str, str], ...] = ()
    # How the quoted text withholds the yes the question asks (set once its stance is read):
    # the answer then stands at most hedged.
    withheld: Overstated | None = None
    # The reading withheld was a no rather than a yes.
    withheld_no: bool = False

    def respell(self, text: str) -> str:
        """`text` with each corrected typo written as the sources spell it."""
        for typed, fixed in self.respelled:
            text = re.sub(rf"\b{re.escape(typed)}\b", fixed, text)
        return text

    @property
    def uncovered(self) -> tuple[str, ...]:
        """Salient question terms the text never mentions, rarest first, as the user typed them."""
        return tuple(t.typed for t in self._gaps())

    @property
    def uncovered_terms(self) -> tuple[str, ...]:
        """The same gaps as the tokens mentions are measured by."""
        return tuple(t.word for t in self._gaps())

    @property
    def unmentioned(self) -> tuple[str, ...]:
        """Question words that keep an answer from green without blocking it, rarest first.

        A common word the cited text never uses, or a distinct word its paper uses but
        neither the quoted sentences nor the titles do ("vaccination" asked, a sentence
        about HPV testing quoted). Rarity weighs a word in ranking, never excuses it from
        coverage: such an answer is not green, though it may stand hedged. Named as the
        user typed them.
        """
        return tuple(t.typed for t in self._gaps(salient=False))

    def named(self, *, paraphrase: bool = False) -> tuple[str, ...]:
        """The question words an answer names rather than stops on: the `unmentioned`, and
        for a paraphrase the reader vouches for, the salient gaps first."""
        return (*self.uncovered, *self.unmentioned) if paraphrase else self.unmentioned

    def _gaps(self, *, salient: bool = True) -> list[Term]:
        if salient:
            gaps = [t for t in self.terms if t.salient and not t.covered]
        else:
            gaps = [t for t in self.terms if t.unmet and (t.covered or not t.salient)]
        return sorted(gaps, key=lambda t: (-t.weight, t.word))

    @property
    def related(self) -> tuple[str, ...]:
        """Relation words of the question the quoted text meets only with relations of its own."""
        return tuple(t.typed for t in self.terms if t.related)

    def unread(self, read: Iterable[str] = ()) -> CoverageReport:
        """The same report with each `related` word unmet but those `read` (as typed)."""
        kept = set(read)
        terms = tuple(
            replace(t, unread=True) if t.related and t.typed not in kept else t for t in self.terms
        )
        return replace(self, terms=terms)

    @property
    def covered_share(self) -> float:
        """The rarity-weighted share of the question's content words the text mentions."""
        total = sum(t.weight for t in self.terms)
        return sum(t.weight for t in self.terms if t.covered) / total if total else 0.0

    @property
    def blocking_count(self) -> int:
        return len(self.uncovered)

    def to_dict(self) -> dict[str, Any]:
        return {
            "blocking_count": self.blocking_count,
            "uncovered": list(self.uncovered),
            "unmentioned": list(self.unmentioned),
            "covered_share": round(self.covered_share, 4),
            "withheld": None if self.withheld is None else self.withheld.value,
            "withheld_no": self.withheld_no,
            "terms": [t.to_dict() for t in self.terms],
        }


class QuestionTerms:
    """The question's content words with their rarity; measures any text against them."""

    def __init__(
        self,
        question: str | Question,
        rarity: Rarity,
        *,
        notes: int,
        salient_share: float | None = None,
        topic_share: float | None = None,
        known: Known | None = None,
        rules: MentionRules | None = None,
    ):
        asked = read_question(question)
        words = list(asked.words)
        weights = rarity(words) if words else {}
        self.words = tuple(words)
        typed = asked.typed()
        # Question word -> the word as the user typed it, for every word people read.
        self.shown = {w: typed.get(w, w) for w in words}
        self.weights = {w: float(weights.get(w, 0.0)) for w in words}
        share = SALIENT_SHARE if salient_share is None else salient_share
        topic = TOPIC_SHARE if topic_share is None else topic_share
        scale = math.log(notes + 1) if notes > 0 else math.inf
        rarest = max(self.weights.values(), default=0.0)
        self.salient_rarity = min(share * scale, max(TOPIC_FLOOR * scale, topic * rarest))
        self.distinct_rarity = DISTINCT_SHARE * scale
        self._stems = {w: mention_stem(w) for w in words}
        # What each word states as a relation, read once: its link strength and direction.
        self._links = {w: link_strength(w) for w in words}
        self._directions = {w: direction(w) for w in words}
        self._patients = self._patients_of(asked)
        self.rules = rules or MentionRules()
        # Question word -> the corpus word it is a typo of; only with `known` (an index).
        self.corrections: dict[str, str] = {}
        if known is not None and self.rules.correct_unseen:
            # A word whose stem is a corpus word ("tumoural", stem "tumour") is mentioned
            # already; correcting it ("tumoral") would only let more notes mention it.
            for word in (w for w in words if not known(self._stems[w])):
                fixed = correction(word, known, min_length=self.rules.min_correct_len)
                if fixed is not None:
                    self.corrections[word] = fixed
        self._fixed = {w: mention_stem(c) for w, c in self.corrections.items()}
        # A corrected word is named as the sources spell it ("asprin" is shown as "aspirin").
        self.respelled = tuple((self.shown[w], fixed) for w, fixed in self.corrections.items())
        self.shown |= self.corrections
        # Question word -> the two corpus words it runs together, for words with no correction.
        self.compounds: dict[str, tuple[str, str]] = {}
        if known is not None and self.rules.compounds:
            for word in words:
                parts = None if word in self.corrections else split_compound(word, known)
                if parts is not None:
                    self.compounds[word] = parts
        self.acronyms: dict[str, Acronym] = {
            a.word: a
            for a in asked.acronyms
            if (a.defined or self.rules.acronyms is AcronymRule.ANY)
            and a.word in self.weights
            and self.rules.acronyms is not AcronymRule.OFF
        }

    def _patients_of(self, asked: Question) -> dict[str, str]:
        """Direction word of the question -> the stem of the topic word it must be said of.

        Where the question says which way something moves ("Does X reduce fractures?"), a
        source's direction meets it only when said of what the question moves: the rarest
        topic word the question's own direction is said of, or, when the question's says of
        none, its rarest topic word. A question with no topic word beside its relation
        words gets none.
        """
        topics = [w for w in self.words if not relation_word(w)]
        if not topics:
            return {}
        order = {w: i for i, w in enumerate(self.words)}

        def rarest(candidates: list[str]) -> str:
            return self._stems[max(candidates, key=lambda w: (self.weights[w], -order[w]))]

        patients: dict[str, str] = {}
        for said in said_of(asked.text):
            word = next((w for w in self.words if self._said_is(w, said)), None)
            if word is None or self._directions[word] is None or word in patients:
                continue
            patients[word] = rarest(
                [t for t in topics if mentions(self._stems[t], said.of_stems)] or topics
            )
        return patients

    def _said_is(self, word: str, said: Said) -> bool:
        """Whether a direction word a text says is the question's `word` itself."""
        return mentions(self._stems[word], {said.stem})

    @property
    def salient(self) -> tuple[str, ...]:
        return tuple(w for w in self.words if self.weights[w] >= self.salient_rarity)

    @property
    def distinct(self) -> tuple[str, ...]:
        """The words that set the question apart: a quoted sentence or its title must say them."""
        return tuple(
            w
            for w in self.words
            if self.weights[w] >= self.distinct_rarity and not relation_word(w)
        )

    def typed(self, words: Iterable[str]) -> tuple[str, ...]:
        """Question words as the user typed them (a word not in the question stays as is)."""
        return tuple(self.shown.get(w, w) for w in words)

    def mentioned(self, text: str) -> frozenset[str]:
        """The question words `text` mentions (by `mentions`, or by the spelling rules)."""
        return self._mentions(text)[0]

    def _mentions(self, text: str) -> tuple[frozenset[str], frozenset[str]]:
        """(`mentioned`, the same but a relation word counted only as itself), one reading.

        A relation word of the question ("increases", "is associated with") is mentioned by
        any relation the text states: which one is the stance's to read. As itself it is
        mentioned by its own stem, a link at least as strong ("linked", "caused" for
        "associated"), or the same direction in other words ("elevated" for "increased").
        """
        toks = ranking_tokens(text)
        strongest = max((s for w in toks if (s := link_strength(w)) is not None), default=-1)
        directions = {
            d
            for w, after in zip(toks, [*toks[1:], ""][: len(toks)], strict=True)
            if (d := direction(w, after))
        }
        said = {mention_stem(w) for w in toks}
        relates = any(relation_word(w) for w in toks)
        moved = said_of(text) if self._patients else ()
        anyhow, itself = set(), set()
        for word in self.words:
            fixed = self._fixed.get(word)
            acronym = self.acronyms.get(word)
            parts = self.compounds.get(word)
            patient = self._patients.get(word)
            if patient is not None:
                # A direction the question asks of one thing is met only where the text says
                # it of that thing, in the question's words or its own.
                stated = any(
                    (self._said_is(word, m) or (m.axis, m.sign) == self._directions[word])
                    and mentions(patient, m.of_stems)
                    for m in moved
                )
            else:
                stated = self._directions[word] in directions or mentions(self._stems[word], said)
            if (
                _linked(self._links[word], strongest)
                or stated
                or (fixed is not None and mentions(fixed, said))
                or (acronym is not None and spells_out(acronym, text))
                or (parts is not None and joins(parts, toks))
            ):
                itself.add(word)
                anyhow.add(word)
            elif relates and relation_word(word):
                anyhow.add(word)
        return frozenset(anyhow), frozenset(itself)

    def measure(self, texts: Iterable[str], quoted: Iterable[str] | None = None) -> CoverageReport:
        """Which question terms `texts` mention (see `mentioned`); one text is one source.

        `quoted` are the sentences an answer quotes and their papers' titles: a distinct
        word must be among them. None measures `texts` alone (every distinct word quoted).
        """
        whole = [self._mentions(text) for text in texts]
        read = whole if quoted is None else [self._mentions(text) for text in quoted]
        mentioned = set().union(*(anyhow for anyhow, _ in whole))
        said = set().union(*(anyhow for anyhow, _ in read))
        itself = set().union(*(own for _, own in read))
        distinct = set(self.distinct)
        terms = []
        for word in self.words:
            weight = self.weights[word]
            salient = weight >= self.salient_rarity
            terms.append(
                Term(
                    word,
                    weight,
                    salient,
                    word in mentioned,
                    self.shown[word],
                    distinct=word in distinct,
                    quoted=word in said,
                    related=word in said and word not in itself,
                )
            )
        return CoverageReport(tuple(terms), self.respelled)


def _linked(strength: int | None, strongest: int) -> bool:
    """Whether a question's link of `strength` is said by a text whose strongest is `strongest`."""
    return strength is not None and strength <= strongest

"""Extractive licensing: whether a source says a claim, as a whole sentence or independent clause.

A claim is licensed by a source text when every sentence of the claim has the word sequence
(see `engine.text.tokens`: case, punctuation and spacing aside, every meaning-bearing token
kept) of a *licensing unit* of the source: a whole sentence, or a whole independent clause
of one (a question licenses only the same question, and never splits). A contiguous run of
words is not enough: "vitamin D prevents tuberculosis" sits inside "We found no evidence
that vitamin D prevents tuberculosis." and is not licensed by it, and "Smoking causes
cancer in mice" drops the condition of "Smoking causes cancer in mice only when combined
with asbestos exposure."

Independent clauses are found by construction, not by guessing meaning. A sentence splits
only at a top-level `;`, at a comma before `and`, `but`, `whereas` or `yet`, or at a bare
`whereas`, and only when every piece is a clause that stands alone (`although`, `though`
and `while` open subordinate clauses that may concede or time-bound the main one, so they
never split):

- each piece has at least three tokens and no top-level comma of its own (so a list
  `A, B, and C` or an introductory phrase `In mice, …` that may scope over every piece
  never splits);
- no piece opens with a restricting or subordinating word (`RESTRICTING_ONSETS`: `only`, `not`,
  `except`, `unless`, `if`, `when`, a preposition …), so `…, but only in mice` and `…, and
  not in rats` keep the sentence whole;
- no piece but the last holds a word that can take scope over what follows (`SCOPE_WORDS`:
  complementisers and subordinators such as `that`, `whether`, `if`, `because`), so
  `These data suggest that A; B` and `If A, B and C` keep the sentence whole;
- no later piece takes an earlier one back: one that points back at it (a determiner of
  `FINDING_DETERMINERS` before a noun of `FINDING_NOUNS`, a bare `this`, `these` or
  `such` opening or closing it or before an auxiliary, or `it`) and withdraws it (a
  negation, a null word or a `WITHDRAWING_STEMS` word), or says the comparison did the
  same (`so did`, `did so`); so `Coffee was associated with lower mortality, but the
  association disappeared after adjustment`, `…; this effect was not significant` and
  `Aspirin reduced mortality, but so did placebo` keep the sentence whole, while `…,
  whereas drug B promotes them` still splits.

Both lists are closed and documented here; a word outside them never widens licensing,
it can only fail to split a sentence, which costs an abstention, never a false answer.
What stays out of reach by design: a trailing modifier that a reader would attach to both
clauses (`A rose and B fell, in mice` splits nowhere, but `A rose; B fell in mice` licenses
`A rose`).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from itertools import pairwise

from engine.core.typos import same_marks, typo_in
from engine.text.clause_words import (
    BACK_POINTERS,
    BACK_PRONOUNS,
    FINDING_DETERMINERS,
    FINDING_NOUNS,
    LIKEWISE_AUXILIARIES,
    MODALS_AFTER_POINTER,
    RESTRICTING_ONSETS,
    SCOPE_WORDS,
    WITHDRAWING_STEMS,
)
from engine.text.lexicon import FAIL_WORDS, NEGATIONS, NULL_WORDS, PREDICATE_NEGATIONS
from engine.text.memo import PairMemo
from engine.text.sentences import sentence_texts, whole_sentences_at
from engine.text.tokens import reads_as_lowered, word_sequence

Words = tuple[str, ...]
# Marks a question's word sequence; no token is ever this string.
_ASKED = "\x00?"

_SPLIT = re.compile(r";\s*|,\s*(?:and|but|whereas|yet)\s+|\s+whereas\s+", re.IGNORECASE)
_MIN_CLAUSE = 3


def independent_clauses(sentence: str) -> tuple[str, ...]:
    """The independent clauses of one sentence when it splits soundly, else `()`.

    See the module docstring for when a sentence splits; a question never does.
    """
    if _is_question(sentence):
        return ()
    pieces = _top_level_pieces(sentence)
    if len(pieces) < 2:
        return ()
    for i, piece in enumerate(pieces):
        words = word_sequence(piece)
        if (
            len(words) < _MIN_CLAUSE
            or words[0] in RESTRICTING_ONSETS
            or _has_top_level_comma(piece)
        ):
            return ()
        if i < len(pieces) - 1 and SCOPE_WORDS.intersection(words):
            return ()
        if i > 0 and takes_back(words):
            return ()
    return tuple(pieces)


def taken_back(sentence: str) -> str | None:
    """The later clause of `sentence` that takes an earlier one back, else None.

    Read on the same top-level pieces as `independent_clauses`, whether or not the sentence
    splits, each a clause of its own (three words or more, not opening with a restricting
    word): "Coffee was linked to lower mortality, but the association disappeared after
    adjustment" gives "the association disappeared after adjustment".
    """
    for piece in _top_level_pieces(sentence)[1:]:
        words = word_sequence(piece)
        clause = len(words) >= _MIN_CLAUSE and words[0] not in RESTRICTING_ONSETS
        if clause and takes_back(words):
            return piece
    return None


_WITHDRAWING = NEGATIONS | PREDICATE_NEGATIONS | FAIL_WORDS
_WITHDRAWING_STARTS = (*WITHDRAWING_STEMS, *NULL_WORDS)
_AFTER_POINTER = LIKEWISE_AUXILIARIES | MODALS_AFTER_POINTER | _WITHDRAWING


def takes_back(words: Words) -> bool:
    """Whether a later piece points back at an earlier one and withdraws what it found.

    "So did placebo" withdraws by itself: the comparison did as well.
    """
    if any("so" in pair and LIKEWISE_AUXILIARIES.intersection(pair) for pair in pairwise(words)):
        return True
    return _points_back(words) and withdraws(words)


def withdraws(words: Words) -> bool:
    """Whether a piece holds a word that withdraws: a negation, a null or failure word, or
    one of `WITHDRAWING_STEMS` ("disappeared", "was explained by")."""
    return any(word in _WITHDRAWING or word.startswith(_WITHDRAWING_STARTS) for word in words)


def _points_back(words: Words) -> bool:
    last = len(words) - 1
    for i, word in enumerate(words):
        after = words[i + 1] if i < last else None
        # "the difference", or with one word between: "the confidence interval".
        noun = after in FINDING_NOUNS or (i + 2 <= last and words[i + 2] in FINDING_NOUNS)
        if word in BACK_PRONOUNS or (word in FINDING_DETERMINERS and noun):
            return True
        if word in BACK_POINTERS and (i in (0, last) or after in _AFTER_POINTER):
            return True
    return False


def _top_level_pieces(sentence: str) -> list[str]:
    cuts = [m.span() for m in _SPLIT.finditer(sentence)]
    if not cuts:
        return [sentence.strip()]
    cuts = [(a, b) for a, b in cuts if _depth(sentence, a) <= 0]
    pieces, last = [], 0
    for start, end in cuts:
        pieces.append(sentence[last:start].strip())
        last = end
    pieces.append(sentence[last:].strip())
    return [piece for piece in pieces if piece]


def _depth(text: str, at: int) -> int:
    """How many brackets are open at `at` (openers minus closers before it)."""
    opened = text.count("(", 0, at) + text.count("[", 0, at) + text.count("{", 0, at)
    closed = text.count(")", 0, at) + text.count("]", 0, at) + text.count("}", 0, at)
    return opened - closed


def _has_top_level_comma(piece: str) -> bool:
    depth = 0
    for char in piece:
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth = max(0, depth - 1)
        elif char == "," and depth == 0:
            return True
    return False


def _is_question(sentence: str) -> bool:
    return sentence.rstrip().rstrip("\"')]").endswith("?")


@dataclass(frozen=True)
class _Source:
    """A source's sentences: their texts and whole-sentence forms, for licensing lookups."""

    texts: tuple[str, ...]
    wholes: frozenset[Words]
    joined: tuple[str, ...]


@lru_cache(maxsize=64)
def _source(source: str) -> _Source:
    texts = sentence_texts(source)
    grouped = [word_sequence(text) for text in texts]
    wholes = []
    for text, words in zip(texts, grouped, strict=True):
        if words:
            wholes.append((*words, _ASKED) if _is_question(text) else tuple(words))
    return _Source(texts, frozenset(wholes), tuple(map(_joined, grouped)))


def _unit_of(part: Words, source: str) -> bool:
    """Whether `part` is a whole sentence, or an independent clause of one, of `source`."""
    found = _source(source)
    if part in found.wholes:
        return True
    if part[-1] == _ASKED:
        return False  # a question is licensed only whole
    needle = _joined(part)
    for text, joined in zip(found.texts, found.joined, strict=True):
        if needle in joined and part in map(word_sequence, independent_clauses(text)):
            return True
    return False


def _joined(words: Words) -> str:
    # Token norms never contain the separator, so a substring hit is a token-aligned run.
    return "\x1f" + "\x1f".join(words) + "\x1f"


@lru_cache(maxsize=4096)
def claim_sentences(claim: str) -> tuple[Words, ...]:
    """The word sequences of the claim's sentences, a question's marked as asked."""
    out = []
    for sentence in sentence_texts(claim):
        words = word_sequence(sentence)
        if words:
            out.append((*words, _ASKED) if _is_question(sentence) else words)
    return tuple(out)


def extractively_licensed(claim: str, source: str) -> bool:
    """Whether every sentence of `claim` is a whole sentence or independent clause of `source`.

    An empty claim is never licensed; a question only by the same question, never by a
    statement, and a statement never by a question.
    """
    return _LICENSED(claim, source)


def _licensed(claim: str, source: str) -> bool:
    if _verbatim_sentences(claim, source):
        return True
    parts = claim_sentences(claim)
    return bool(parts) and all(_unit_of(part, source) for part in parts)


# A claim is licensed against its source on every route that restates it: kept by content.
_LICENSED = PairMemo(_licensed, entries=4096, chars=2_000_000, per_text=64)


def _verbatim_sentences(text: str, source: str) -> bool:
    """The fast path: `text`, as written, is a run of whole sentences of `source`."""
    text = text.strip()
    at = source.find(text) if text else -1
    while at >= 0:
        if whole_sentences_at(source, at, at + len(text)):
            return True
        at = source.find(text, at + 1)
    return False


def licensable_part(quote: str, source: str) -> str | None:
    """The sentences (or independent clauses) of a found quote that are units of `source`.

    A quote proven present in a source licenses a claim only through what of it is a whole
    sentence or independent clause there: a quoted span cut from inside "no evidence that …"
    licenses nothing. Returns the kept parts joined by spaces, or None.
    """
    if _verbatim_sentences(quote, source):
        return quote.strip()
    kept = []
    for sentence in sentence_texts(quote):
        words = word_sequence(sentence)
        if not words:
            continue
        if _is_question(sentence):
            # A question licenses only the same question, asked whole in the source.
            if _unit_of((*words, _ASKED), source):
                kept.append(sentence)
            continue
        if _unit_of(words, source):
            kept.append(sentence)
        else:
            kept.extend(
                c for c in independent_clauses(sentence) if _unit_of(word_sequence(c), source)
            )
    return " ".join(kept) or None


class Fit(StrEnum):
    """How a quote found in its source sits among the source's sentences: what it may license."""

    WHOLE = "whole"  # whole sentences or independent clauses of the source: all of it licenses
    PART = "part"  # some of its sentences are whole there, the rest are not
    INSIDE = "inside"  # a span inside one longer sentence of the source: it licenses nothing
    ACROSS = "across"  # runs over a sentence boundary without being whole sentences


def quote_fit(quote: str, source: str, licensed: str | None) -> tuple[Fit, str | None]:
    """How `quote`, found in `source`, fits its sentences, and the sentence it sits inside.

    `licensed` is what `licensable_part` kept of it. The sentence is given only for
    `Fit.INSIDE`: the one sentence of `source` whose words hold the quote's words.
    """
    if licensed is not None:
        return (Fit.WHOLE if _same_words(licensed, quote) else Fit.PART), None
    words = word_sequence(quote)
    needle = _joined(words) if words else None
    found = _source(source)
    for text, joined in zip(found.texts, found.joined, strict=True):
        if needle is not None and needle in joined:
            return Fit.INSIDE, text.strip()
    return Fit.ACROSS, None


def _same_words(licensed: str, quote: str) -> bool:
    """Whether what a quote licenses has the quote's word sequence, without tokenising when
    it shows: the quote as compared is the licensed text folded and lower-cased."""
    return (
        licensed == quote
        or reads_as_lowered(licensed, quote)
        or word_sequence(licensed) == word_sequence(quote)
    )


@lru_cache(maxsize=4096)
def restatement_forms(claim: str) -> tuple[Words, ...]:
    """What a prose sentence may equal to restate `claim`: all of it, a sentence, a clause.

    Word sequences compare as in licensing, except that a question mark is punctuation
    here: the prose restates the claim's words and the claim's licence settles the rest.

    Atomisation follows the licensing rule: a clause counts only when its sentence splits
    soundly, so an atom never loses the restriction or condition it was stated under.
    """
    forms = [word_sequence(claim)]
    for sentence in sentence_texts(claim):
        forms.append(word_sequence(sentence))
        forms.extend(word_sequence(clause) for clause in independent_clauses(sentence))
    return tuple(dict.fromkeys(form for form in forms if form))


def clause_atoms(claim: str) -> tuple[str, ...]:
    """The atomic facts of a claim as text: each sentence, or its independent clauses."""
    atoms: list[str] = []
    for sentence in sentence_texts(claim):
        atoms.extend(independent_clauses(sentence) or (sentence,))
    return tuple(atoms)


def novel_tokens(text: str, support: Iterable[str]) -> tuple[str, ...]:
    """The tokens of `text` (words, numbers, symbols) found in none of `support`, in order."""
    have: set[str] = set()
    for piece in support:
        have.update(word_sequence(piece))
    return tuple(dict.fromkeys(token for token in word_sequence(text) if token not in have))


def why_unlicensed(claim: str, sources: Iterable[str]) -> str:
    """Name, in a few words, what the claim changed from the closest sentence of `sources`."""
    texts = [source for source in sources if source.strip()]
    if not texts:
        return "nothing cited holds text to restate"
    sentences_of = [s for source in texts for s in sentence_texts(source)]
    parts = list(claim_sentences(claim))
    if not parts:
        return "the claim has no words to license"
    part = next((p for p in parts if not any(_unit_of(p, t) for t in texts)), parts[0])
    if part[-1] == _ASKED:
        return "asks a question the source does not ask"
    best, best_score = None, -1.0
    for sentence in sentences_of:
        words = word_sequence(sentence)
        score = difflib.SequenceMatcher(None, part, words, autojunk=False).ratio()
        if score > best_score:
            best, best_score = sentence, score
    if best is None:
        return "no sentence of the source comes close"
    return _difference(part, best)


def _difference(part: Words, sentence: str) -> str:
    words = word_sequence(sentence)
    if part == words and _is_question(sentence):
        return "the source asks it as a question"
    at = find_run(part, words)
    if at >= 0:
        before, after = words[:at], words[at + len(part) :]
        if before:
            return f'is a span inside "{_show(before)} …", not a whole sentence or clause'
        if after:
            return f'drops "{_show(after)}" (a restriction or condition of the source)'
    matcher = difflib.SequenceMatcher(None, part, words, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "replace":
            return f'has "{_show(part[i1:i2])}" where the source has "{_show(words[j1:j2])}"'
        if op == "delete":
            return f'adds "{_show(part[i1:i2])}" to the source'
        if op == "insert":
            return f'leaves out "{_show(words[j1:j2])}" of the source'
    return "is not a whole sentence or independent clause of the source"


def find_run(part: Words, words: Words) -> int:
    """Where the word sequence `part` first runs unbroken in `words`, or -1."""
    n = len(part)
    for i in range(len(words) - n + 1):
        if words[i : i + n] == part:
            return i
    return -1


def _show(words: Words, limit: int = 8) -> str:
    shown = " ".join(words[:limit])
    return shown + " …" if len(words) > limit else shown


def respelt(claim: str, source: str) -> str | None:
    """`claim` in `source`'s own spelling, when it restates `source` up to in-word typos.

    The quote check's tolerance, for a claim restating a quote it found fuzzily: each
    sentence of the claim is a sentence or independent clause of `source` word for word,
    but for typos inside words (never a number, sign, negation, opposite or another word,
    so never a word `source` uses, a common word or a short one: `typo_in`), and the respelt
    claim is extractively licensed by `source`. None otherwise.
    """
    known = frozenset(word_sequence(source))
    units = [
        (word_sequence(unit), unit)
        for sentence in sentence_texts(source)
        for unit in (sentence, *independent_clauses(sentence))
    ]
    out = []
    for sentence in sentence_texts(claim):
        words = word_sequence(sentence)
        hit = next(
            (
                unit
                for seen, unit in units
                if len(seen) == len(words)
                and all(typo_in(w, x, known) for w, x in zip(words, seen, strict=True))
                and same_marks(sentence, unit)
            ),
            None,
        )
        if hit is None:
            return None
        out.append(hit)
    joined = " ".join(out)
    return joined if out and extractively_licensed(joined, source) else None

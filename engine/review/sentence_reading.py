"""Read a sentence for alignment: content words, direction words, negation scope, numbers.

A `Passage` is one sentence (or claim) read once and cached by its text: its content-word
stems, its direction words ("increases", "inhibits", "improves") with the content words
they sit on, the words under a predicate negation, the phrases that report a null result,
whether it hedges or only states an aim, and its numbers with what they measure.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from engine.reading.aims import open_question, reports_finding
from engine.reading.quantities import Quantity, quantities
from engine.text import tokens as _text
from engine.text.lexicon import (
    CLAUSE_BREAKS,
    COUNTING_WORDS,
    CUES,
    EFFECT_WORDS,
    FAIL_WORDS,
    HEDGES,
    NULL_AFTER_NEGATION,
    NULL_WORDS,
    PREDICATE_NEGATIONS,
    STOP_WORDS,
    cue_of,
)
from engine.text.sentences import sentences_of as sentences_of
from engine.text.stems import alignment_stem

_SCOPE = 5  # tokens after a negation that it governs
_WITHOUT_REACH = 3  # "without a significant increase": how far "without" looks for a change
_WINDOW = 5  # tokens either side of a direction word that anchor it


_STOP = STOP_WORDS - {"no", "not", "nor", "more", "few", "up", "down", "against", "than"}


@dataclass(frozen=True, slots=True)
class Cue:
    """A direction word: its axis, sign, whether a negation governs it, and its anchors."""

    position: int
    axis: str
    sign: int
    negated: bool
    word: str
    anchors: dict[str, float]  # content stems in its clause -> closeness (1 / distance)


@dataclass(frozen=True, slots=True)
class Passage:
    """One sentence (or claim) read for alignment."""

    text: str
    norms: tuple[str, ...]
    content: frozenset[str]
    # Every token's content stem in order, "" where a token is no content word, so two
    # content words stand side by side here only when they do in the text.
    sequence: tuple[str, ...]
    negated: frozenset[str]
    negations: tuple[str, ...]
    cues: tuple[Cue, ...]
    nulls: frozenset[str]
    hedges: tuple[str, ...]
    affirms: bool  # states an effect or a link that no negation or null result governs
    open_question: bool
    finding: bool
    quantities: tuple[Quantity, ...]


def _cue_of(norms: tuple[str, ...], i: int) -> tuple[str, int] | None:
    return cue_of(norms[i], norms[i + 1] if i + 1 < len(norms) else "")


def _negates(norms: tuple[str, ...], i: int) -> bool:
    word = norms[i]
    if word == "without":
        # "without an increase in bleeding" denies the increase; "mice without X" removes
        # X, a presence word (see CUES).
        return any(_changes(w) for w in norms[i + 1 : i + 1 + _WITHOUT_REACH])
    if norms[i + 1 : i + 2] in (("only",), ("solely",), ("just",), ("merely",)):
        return False  # "not only X" still says X
    if word == "not" and norms[i - 1 : i] == ("but",):
        return False  # "X, but not Y" sets Y aside; it does not deny X
    if word in FAIL_WORDS:
        return norms[i + 1 : i + 2] == ("to",)
    return word in PREDICATE_NEGATIONS or word.endswith("n't")


def _changes(word: str) -> bool:
    """Whether a word states a change or an effect (a direction word, or an effect word)."""
    if word.startswith(NULL_AFTER_NEGATION):
        return True
    return any(
        word.startswith(CUES[axis][sign]) for axis in ("quantity", "valence") for sign in (1, -1)
    )


def _segments(toks: tuple[_text.Token, ...], text: str, marks: str) -> list[int]:
    """A segment number per token: segments break at `marks` and before contrast words."""
    out, segment = [], 0
    for i, tok in enumerate(toks):
        gap = text[toks[i - 1].end : tok.start] if i else ""
        if any(mark in gap for mark in marks) or tok.norm in CLAUSE_BREAKS:
            segment += 1
        out.append(segment)
    return out


@lru_cache(maxsize=65536)
def passage(text: str) -> Passage:
    """Read one sentence for alignment (cached by text)."""
    toks = _text.tokens(text)
    norms = tuple(COUNTING_WORDS.get(t.norm, t.norm) for t in toks)
    n = len(norms)
    numeric = [t.is_number or t.norm in COUNTING_WORDS for t in toks]
    stems = tuple(norms[i] if numeric[i] else alignment_stem(norms[i]) for i in range(n))
    clause = _segments(toks, text, ";:")
    phrase = _segments(toks, text, ";:,")  # a null result covers its comma-delimited phrase
    negation_at = [_negates(norms, i) for i in range(n)]
    content_at = [
        not numeric[i] and norms[i] not in _STOP and not negation_at[i] and len(norms[i]) > 1
        for i in range(n)
    ]
    scoped: set[int] = set()
    null_phrases: set[int] = set()
    null_tokens: set[int] = set()
    for i in range(n):
        if norms[i].startswith(NULL_WORDS):
            null_phrases.add(phrase[i])
        if negation_at[i]:
            scope = [j for j in range(i + 1, min(n, i + 1 + _SCOPE)) if clause[j] == clause[i]]
            scoped.update(scope)
            if norms[i] == "without":
                # "X fell without an increase in Y": the null result is Y's, not X's.
                null_tokens.update(scope)
            elif any(norms[j].startswith(NULL_AFTER_NEGATION) for j in scope):
                null_phrases.add(phrase[i])
    # "diet-induced obesity", "lamin-associated domains": a hyphenated modifier names a
    # kind of thing rather than stating an effect.
    modifier = [i > 0 and text[toks[i - 1].end : toks[i].start] == "-" for i in range(n)]
    cues = []
    for i in range(n):
        found = None if modifier[i] or negation_at[i] else _cue_of(norms, i)
        if found is None:
            continue
        anchors: dict[str, float] = {}
        for j in range(max(0, i - _WINDOW), min(n, i + _WINDOW + 1)):
            if content_at[j] and clause[j] == clause[i] and _cue_of(norms, j) is None:
                anchors[stems[j]] = max(anchors.get(stems[j], 0.0), 1.0 / abs(i - j))
        cues.append(Cue(i, found[0], found[1], i in scoped, norms[i], anchors))
    words = set(norms)
    return Passage(
        text=text,
        norms=norms,
        content=frozenset(s for s, c in zip(stems, content_at, strict=True) if c),
        sequence=tuple(s if c else "" for s, c in zip(stems, content_at, strict=True)),
        negated=frozenset(stems[j] for j in scoped if content_at[j]),
        negations=tuple(norms[i] for i in range(n) if negation_at[i]),
        cues=tuple(cues),
        nulls=frozenset(
            stems[j]
            for j in range(n)
            if content_at[j] and (phrase[j] in null_phrases or j in null_tokens)
        ),
        hedges=tuple(w for w in dict.fromkeys(norms) if w in HEDGES),
        affirms=any(
            norms[i].startswith(EFFECT_WORDS)
            and not modifier[i]
            and i not in scoped
            and phrase[i] not in null_phrases
            for i in range(n)
        ),
        open_question=open_question(text, words),
        finding=reports_finding(words),
        quantities=quantities(toks, text, stems=stems, content_at=content_at),
    )

"""Read a sentence for alignment: content words, direction words, negation scope, numbers.

A `Passage` is one sentence (or claim) read once and cached by its text: its content-word
stems, its direction words ("increases", "inhibits", "improves") with the content words
they sit on, the words under a predicate negation, the phrases that report a null result,
whether it hedges or only states an aim, and its numbers with what they measure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from engine.core import text as _text
from engine.workspace.bm25 import STOP_WORDS

_CLOSING = " \t\n.\"'”’)]"  # what may close a sentence after its question mark
_SCOPE = 5  # tokens after a negation that it governs
_WINDOW = 5  # tokens either side of a direction word that anchor it
_YEAR = re.compile(r"1[89]\d\d|20\d\d")
_RANGE = re.compile(r"\s*(?:-|–|—|to)\s*")
_EXACT = 0.1  # relative difference still read as the same number (rounding)
_ROUGH = 0.3  # the same, when either side says "about" or "around"


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_APPROXIMATE = _words("about around approximately approx nearly roughly almost some circa")
_STOP = STOP_WORDS - {"no", "not", "nor", "more", "few", "up", "down", "against", "than"}
# Predicate negations only: "lack of X" or "without X" remove X, which reverses a causal
# chain rather than denying it, so those words are read as presence words (see _CUES).
_NEGATIONS = _words("no not nor never neither unable cannot none incapable")
_FAILS = _words("fail fails failed failing")  # a negation only before "to"
_CLAUSE_BREAKS = _words("but whereas while however although though yet despite unlike except")
_NULL_WORDS = (
    "unchanged", "unaffected", "similar", "comparable", "nonsignificant", "insignific",
    "unrelated",
)  # fmt: skip
_NULL_AFTER_NEGATION = (
    "signific", "associat", "effect", "affect", "differ", "chang", "correlat", "relat",
    "impact", "influenc", "alter", "increas", "reduc", "decreas", "improv", "predict", "link",
)  # fmt: skip
_EFFECT_WORDS = (
    "associat", "correlat", "link", "caus", "lead", "led", "result", "requir", "essential",
    "crucial", "role", "contribut", "predict", "determin", "affect", "influenc", "regulat",
    "mediat", "driv",
)  # fmt: skip
_HEDGES = _words(
    "may might could suggest suggests suggested suggesting possibly potentially perhaps likely "
    "unlikely appear appears seem seems tend tends trend hypothesis hypothesize putative "
    "presumably"
)
# A sentence with these words (and no finding word) states an aim or a gap, not a result.
_OPEN_QUESTION = _words(
    "whether objective objectives aim aims aimed purpose unknown unclear unexplored investigate "
    "investigated examine examined assess assessed evaluate evaluated determine explore "
    "explored hypothesized hypothesised"
)
_FINDING = _words(
    "found find show shows showed shown demonstrate demonstrates demonstrated reveal revealed "
    "conclusion conclusions results observed indicate indicates confirm confirmed"
)
_NUMBER_WORDS = {
    w: str(i)
    for i, w in enumerate(
        ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
    )
}
# Direction words by prefix: axis -> sign -> prefixes. "up"/"down" count before "regul...".
_CUES = {
    "quantity": {
        +1: (
            "increas", "rais", "rise", "rises", "rising", "rose", "elevat", "higher", "greater",
            "more", "enhanc", "promot", "activat", "induc", "stimulat", "upregul", "augment",
            "boost", "accelerat", "amplif", "gain", "exceed", "potentiat", "longer", "faster",
            "positive", "positively", "facilitat", "trigger", "encourag",
        ),
        -1: (
            "decreas", "reduc", "lower", "less", "fewer", "declin", "diminish", "attenuat",
            "inhibit", "suppress", "block", "downregul", "deactivat", "negative",
            "negatively", "inverse", "smaller", "slow", "loss", "lose", "abolish", "abrogat",
            "prevent", "shorter", "repress", "blunt", "protect", "imped", "hinder",
        ),
    },
    # Whether a thing is there at all: "lack of X" reverses what follows rather than denying it.
    "presence": {
        +1: ("overexpress", "presence", "present", "replenish", "supplement"),
        -1: ("lack", "absen", "without", "deficien", "knockout", "ablat", "delet", "deplet",
             "underexpress", "null", "interrupt", "disrupt", "inactivat", "silenc"),
    },
    "valence": {
        +1: ("improv", "benefi", "ameliorat", "alleviat", "better", "effective", "efficac",
             "safe", "accura", "success", "superior", "favorabl", "favourabl", "rescu", "restor"),
        -1: ("worsen", "harm", "deteriorat", "detriment", "exacerbat", "aggravat", "worse",
             "toxic", "ineffective", "inaccura", "inferior", "unfavorabl", "poor", "impair"),
    },
}  # fmt: skip
# Things named after what they do ("a Foxp3 enhancer", "an inhibitory receptor", "tumour
# suppressive miR-193a") state no direction.
_AGENT_STEMS = (
    "enhanc", "promot", "induc", "activat", "inhibit", "suppress", "block", "stimulat",
    "repress", "protect",
)  # fmt: skip
_AGENT_ENDINGS = ("er", "ers", "or", "ors", "ory", "ive", "ible")
_AGENT_NOUNS = frozenset(f"{stem}{end}" for stem in _AGENT_STEMS for end in _AGENT_ENDINGS)


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
class Quantity:
    """A number, the range it belongs to, and what identifies the quantity it measures."""

    value: str
    low: float
    high: float
    approximate: bool  # "about", "around", "nearly" before it
    before: str  # the nearest content word before it
    unit: str  # a short content word right after it ("mg", "weeks"), if any

    def same_quantity(self, other: Quantity) -> bool:
        """Same word before, same unit after (or none), and both percentages or neither."""
        return (
            bool(self.before)
            and self.before == other.before
            and self.unit == other.unit
            and self.value.endswith("%") == other.value.endswith("%")
        )

    def agrees(self, other: Quantity) -> bool:
        """Whether the values are the same within rounding, or one falls in the other's range."""
        slack = _ROUGH if self.approximate or other.approximate else _EXACT
        low, high = min(self.low, other.low), max(self.high, other.high)
        if self.low >= other.low and self.high <= other.high:
            return True
        if other.low >= self.low and other.high <= self.high:
            return True
        return high - low <= slack * max(abs(high), abs(low), 1e-9)


@dataclass(frozen=True, slots=True)
class Passage:
    """One sentence (or claim) read for alignment."""

    text: str
    norms: tuple[str, ...]
    content: frozenset[str]
    negated: frozenset[str]
    negations: tuple[str, ...]
    cues: tuple[Cue, ...]
    nulls: frozenset[str]
    hedges: tuple[str, ...]
    affirms: bool  # states an effect or a link that no negation or null result governs
    open_question: bool
    finding: bool
    quantities: tuple[Quantity, ...]


def stem(word: str) -> str:
    """A crude stem for overlap only: plural and one common suffix off, then five letters."""
    if len(word) <= 4 or not word[0].isalpha():
        return word
    if word.endswith("ies") and len(word) > 5:
        word = word[:-3] + "y"
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    for suffix in ("ation", "ition", "ment", "ness", "ing", "ion", "ed", "ly", "ity"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            word = word[: -len(suffix)]
            break
    return word[:5]


def _cue_of(norms: tuple[str, ...], i: int) -> tuple[str, int] | None:
    word = norms[i]
    if word in _AGENT_NOUNS:
        return None
    if word in ("up", "down"):
        after = norms[i + 1] if i + 1 < len(norms) else ""
        return ("quantity", 1 if word == "up" else -1) if after.startswith("regul") else None
    for axis, signs in _CUES.items():
        for sign, prefixes in signs.items():
            if word.startswith(prefixes):
                return axis, sign
    return None


def _negates(norms: tuple[str, ...], i: int) -> bool:
    word = norms[i]
    if norms[i + 1 : i + 2] in (("only",), ("solely",), ("just",), ("merely",)):
        return False  # "not only X" still says X
    if word == "not" and norms[i - 1 : i] == ("but",):
        return False  # "X, but not Y" sets Y aside; it does not deny X
    if word in _FAILS:
        return norms[i + 1 : i + 2] == ("to",)
    return word in _NEGATIONS or word.endswith("n't")


def _segments(toks: tuple[_text.Token, ...], text: str, marks: str) -> list[int]:
    """A segment number per token: segments break at `marks` and before contrast words."""
    out, segment = [], 0
    for i, tok in enumerate(toks):
        gap = text[toks[i - 1].end : tok.start] if i else ""
        if any(mark in gap for mark in marks) or tok.norm in _CLAUSE_BREAKS:
            segment += 1
        out.append(segment)
    return out


@lru_cache(maxsize=65536)
def passage(text: str) -> Passage:
    """Read one sentence for alignment (cached by text)."""
    toks = _text.tokens(text)
    norms = tuple(_NUMBER_WORDS.get(t.norm, t.norm) for t in toks)
    n = len(norms)
    numeric = [t.is_number or t.norm in _NUMBER_WORDS for t in toks]
    stems = tuple(norms[i] if numeric[i] else stem(norms[i]) for i in range(n))
    clause = _segments(toks, text, ";:")
    phrase = _segments(toks, text, ";:,")  # a null result covers its comma-delimited phrase
    negation_at = [_negates(norms, i) for i in range(n)]
    content_at = [
        not numeric[i] and norms[i] not in _STOP and not negation_at[i] and len(norms[i]) > 1
        for i in range(n)
    ]
    scoped: set[int] = set()
    null_phrases: set[int] = set()
    for i in range(n):
        if norms[i].startswith(_NULL_WORDS):
            null_phrases.add(phrase[i])
        if negation_at[i]:
            scope = [j for j in range(i + 1, min(n, i + 1 + _SCOPE)) if clause[j] == clause[i]]
            scoped.update(scope)
            if any(norms[j].startswith(_NULL_AFTER_NEGATION) for j in scope):
                null_phrases.add(phrase[i])
    # "diet-induced obesity", "lamin-associated domains": a hyphenated modifier names a
    # kind of thing rather than stating an effect.
    modifier = [i > 0 and text[toks[i - 1].end : toks[i].start] == "-" for i in range(n)]
    cues = []
    for i in range(n):
        found = None if modifier[i] else _cue_of(norms, i)
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
        negated=frozenset(stems[j] for j in scoped if content_at[j]),
        negations=tuple(norms[i] for i in range(n) if negation_at[i]),
        cues=tuple(cues),
        nulls=frozenset(stems[j] for j in range(n) if content_at[j] and phrase[j] in null_phrases),
        hedges=tuple(w for w in dict.fromkeys(norms) if w in _HEDGES),
        affirms=any(
            norms[i].startswith(_EFFECT_WORDS)
            and not modifier[i]
            and i not in scoped
            and phrase[i] not in null_phrases
            for i in range(n)
        ),
        open_question=(
            "whether" in words
            or text.rstrip(_CLOSING).endswith("?")  # also a quoted question: "Is it?".
            or bool(words & _OPEN_QUESTION and not words & _FINDING)
        ),
        finding=bool(words & _FINDING),
        quantities=_quantities(toks, text, stems=stems, content_at=content_at),
    )


def _quantities(
    toks: tuple[_text.Token, ...],
    text: str,
    *,
    stems: tuple[str, ...],
    content_at: list[bool],
) -> tuple[Quantity, ...]:
    words = [t.norm for t in toks]
    values = {
        i: _value(_NUMBER_WORDS.get(w, w))
        for i, (t, w) in enumerate(zip(toks, words, strict=True))
        if t.is_number or w in _NUMBER_WORDS
    }
    out = []
    for i, value in values.items():
        gap_before = text[toks[i - 1].end : toks[i].start] if i else ""
        if gap_before == "-" and i - 1 not in values:
            continue  # part of a name such as IL-1 or COVID-19
        if value is None or _YEAR.fullmatch(words[i]):
            continue  # a date places a finding; it is not a quantity the finding measures
        low = high = value
        for j in (i - 1, i + 1):
            # "5-10", "5 to 10": both ends stand for the range.
            first, last = sorted((i, j))
            gap = text[toks[first].end : toks[last].start] if j in values else ""
            if values.get(j) is not None and _RANGE.fullmatch(gap):
                low, high = min(low, values[j]), max(high, values[j])
        before = next((stems[j] for j in range(i - 1, max(-1, i - 4), -1) if content_at[j]), "")
        unit = words[i + 1] if i + 1 < len(words) and content_at[i + 1] else ""
        rough = any(w in _APPROXIMATE for w in words[max(0, i - 2) : i])
        value_text = stems[i]  # a number's stem is its norm, number words as digits
        out.append(Quantity(value_text, low, high, rough, before, unit if len(unit) <= 5 else ""))
    return tuple(out)


def _value(norm: str) -> float | None:
    try:
        return float(norm.rstrip("%"))
    except ValueError:
        return None


@lru_cache(maxsize=8192)
def sentences_of(text: str) -> tuple[str, ...]:
    """The sentences of a note, verbatim; a heading or a first title line stands alone."""
    out = []
    for span in _text.sentences(text):
        piece = text[span.start : span.end]
        head, newline, rest = piece.partition("\n")
        titled = newline and (span.start == 0 or head.lstrip().startswith("#"))
        for part in (head, rest) if titled else (piece,):
            part = part.strip().lstrip("#").strip()
            if len(_text.tokens(part)) >= 3:
                out.append(part)
    return tuple(out)

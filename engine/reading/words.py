"""Words as both wings read them: ranking tokens, the stems a mention is measured by, the rule.

`tokens` are what the index ranks and coverage counts (lower-cased alphanumeric runs, stop
words dropped, regular plurals folded). `stem` is the one stem a mention is measured by,
`mentions` the one rule that says whether a text mentions a question word: the reasoner
and the coverage report both use it. `short_stem` is the alignment stem of the stance
model, whose rarity table is keyed by it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Set as AbstractSet

from engine.text.lexicon import STOP_WORDS

_TOKEN = re.compile(r"[^\W_]+")
# word -> ranking term ("" for a stop word); bounded so a long-lived process stays small.
_FOLDED: dict[str, str] = {}
_FOLD_CACHE_SIZE = 200_000


def words(text: str) -> list[str]:
    """Every word of `text` as both wings split it: lower-cased alphanumeric runs, in order."""
    return _TOKEN.findall(text.lower())


def tokens(text: str) -> list[str]:
    """Ranking tokens: `words` with stop words dropped and plurals folded."""
    return [_fold(word) for word in words(text) if word not in STOP_WORDS]


def surface_words(text: str) -> dict[str, str]:
    """Each ranking token of `text` (as `tokens` gives it) -> the word as written there first.

    Matching goes by the token ("enzymes'" is `enzyme`); words for people show the surface
    form the writer typed ("enzymes"), never the folded or stemmed one.
    """
    out: dict[str, str] = {}
    for raw in _TOKEN.findall(text):
        lowered = raw.lower()
        if lowered in STOP_WORDS:
            continue
        out.setdefault(_fold(lowered), raw)
    return out


def term_counts(text: str) -> dict[str, int]:
    """How often each ranking token occurs in `text` (the same tokens as `tokens`)."""
    counts: dict[str, int] = {}
    # Count raw words first, so stop words and folding are looked at once per distinct word.
    for word, count in Counter(words(text)).items():
        term = _FOLDED.get(word)
        if term is None:
            term = "" if word in STOP_WORDS else _fold(word)
            if len(_FOLDED) < _FOLD_CACHE_SIZE:
                _FOLDED[word] = term
        if term:
            counts[term] = counts.get(term, 0) + count
    return counts


def _fold(word: str) -> str:
    # A light s-stemmer: folds regular plurals ("cells" -> "cell", "studies" -> "study")
    # and leaves words like "virus" or "class" alone.
    if len(word) <= 3 or not word.endswith("s") or word.endswith(("ss", "us", "is")):
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    return word[:-1]


# Irregular past forms of the verbs findings report trends with.
_IRREGULAR = {
    "rose": "rise", "risen": "rise", "fell": "fall", "fallen": "fall", "grew": "grow",
    "grown": "grow", "shrank": "shrink", "shrunk": "shrink", "led": "lead", "began": "begin",
    "begun": "begin", "found": "find", "shown": "show", "held": "hold", "kept": "keep",
    "user": "use", "usage": "use",
}  # fmt: skip
# The alignment stem (`short_stem`) cuts all but the last two.
_SUFFIXES = ("ation", "ition", "ment", "ness", "ing", "ion", "ed", "ly", "ity", "al", "ic")


def stem(word: str) -> str:
    """A crude stem for mentions only: one common suffix off, then at most six letters."""
    word = _IRREGULAR.get(word, word)
    if len(word) <= 4 or not word.isalpha():
        return word
    return _without_suffix(word, _SUFFIXES)[:6]


def mentions(target: str, mentioned: AbstractSet[str]) -> bool:
    """The one mention rule: `mentioned` (stems of a text) holds the stem `target`, or the
    same word cut at another place. The reasoner and the coverage report both use it."""
    if target in mentioned:
        return True
    if len(target) < 5 or not target.isalpha():
        return False
    # "mutat" (mutated) and "mutati" (mutation) are the same word cut at different places.
    return any(
        len(m) >= 5 and (m.startswith(target) or target.startswith(m))
        for m in mentioned
        if m[:1] == target[:1]
    )


def short_stem(word: str) -> str:
    """The alignment stem: plural and one common suffix off, then five letters.

    The stance model's rarity table is keyed by it; `stem` cuts later, for mentions.
    """
    if len(word) <= 4 or not word[0].isalpha():
        return word
    if word.endswith("ies") and len(word) > 5:
        word = word[:-3] + "y"
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    return _without_suffix(word, _SUFFIXES[:-2])[:5]


def _without_suffix(word: str, suffixes: tuple[str, ...]) -> str:
    """`word` without the first of `suffixes` it ends in, when four letters or more remain."""
    for suffix in suffixes:
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[: -len(suffix)]
    return word

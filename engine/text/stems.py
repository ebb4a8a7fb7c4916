"""The one stemmer family: a plural fold, then one common suffix off, then a cut.

Two cuts are kept because two tables are keyed by them: `mention_stem` cuts at six letters
(what a text mentions, `mentions`: the reasoner and the coverage report), `alignment_stem`
at five after folding a plural (the stance model's rarity table was fitted on it). The
same word cut at both places ("mutati", "mutat") is one word to `mentions`.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet


def plural_fold(word: str) -> str:
    """A light s-stemmer: regular plurals folded ("cells" -> "cell", "studies" -> "study").

    Words like "virus" or "class" are left alone. The ranking tokens are folded by it.
    """
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
# The alignment stem cuts all but the last two.
_SUFFIXES = ("ation", "ition", "ment", "ness", "ing", "ion", "ed", "ly", "ity", "al", "ic")


def mention_stem(word: str) -> str:
    """The mention stem: one common suffix off, then at most six letters."""
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


def alignment_stem(word: str) -> str:
    """The alignment stem: plural and one common suffix off, then five letters.

    The stance model's rarity table is keyed by it; `mention_stem` cuts later, for mentions.
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

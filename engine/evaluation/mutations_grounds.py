"""Mutation families on what licenses a claim: deductions, a note's own words, invisible text.

Where `engine.evaluation.mutations` changes what a sentence says, these change what stands
behind it: a deduction that reorders, negates or swaps its premise's words or numbers; a
sentence sitting in a note's body beside the quote that was checked; a note whose ground is
a figure, an equation, a recomputation, a decision tree or a tethered file; a claim with
an invisible format character or a look-alike minus sign. Each family has controls, the
same shapes left unmutated, which must still answer.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

from engine.datasets.scifact_text import TrainSentence
from engine.evaluation.mutations import Mutant, Shape, negation_deletion, number_change, register
from engine.text.fold import MINUS_LIKE
from engine.text.tokens import word_sequence

Control = Callable[[TrainSentence, random.Random], list[Mutant]]
# Controls per family: unmutated claims of the family's shape that must answer grounded.
CONTROLS: dict[str, Control] = {}

_WORD = re.compile(r"(?<![\w-])[A-Za-z][a-z]{3,}(?![\w-])")
_NUMBER = re.compile(r"(?<![\w.\-])\d+(?:\.\d+)?(?![\w.]*\d)")
_CLAUSE_BREAK = re.compile(r",\s+")
_VERB = re.compile(r"\b(is|are|was|were|did|does|do|has|have|had|can|could|may|will)\b")


def _deduction(family: str, item: TrainSentence, claim: str) -> Mutant:
    return Mutant(family, claim, item.text, item.abstract, premise=item.text)


def deduction_polarity(item: TrainSentence, rng: random.Random) -> list[Mutant]:
    """A deduction that drops or adds a negation of its premise, reusing every other word."""
    out = [_deduction("deduction-polarity", item, m.claim) for m in negation_deletion(item, rng)]
    verb = _VERB.search(item.text)
    if verb is not None and not re.search(r"\bnot\b", item.text):
        added = item.text[: verb.end()] + " not" + item.text[verb.end() :]
        out.append(_deduction("deduction-polarity", item, added))
    return out


def deduction_role_swap(item: TrainSentence, rng: random.Random) -> list[Mutant]:
    """A deduction that swaps two different content words of its premise (roles, order)."""
    words = list(_WORD.finditer(item.text))
    pairs = [
        (a, b)
        for i, a in enumerate(words)
        for b in words[i + 1 :]
        if a.group().lower() != b.group().lower()
    ]
    if not pairs:
        return []
    a, b = rng.choice(pairs)
    text = item.text
    swapped = (
        text[: a.start()] + b.group() + text[a.end() : b.start()] + a.group() + text[b.end() :]
    )
    return [_deduction("deduction-role-swap", item, swapped)]


def deduction_number_swap(item: TrainSentence, rng: random.Random) -> list[Mutant]:
    """A deduction that swaps two different numbers of its premise ("3 to 12" → "12 to 3")."""
    numbers = [m for m in _NUMBER.finditer(item.text)]
    pairs = [
        (a, b) for i, a in enumerate(numbers) for b in numbers[i + 1 :] if a.group() != b.group()
    ]
    out = []
    for a, b in pairs[:2]:
        text = item.text
        swapped = (
            text[: a.start()] + b.group() + text[a.end() : b.start()] + a.group() + text[b.end() :]
        )
        out.append(_deduction("deduction-number-swap", item, swapped))
    out += [_deduction("deduction-number-swap", item, m.claim) for m in number_change(item, rng)]
    return out


def deduction_reorder(item: TrainSentence, rng: random.Random) -> list[Mutant]:
    """A deduction that puts its premise's comma-separated parts in another order."""
    body = item.text.rstrip(".")
    parts = _CLAUSE_BREAK.split(body)
    if len(parts) < 2:
        return []
    shuffled = parts[1:] + parts[:1]
    claim = ", ".join(shuffled) + "."
    claim = claim[:1].upper() + claim[1:]
    if word_sequence(claim) == word_sequence(item.text):
        return []
    return [_deduction("deduction-reorder", item, claim)]


def deduction_controls(item: TrainSentence, rng: random.Random) -> list[Mutant]:
    """A deduction restating its premise word for word: proven by the licensing rule."""
    return [_deduction("deduction-control", item, item.text)]


def off_quote_body(item: TrainSentence, rng: random.Random) -> list[Mutant]:
    """The note's own sentence beside the quote that was checked: its author's words."""
    altered = [m.claim for m in negation_deletion(item, rng) + number_change(item, rng)]
    if not altered:
        altered = [f"It is not the case that {item.text[:1].lower()}{item.text[1:]}"]
    return [
        Mutant("off-quote-body", claim, item.text, item.abstract, shape=Shape.OFF_QUOTE)
        for claim in altered[:2]
    ]


def off_quote_controls(item: TrainSentence, rng: random.Random) -> list[Mutant]:
    """The checked quote itself, restated from a note whose body says more."""
    return [Mutant("off-quote-control", item.text, item.text, item.abstract, shape=Shape.OFF_QUOTE)]


# Grounds that check something other than text; their confirmed statements are controls.
NON_TEXT = ("figure", "equation", "expr-recompute", "decision-tree", "tether")


def non_text_ground(item: TrainSentence, rng: random.Random) -> list[Mutant]:
    """The sentence restated from a note grounded by a figure, equation, recomputation,
    decision tree or tethered file that says nothing of it."""
    return [
        Mutant(
            "non-text-ground", item.text, item.text, item.abstract, shape=Shape.NON_TEXT, ground=g
        )
        for g in NON_TEXT
    ]


_INVISIBLE = ("\u202e", "\u202d", "\u2066", "\u2067", "\u2068", "\u2069", "\u200b", "\u200d")


def format_character(item: TrainSentence, rng: random.Random) -> list[Mutant]:
    """An invisible format character put into the claim: a bidi control or zero-width one."""
    spaces = [m.start() for m in re.finditer(" ", item.text)]
    numbers = [m.start() for m in _NUMBER.finditer(item.text)]
    out = []
    for char in rng.sample(_INVISIBLE, 3):
        at = rng.choice(numbers or spaces or [len(item.text) - 1])
        claim = item.text[:at] + char + item.text[at:]
        out.append(Mutant("format-character", claim, item.text, item.abstract))
    return out


def format_controls(item: TrainSentence, rng: random.Random) -> list[Mutant]:
    """A soft hyphen inside a long word: it only marks a break, so the claim still answers."""
    words = [m for m in re.finditer(r"[a-z]{8,}", item.text)]
    if not words:
        return []
    word = rng.choice(words)
    middle = word.start() + len(word.group()) // 2
    claim = item.text[:middle] + "\u00ad" + item.text[middle:]
    return [Mutant("format-control", claim, item.text, item.abstract)]


_LOOK_ALIKES = ("\u02d7", "\u2796", "\u23af", "\u2212", "\ufe63")


def lookalike_sign(item: TrainSentence, rng: random.Random) -> list[Mutant]:
    """A minus written with a look-alike put before a number the source states unsigned."""
    out = []
    for found in list(_NUMBER.finditer(item.text))[:2]:
        before = item.text[: found.start()].rstrip()[-1:]
        if before.isdigit() or before in MINUS_LIKE:
            continue  # a range, or a number already signed
        sign = rng.choice(_LOOK_ALIKES)
        claim = item.text[: found.start()] + sign + item.text[found.start() :]
        out.append(Mutant("lookalike-sign", claim, item.text, item.abstract))
    return out


def lookalike_controls(item: TrainSentence, rng: random.Random) -> list[Mutant]:
    """A source's minus written with a look-alike in the claim: displayed the same, answers."""
    found = re.search(r"(?<![\w\d])-(?=\d)", item.text)
    if found is None:
        return []
    claim = item.text[: found.start()] + rng.choice(_LOOK_ALIKES) + item.text[found.end() :]
    return [Mutant("lookalike-control", claim, item.text, item.abstract)]


def non_text_controls(item: TrainSentence, rng: random.Random) -> list[Mutant]:
    """What each non-text verifier confirmed, restated: it answers (a figure confirms nothing
    that can be restated)."""
    return [
        Mutant("non-text-control", "", item.text, item.abstract, shape=Shape.NON_TEXT, ground=g)
        for g in NON_TEXT
        if g != "figure"
    ]


register("deduction-polarity", deduction_polarity)
register("deduction-role-swap", deduction_role_swap)
register("deduction-number-swap", deduction_number_swap)
register("deduction-reorder", deduction_reorder)
register("off-quote-body", off_quote_body)
register("non-text-ground", non_text_ground)
register("format-character", format_character)
register("lookalike-sign", lookalike_sign)
CONTROLS.update(
    {
        "deduction": deduction_controls,
        "off-quote-body": off_quote_controls,
        "non-text-ground": non_text_controls,
        "format-character": format_controls,
        "lookalike-sign": lookalike_controls,
    }
)

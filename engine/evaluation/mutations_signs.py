"""Mutation families for signs that show and deductions that compare unlike things.

Spaced signs and primes: a source states a number with a minus set apart by a space (any
dash, any space), a double prime, or a word with a raised minus, and the claim drops or
changes it. Deduction frames: two premises stated with a scope on one side, ranks, times or
durations, unlike units or a spaced sign, and a deduction comparing them as more or less.
Each family has unmutated controls that must answer: the source restated as displayed, and
the spec's own number deduction (with a spaced minus read as displayed).
"""

from __future__ import annotations

import random
import re

from engine.core.deduction import why_unproven
from engine.datasets.scifact_text import TrainSentence
from engine.evaluation.mutations import Mutant, in_abstract, register
from engine.evaluation.mutations_grounds import CONTROLS

_NUMBER = re.compile(r"(?<![\w.,\-\u2212\u2013\u2014])\d+(?:\.\d+)?(?![\w.,]*\d)(?![\w%'])")
_DASHES = ("-", "\u2212", "\u2013", "\u2014")
_SPACES = (" ", "\u2009", "\u00a0", "\u202f")
_ACRONYM = re.compile(r"\b[A-Z]{2,}\b(?![-+\u207b\u207a])")
FRAME_FAMILIES = (
    "deduction-scope",
    "deduction-rank",
    "deduction-time",
    "deduction-unit",
    "deduction-sign",
)


def _unsigned_numbers(text: str) -> list[re.Match[str]]:
    # Not after a digit and spaces: a dash there would be a range, not a sign.
    return [m for m in _NUMBER.finditer(text) if not text[: m.start()].rstrip()[-1:].isdigit()]


def _spaced(rng: random.Random) -> str:
    return rng.choice(_DASHES) + rng.choice(_SPACES)


def spaced_sign(item: TrainSentence, rng: random.Random) -> list[Mutant]:
    """The source states a number with a minus set apart by a space; the claim drops it."""
    out = []
    for found in _unsigned_numbers(item.text)[:2]:
        source = item.text[: found.start()] + _spaced(rng) + item.text[found.start() :]
        out.append(Mutant("spaced-sign", item.text, source, in_abstract(item, source)))
    return out


def spaced_sign_controls(item: TrainSentence, rng: random.Random) -> list[Mutant]:
    """The spaced minus restated with its sign, another dash and space displaying the same."""
    found = _unsigned_numbers(item.text)[:1]
    if not found:
        return []
    at = found[0].start()
    source = item.text[:at] + "\u2212 " + item.text[at:]
    claim = item.text[:at] + rng.choice(_DASHES[:3]) + rng.choice(_SPACES) + item.text[at:]
    return [Mutant("spaced-sign-control", claim, source, in_abstract(item, source))]


def prime_mark(item: TrainSentence, rng: random.Random) -> list[Mutant]:
    """The source writes a double prime after a number or a raised minus after an acronym;
    the claim writes a single prime, or nothing."""
    out = []
    numbers = _unsigned_numbers(item.text)
    if numbers:
        end = rng.choice(numbers).end()
        source = item.text[:end] + "\u2033" + item.text[end:]
        abstract = in_abstract(item, source)
        for mark in ("\u2032", ""):
            claim = item.text[:end] + mark + item.text[end:]
            out.append(Mutant("prime-mark", claim, source, abstract))
    acronym = _ACRONYM.search(item.text)
    if acronym:
        end = acronym.end()
        source = item.text[:end] + rng.choice(("\u207b", "\u208b")) + item.text[end:]
        out.append(Mutant("prime-mark", item.text, source, in_abstract(item, source)))
    return out


def prime_mark_controls(item: TrainSentence, rng: random.Random) -> list[Mutant]:
    """The source with its double prime or raised minus, restated as displayed."""
    out = []
    numbers = _unsigned_numbers(item.text)
    if numbers:
        end = rng.choice(numbers).end()
        source = item.text[:end] + "\u2033" + item.text[end:]
        out.append(Mutant("prime-mark-control", source, source, in_abstract(item, source)))
    acronym = _ACRONYM.search(item.text)
    if acronym:
        source = item.text[: acronym.end()] + "\u207b" + item.text[acronym.end() :]
        out.append(Mutant("prime-mark-control", source, source, in_abstract(item, source)))
    return out


# --- deduction frames ------------------------------------------------------------------

_WORD = re.compile(r"\b[a-z]{5,12}\b")
_VERBS = ("earned", "gained", "scored", "yielded")


def _subjects(item: TrainSentence, rng: random.Random) -> tuple[str, str, str] | None:
    """Two subjects from the sentence's words and a verb for which the spec's own number
    deduction proves (words that frame or rank are left out that way)."""
    words = list(dict.fromkeys(_WORD.findall(item.text)))
    rng.shuffle(words)
    verb = rng.choice(_VERBS)
    for first, second in zip(words[::2], words[1::2], strict=False):
        premise, claim = _spec(first, second, verb)
        if why_unproven(claim, [premise]) is None:
            return first, second, verb
    return None


def _spec(a: str, b: str, verb: str) -> tuple[str, str]:
    A, B = a.capitalize(), b.capitalize()
    return f"{A} {verb} 1.2% a month. {B} {verb} 0.4% a month.", f"{A} {verb} more than {b}."


def _deduction(family: str, item: TrainSentence, premise: str, claim: str) -> Mutant:
    abstract = f"{item.abstract}\n\n{premise}"  # a paragraph of its own
    return Mutant(family, claim, premise, abstract, premise=premise)


def _frames(item: TrainSentence, rng: random.Random) -> dict[str, list[tuple[str, str]]] | None:
    found = _subjects(item, rng)
    if found is None:
        return None
    a, b, verb = found
    A, B = a.capitalize(), b.capitalize()
    sign = _spaced(rng)
    return {
        "deduction-scope": [
            (f"In Japan {a} {verb} 1.2%. {B} {verb} 0.4%.", f"In Japan {a} {verb} more than {b}."),
            (f"Among women {a} {verb} 1.2%. {B} {verb} 0.4%.",
             f"Among women {a} {verb} more than {b}."),
            (f"{A} {verb} 1.2% in Japan. {B} {verb} 0.4% in Japan.", f"{A} {verb} more than {b}."),
        ],
        "deduction-rank": [
            (f"{A} ranked 1. {B} ranked 3.", f"{A} ranked lower than {b}."),
            (f"{A} ranked 1. {B} ranked 3.", "1 < 3."),
            (f"{A} came 1st. {B} came 3rd.", f"{A} came lower than {b}."),
        ],
        "deduction-time": [
            (f"{A} peaked 5 years ago. {B} peaked 2 years ago.", f"{A} peaked more than {b}."),
            (f"{A} lasted 5 years. {B} lasted 2 years.", f"{A} lasted longer than {b}."),
            (f"{A} peaked in 2010. {B} peaked in 2005.", f"{A} peaked more than {b}."),
        ],
        "deduction-unit": [
            (f"{A} {verb} 1.2% a month. {B} {verb} 0.4% a year.", f"{A} {verb} more than {b}."),
            (f"{A} {verb} 5 mg. {B} {verb} 3 kg.", f"{A} {verb} more than {b}."),
            (f"{A} {verb} 5 mg. {B} {verb} 3 kg.", "5 > 3."),
        ],
        "deduction-sign": [
            (f"{A} {verb} {sign}1.2% a month. {B} {verb} 0.4% a month.",
             f"{A} {verb} more than {b}."),
            (f"{A} {verb} {sign}1.2% a month. {B} {verb} 0.4% a month.", "1.2% > 0.4%."),
        ],
    }  # fmt: skip


def _frame_family(family: str):  # type: ignore[no-untyped-def]
    def generate(item: TrainSentence, rng: random.Random) -> list[Mutant]:
        frames = _frames(item, rng)
        if frames is None:
            return []
        return [_deduction(family, item, premise, claim) for premise, claim in frames[family]]

    generate.__doc__ = f"Deductions comparing unlike premises: {family.split('-')[1]}."
    return generate


def frame_controls(item: TrainSentence, rng: random.Random) -> list[Mutant]:
    """The spec's own number deduction, its arithmetic, a shared scope kept, and a spaced
    minus read as displayed: like with like, each must answer."""
    found = _subjects(item, rng)
    if found is None:
        return []
    a, b, verb = found
    A, B = a.capitalize(), b.capitalize()
    premise, claim = _spec(a, b, verb)
    signed = f"{A} {verb} {_spaced(rng)}1.2% a month. {B} {verb} 0.4% a month."
    others = [
        (premise, "1.2% > 0.4%."),
        (f"{A} {verb} 1.2% in Japan. {B} {verb} 0.4% in Japan.",
         f"{A} {verb} more than {b} in Japan."),
        (signed, f"{A} {verb} less than {b}."),
    ]  # fmt: skip
    pairs = [(premise, claim), rng.choice(others)]
    return [_deduction("deduction-frame-control", item, p, c) for p, c in pairs]


register("spaced-sign", spaced_sign)
register("prime-mark", prime_mark)
for _family in FRAME_FAMILIES:
    register(_family, _frame_family(_family))
CONTROLS.update(
    {
        "spaced-sign": spaced_sign_controls,
        "prime-mark": prime_mark_controls,
        "deduction-frame": frame_controls,
    }
)

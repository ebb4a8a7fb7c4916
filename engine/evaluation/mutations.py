"""Mutation families over SciFact train sentences: claims their source does not license.

Each family takes one real sentence of a train-cited abstract and makes *mutants*: a claim
restating a span inside an embedding that holds it, dropping a restriction, flipping a
comparator, a marker, a sign or an exponent, changing a number, deleting a negation, or a
deduction that says more than its premise. Families register in `FAMILIES` (name →
generator), those of other modules when imported (`mutations_signs`; `overstatements`, the
families that turn a finding around or state it more strongly); a generator is
deterministic given the `random.Random` it is handed.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum

from engine.datasets.scifact_text import TrainSentence
from engine.text.tokens import word_sequence


class Shape(StrEnum):
    """How a mutant is put to the router: what stands behind the claim."""

    RESTATEMENT = "restatement"  # restating a sentence quoted against its abstract
    DEDUCTION = "deduction"  # a deduction from the verbatim sentence (`premise`)
    OFF_QUOTE = "off-quote"  # a sentence of a note's body beside the one quote checked
    NON_TEXT = "non-text"  # a note grounded by a non-text verifier (`ground`)


@dataclass(frozen=True)
class Mutant:
    """A claim the (possibly edited) source must not license, with what it came from.

    `source` is the sentence as it stands in `abstract` (a wrapper family edits both);
    `premise` is set for a deduction: the verbatim sentence it claims to follow from.
    `shape` says what stands behind the claim; `ground` names a non-text verifier.
    """

    family: str
    claim: str
    source: str
    abstract: str
    premise: str | None = None
    shape: Shape = Shape.RESTATEMENT
    ground: str | None = None

    def __post_init__(self) -> None:
        if self.premise is not None and self.shape is Shape.RESTATEMENT:
            object.__setattr__(self, "shape", Shape.DEDUCTION)


@dataclass
class FamilyScore:
    """Mutants routed and leaks found for one family; a few leaked claims as examples."""

    family: str
    mutants: int = 0
    leaks: int = 0
    examples: list[str] = field(default_factory=list)
    controls: int = 0  # unmutated claims of the family's shape, which must answer
    controls_answered: int = 0
    control_misses: list[str] = field(default_factory=list)


Family = Callable[[TrainSentence, random.Random], list[Mutant]]
FAMILIES: dict[str, Family] = {}


def register(name: str, fn: Family) -> None:
    """Add or replace a mutation family."""
    FAMILIES[name] = fn


# --- families --------------------------------------------------------------------------

_WRAPPERS = (
    "We found no evidence that ",
    "It is not true that ",
    "We tested whether ",
    "It is unknown whether ",
    "These data suggest that ",
    "It remains unclear whether ",
    "There is no evidence that ",
    "Our objective was to show that ",
    "It is a common misconception that ",
    "Clinicians think that ",
    "It was predicted that ",
    "Whether ",
)
_EMBEDDED = re.compile(r"\b(?:that|whether|if)\s+(?=\w)")


def in_abstract(item: TrainSentence, source: str) -> str:
    """The sentence's abstract with `source` standing where the sentence stood."""
    return item.abstract.replace(item.text, source, 1)


def _lower_first(text: str) -> str:
    first = text.split(" ", 1)[0]
    # Keep acronyms and gene names as written (HIV, mRNA); lower an ordinary capital.
    return text[:1].lower() + text[1:] if first[1:].islower() else text


def upper_first(text: str) -> str:
    """The text with its first character in capitals."""
    return text[:1].upper() + text[1:]


def scope_truncation(item: TrainSentence, rng: random.Random) -> list[Mutant]:
    """The sentence restated from inside a negation, question or embedding that holds it."""
    wrapper = rng.choice(_WRAPPERS)
    source = wrapper + _lower_first(item.text)
    if wrapper == "Whether ":
        source = source.rstrip(".") + " is unknown."
    out = [Mutant("scope-truncation", item.text, source, in_abstract(item, source))]
    # A real embedding: the clause after "that" / "whether" / "if" of the sentence itself.
    found = _EMBEDDED.search(item.text)
    if found and found.start() > 0:
        inner = upper_first(item.text[found.end() :])
        if len(inner.split()) >= 3:
            out.append(Mutant("scope-truncation", inner, item.text, item.abstract))
    return out


_RESTRICTIONS = (
    " only in mice.",
    " only when combined with asbestos exposure.",
    ", unless renal function was impaired.",
    ", except in patients older than 65 years.",
    ", but only in the highest-dose group.",
    " in men but not in women.",
    " as long as it was taken daily.",
    " in two of three studies.",
    " in observational studies but not in randomised trials.",
    " when taken at night.",
    " in none of the trials.",
    " in one patient.",
    " at low doses.",
)
_NATURAL_RESTRICTION = re.compile(
    r"(?:,\s*but\s+only|,?\s+only\s+(?:in|when|if|among|after|at|for|with)|,?\s+unless"
    r"|,?\s+except|,?\s+provided\s+that|,?\s+if)\b",
    re.IGNORECASE,
)


def dropped_restriction(item: TrainSentence, rng: random.Random) -> list[Mutant]:
    """The sentence restated without the restriction or condition that bounds it."""
    if not item.text.endswith("."):
        return []
    source = item.text[:-1] + rng.choice(_RESTRICTIONS)
    out = [Mutant("dropped-restriction", item.text, source, in_abstract(item, source))]
    condition = "If patients fasted overnight, " + _lower_first(item.text)
    out.append(Mutant("dropped-restriction", item.text, condition, in_abstract(item, condition)))
    found = _NATURAL_RESTRICTION.search(item.text)
    if found and len(item.text[: found.start()].split()) >= 3:
        claim = item.text[: found.start()].rstrip(" ,;:") + "."
        out.append(Mutant("dropped-restriction", claim, item.text, item.abstract))
    return out


_COMPARATORS = {"<": ">", ">": "<", "≤": "≥", "≥": "≤", "=": "≠", "≠": "="}
_COMPARATOR = re.compile(r"[<>≤≥=≠]")


def comparator_flip(item: TrainSentence, rng: random.Random) -> list[Mutant]:
    """A comparator turned around (`<` ↔ `>`, `≤` ↔ `≥`, `=` ↔ `≠`), or `≤` written `<`."""
    out = []
    for found in list(_COMPARATOR.finditer(item.text))[:3]:
        sign = found.group()
        for swap in {_COMPARATORS[sign], {"≤": "<", "≥": ">"}.get(sign, _COMPARATORS[sign])}:
            claim = item.text[: found.start()] + swap + item.text[found.end() :]
            out.append(Mutant("comparator-flip", claim, item.text, item.abstract))
    return out


_ACRONYM = re.compile(r"\b[A-Z][A-Z0-9]{1,5}\b(?![-+(])")
_MARKER = re.compile(r"(?<=[A-Za-z0-9])(?:\+|-|−|\(\+\)|\(-\))(?![\w+-])")


def marker_flip(item: TrainSentence, rng: random.Random) -> list[Mutant]:
    """A trailing `+`/`−` on a marker flipped or dropped (ER+ → ER−, CD4+ → CD4)."""
    out = []
    for found in list(_MARKER.finditer(item.text))[:3]:
        word = re.search(r"\w+\Z", item.text[: found.start()])
        if word is None or not any(c.isupper() or c.isdigit() for c in word.group()):
            continue  # a suspended hyphen ("age- and sex-adjusted"), not a marker
        mark = found.group()
        flipped = "-" if "+" in mark else "+"
        for swap in (flipped, "−" if flipped == "-" else "+", ""):
            claim = item.text[: found.start()] + swap + item.text[found.end() :]
            out.append(Mutant("marker-flip", claim, item.text, item.abstract))
    acronym = _ACRONYM.search(item.text)
    if not out and acronym:
        # No marker in the sentence: mark its first acronym positive in the source.
        at = acronym.end()
        source = item.text[:at] + "+" + item.text[at:]
        for swap in ("-", "−", ""):
            claim = item.text[:at] + swap + item.text[at:]
            out.append(Mutant("marker-flip", claim, source, in_abstract(item, source)))
    return out


_UNSIGNED = re.compile(r"(?<![\w.,\-−–‒—―+^(])(\d+(?:\.\d+)?)(?![\w.]*\d)")
_SIGNED = re.compile(r"(?<![\w\d])[-−–‒—―](?=\d)")
_DASHES = ("-", "−", "–", "‒", "—", "―")
_NUMBER_END = frozenset("0123456789%")


def sign_change(item: TrainSentence, rng: random.Random) -> list[Mutant]:
    """A number's sign flipped, whichever dash writes the minus."""
    out = []
    for found in list(_SIGNED.finditer(item.text))[:2]:
        if item.text[: found.start()].rstrip()[-1:] in _NUMBER_END:
            continue  # a range, not a sign
        claim = item.text[: found.start()] + item.text[found.end() :]
        out.append(Mutant("sign-change", claim, item.text, item.abstract))
    for found in list(_UNSIGNED.finditer(item.text))[:2]:
        if item.text[: found.start()].rstrip()[-1:] in _NUMBER_END:
            continue
        claim = item.text[: found.start()] + rng.choice(_DASHES) + item.text[found.start() :]
        out.append(Mutant("sign-change", claim, item.text, item.abstract))
    return out


_SMALL_INT = re.compile(r"(?<![\w.,\-^(])([1-9]\d?)(?![\w.,%]*\d)(?!\s*%)")
_SUPER = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")
_NATURAL_EXPONENT = re.compile(r"10\s?\((-?)(\d+)\)|10\^\(?(-?)(\d+)\)?")


def exponent_change(item: TrainSentence, rng: random.Random) -> list[Mutant]:
    """An exponent changed: `10⁻³` restated as `10^3`, `10-3`, `103` or `10³`."""
    out = []
    for found in list(_NATURAL_EXPONENT.finditer(item.text))[:2]:
        minus = found.group(1) if found.group(2) else found.group(3)
        digits = found.group(2) or found.group(4)
        flipped = f"10({'' if minus else '-'}{digits})"
        claim = item.text[: found.start()] + flipped + item.text[found.end() :]
        out.append(Mutant("exponent-change", claim, item.text, item.abstract))
    small = _SMALL_INT.search(item.text)
    if small:
        n = small.group(1)
        source = item.text[: small.start()] + "10" + f"-{n}".translate(_SUPER)
        source += item.text[small.end() :]
        for form in (f"10^{n}", f"10-{n}", f"10{n}", "10" + n.translate(_SUPER)):
            claim = item.text[: small.start()] + form + item.text[small.end() :]
            out.append(Mutant("exponent-change", claim, source, in_abstract(item, source)))
    return out


_NUMBER = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)?(?![\w.]*\d)")


def number_change(item: TrainSentence, rng: random.Random) -> list[Mutant]:
    """A number changed: a digit bumped, or a decimal point moved."""
    out = []
    for found in list(_NUMBER.finditer(item.text))[:2]:
        digits = found.group()
        last = str((int(digits[-1]) + rng.randint(1, 8)) % 10)
        changed = [digits[:-1] + last]
        if "." in digits:
            whole, frac = digits.split(".", 1)
            changed.append(whole + frac[:1] + ("." + frac[1:] if frac[1:] else ""))
        for text in changed:
            claim = item.text[: found.start()] + text + item.text[found.end() :]
            out.append(Mutant("number-change", claim, item.text, item.abstract))
    return out


_NEGATION = re.compile(
    r"\b(?:not|no|never|without|neither|nor|none)\s+|n't\b|\bnon-", re.IGNORECASE
)


def negation_deletion(item: TrainSentence, rng: random.Random) -> list[Mutant]:
    """A negation deleted (`did not increase` → `did increase`, `non-small` → `small`)."""
    out = []
    for found in list(_NEGATION.finditer(item.text))[:3]:
        claim = item.text[: found.start()] + item.text[found.end() :]
        if claim.strip() and claim != item.text:
            out.append(Mutant("negation-deletion", claim, item.text, item.abstract))
    return out


_NOVEL = ("all", "always", "every patient", "in all cancers", "cures", "permanently")


def deduction_novel(item: TrainSentence, rng: random.Random) -> list[Mutant]:
    """A deduction from the verbatim sentence that adds words nothing it rests on says."""
    words = item.text.rstrip(".").split(" ")
    if len(words) < 4:
        return []
    at = rng.randrange(1, len(words))
    said = set(word_sequence(item.text))
    fresh = [w for w in _NOVEL if not said.intersection(word_sequence(w))]
    if not fresh:
        return []
    novel = rng.choice(fresh)
    inserted = " ".join([*words[:at], novel, *words[at:]]) + "."
    sweeping = f"{words[0]} cures all cancers in every patient."
    return [
        Mutant("deduction-novel", text, item.text, item.abstract, premise=item.text)
        for text in (inserted, sweeping)
    ]


register("scope-truncation", scope_truncation)
register("dropped-restriction", dropped_restriction)
register("comparator-flip", comparator_flip)
register("marker-flip", marker_flip)
register("sign-change", sign_change)
register("exponent-change", exponent_change)
register("number-change", number_change)
register("negation-deletion", negation_deletion)
register("deduction-novel", deduction_novel)

"""Soundness of grounded answers on real text: mutate SciFact train sentences, count leaks.

Each family takes one real sentence of a train-cited abstract and makes *mutants*: a claim
the source does not license (the claim restates a span inside an embedding, drops a
restriction, flips a comparator, a marker, a sign or an exponent, changes a number, deletes
a negation) or a deduction that says more than its premise. Every mutant is routed twice:
quoting the source sentence it came from, and quoting the mutant itself. A *leak* is a
mutant answered as grounded. The control routes every unmutated sentence as a verbatim,
exactly cited restatement, alone and abstract by abstract; it must answer.

Families register in `FAMILIES` (name → generator); generators are deterministic given the
`random.Random` they are handed, so a seeded run is reproducible.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace

from engine.api import route_payload
from engine.core.text import word_sequence
from engine.datasets.scifact_text import TrainSentence, restatement_payload


@dataclass(frozen=True)
class Mutant:
    """A claim the (possibly edited) source must not license, with what it came from.

    `source` is the sentence as it stands in `abstract` (a wrapper family edits both);
    `premise` is set for a deduction: the verbatim sentence it claims to follow from.
    """

    family: str
    claim: str
    source: str
    abstract: str
    premise: str | None = None


Family = Callable[[TrainSentence, random.Random], list[Mutant]]
FAMILIES: dict[str, Family] = {}


def register(name: str, fn: Family) -> None:
    """Add or replace a mutation family."""
    FAMILIES[name] = fn


@dataclass
class FamilyScore:
    """Mutants routed and leaks found for one family; a few leaked claims as examples."""

    family: str
    mutants: int = 0
    leaks: int = 0
    examples: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class SoundnessReport:
    """The table: per family, mutants and leaks; the control answer rates."""

    families: tuple[FamilyScore, ...]
    control_sentences: int
    control_answered: int
    control_abstracts: int
    control_abstracts_answered: int
    control_misses: tuple[str, ...]
    fragments: int = 0
    fragments_answered: int = 0

    @property
    def control_rate(self) -> float:
        return self.control_answered / self.control_sentences if self.control_sentences else 0.0

    @property
    def abstract_rate(self) -> float:
        if not self.control_abstracts:
            return 0.0
        return self.control_abstracts_answered / self.control_abstracts

    @property
    def leaks(self) -> int:
        return sum(f.leaks for f in self.families)

    def table(self) -> str:
        """The figures as a plain-text table."""
        lines = [f"{'family':<22} {'mutants':>8} {'leaks':>6}"]
        for f in self.families:
            lines.append(f"{f.family:<22} {f.mutants:>8,} {f.leaks:>6,}")
        lines.append(
            f"control: {self.control_answered:,}/{self.control_sentences:,} sentences answer "
            f"({100 * self.control_rate:.2f}%), {self.control_abstracts_answered:,}/"
            f"{self.control_abstracts:,} abstracts restated sentence by sentence answer "
            f"({100 * self.abstract_rate:.2f}%)"
        )
        lines.append(
            f"not controls: {self.fragments:,} SciFact sentences that are fragments (cut short "
            f"by SciFact's own segmentation), of which {self.fragments_answered:,} answer anyway"
        )
        return "\n".join(lines)

    def to_dict(self) -> dict:
        return {
            "families": [
                {"family": f.family, "mutants": f.mutants, "leaks": f.leaks, "examples": f.examples}
                for f in self.families
            ],
            "control": {
                "sentences": self.control_sentences,
                "answered": self.control_answered,
                "rate": round(self.control_rate, 4),
                "abstracts": self.control_abstracts,
                "abstracts_answered": self.control_abstracts_answered,
                "abstract_rate": round(self.abstract_rate, 4),
                "misses": list(self.control_misses),
                "fragments_excluded": self.fragments,
                "fragments_answered": self.fragments_answered,
            },
        }


def by_abstract(items: Iterable[TrainSentence]) -> list[list[TrainSentence]]:
    """The sentences grouped by abstract, in first-seen order."""
    docs: dict[str, list[TrainSentence]] = {}
    for item in items:
        docs.setdefault(item.doc_id, []).append(item)
    return list(docs.values())


def grounded_answer(payload: dict) -> bool:
    """Whether routing the payload gives a grounded (or measured) answer, not a hedge."""
    out = route_payload(payload)
    return out["verdict"] == "answer" and not out["hedged"]


def mutant_payloads(mutant: Mutant) -> Iterator[dict]:
    """The payloads a mutant is routed as: quoting its source sentence, then itself."""
    item = TrainSentence("0", 0, mutant.source, mutant.abstract)
    if mutant.premise is None:
        for quoted in (mutant.source, mutant.claim):
            yield restatement_payload([replace(item, text=quoted)], texts=[mutant.claim])
        return
    base = restatement_payload([replace(item, text=mutant.premise)])
    claims = base["dag"]["claims"]
    claims.append(
        {"id": "d", "text": mutant.claim, "kind": "deduction", "premises": [claims[0]["id"]]}
    )
    base["dag"]["conclusion"] = "d"
    base["prose"] = mutant.claim
    base["dag"]["prose_citations"] = [{"start": 0, "end": len(mutant.claim), "claim": "d"}]
    yield base
    hedge = dict(base, prose=mutant.premise)
    hedge["dag"] = dict(
        base["dag"],
        prose_citations=[{"start": 0, "end": len(mutant.premise), "claim": claims[0]["id"]}],
    )
    yield hedge


def evaluate(
    items: Sequence[TrainSentence],
    *,
    seed: int = 0,
    families: Iterable[str] | None = None,
    abstracts: Iterable[Sequence[TrainSentence]] = (),
) -> SoundnessReport:
    """Mutate `items` with every family (seeded), route, and run the controls.

    The sentence control restates each of `items` alone; the abstract control restates
    each of `abstracts` (all the sentences of one abstract) sentence by sentence.
    """
    rng = random.Random(seed)
    names = list(families) if families is not None else list(FAMILIES)
    scores = {name: FamilyScore(name) for name in names}
    for item in items:
        for name in names:
            for mutant in FAMILIES[name](item, rng):
                score = scores[name]
                score.mutants += 1
                if any(grounded_answer(p) for p in mutant_payloads(mutant)):
                    score.leaks += 1
                    if len(score.examples) < 5:
                        score.examples.append(f"{mutant.claim} <= {mutant.source}")
    controls = [item for item in items if not item.fragment]
    answered, misses, pieces_answered = 0, [], 0
    for item in items:
        ok = grounded_answer(restatement_payload([item]))
        if item.fragment:
            pieces_answered += ok
        elif ok:
            answered += 1
        elif len(misses) < 20:
            misses.append(item.text)
    # An abstract is restated whole only when SciFact cut none of its sentences short.
    whole = [g for g in abstracts if not any(i.fragment for i in g)]
    whole_answered = sum(grounded_answer(restatement_payload(group)) for group in whole)
    return SoundnessReport(
        tuple(scores.values()),
        len(controls),
        answered,
        len(whole),
        whole_answered,
        tuple(misses),
        len(items) - len(controls),
        pieces_answered,
    )


# --- families --------------------------------------------------------------------------

_WRAPPERS = (
    "We found no evidence that ",
    "It is not true that ",
    "We tested whether ",
    "It is unknown whether ",
    "These data suggest that ",
    "It remains unclear whether ",
    "There is no evidence that ",
    "Whether ",
)
_EMBEDDED = re.compile(r"\b(?:that|whether|if)\s+(?=\w)")


def _in_abstract(item: TrainSentence, source: str) -> str:
    return item.abstract.replace(item.text, source, 1)


def _lower_first(text: str) -> str:
    first = text.split(" ", 1)[0]
    # Keep acronyms and gene names as written (HIV, mRNA); lower an ordinary capital.
    return text[:1].lower() + text[1:] if first[1:].islower() else text


def _upper_first(text: str) -> str:
    return text[:1].upper() + text[1:]


def scope_truncation(item: TrainSentence, rng: random.Random) -> list[Mutant]:
    """The sentence restated from inside a negation, question or embedding that holds it."""
    wrapper = rng.choice(_WRAPPERS)
    source = wrapper + _lower_first(item.text)
    if wrapper == "Whether ":
        source = source.rstrip(".") + " is unknown."
    out = [Mutant("scope-truncation", item.text, source, _in_abstract(item, source))]
    # A real embedding: the clause after "that" / "whether" / "if" of the sentence itself.
    found = _EMBEDDED.search(item.text)
    if found and found.start() > 0:
        inner = _upper_first(item.text[found.end() :])
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
    out = [Mutant("dropped-restriction", item.text, source, _in_abstract(item, source))]
    condition = "If patients fasted overnight, " + _lower_first(item.text)
    out.append(
        Mutant("dropped-restriction", item.text, condition, _in_abstract(item, condition))
    )
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


_MARKER = re.compile(r"(?<=[A-Za-z0-9])(?:\+|-|−|\(\+\)|\(-\))(?![\w+-])")


def marker_flip(item: TrainSentence, rng: random.Random) -> list[Mutant]:
    """A trailing `+`/`−` on a marker flipped or dropped (ER+ → ER−, CD4+ → CD4)."""
    out = []
    for found in list(_MARKER.finditer(item.text))[:3]:
        mark = found.group()
        flipped = "-" if "+" in mark else "+"
        for swap in (flipped, "−" if flipped == "-" else "+", ""):
            claim = item.text[: found.start()] + swap + item.text[found.end() :]
            out.append(Mutant("marker-flip", claim, item.text, item.abstract))
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
    found = _SMALL_INT.search(item.text)
    if found:
        n = found.group(1)
        source = item.text[: found.start()] + "10" + f"-{n}".translate(_SUPER)
        source += item.text[found.end() :]
        for form in (f"10^{n}", f"10-{n}", f"10{n}", "10" + n.translate(_SUPER)):
            claim = item.text[: found.start()] + form + item.text[found.end() :]
            out.append(Mutant("exponent-change", claim, source, _in_abstract(item, source)))
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

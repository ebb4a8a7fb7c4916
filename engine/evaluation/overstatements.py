"""Mutation families that state a sentence's finding turned around or more strongly.

A claim made from a real sentence by turning a direction word to its opposite, swapping the
sides of a comparison or who acts on whom, dropping a hedge ("may provide" → "provides",
"suggest" → "show"), widening a quantifier ("some" → "all"), changing a figure's unit ("2
hours" → "2 days") or a spelled number, turning a word around by its prefix
("independent" → "dependent"), putting out a word for one that fills its slot ("children"
→ "adults"), or dropping what removes a thing or the condition a finding holds under. Each
says something its sentence does not; asked of a library, none may be answered yes. They
register in `mutations.FAMILIES`.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable

from engine.datasets.scifact_text import TrainSentence
from engine.evaluation.mutations import Mutant, register, upper_first
from engine.text.lexicon import STOP_WORDS


def _replaced(item: TrainSentence, family: str, found: re.Match[str], text: str) -> Mutant:
    claim = item.text[: found.start()] + text + item.text[found.end() :]
    return Mutant(family, claim, item.text, item.abstract)


def _cased(like: str, word: str) -> str:
    return word[:1].upper() + word[1:] if like[:1].isupper() else word


def _turned(
    item: TrainSentence, family: str, table: dict[str, str], found: list[re.Match[str]]
) -> list[Mutant]:
    """A mutant for each word `found`, put out for its other in `table`, cased alike."""
    return [
        _replaced(item, family, hit, _cased(hit.group(), table[hit.group().lower()]))
        for hit in found
    ]


def _both_ways(*pairs: tuple[str, str]) -> dict[str, str]:
    """Each word of each pair mapped to the other."""
    return {one: other for a, b in pairs for one, other in ((a, b), (b, a))}


def _any_of(words: Iterable[str]) -> re.Pattern[str]:
    """Any of `words` as a whole word, the longest first, in any case."""
    escaped = sorted(map(re.escape, words), key=len, reverse=True)
    return re.compile(r"\b(" + "|".join(escaped) + r")\b", re.I)


# Direction words and their opposites, as a writer would turn a finding around.
_OPPOSITES = _both_ways(
    ("increased", "decreased"), ("increase", "decrease"), ("increases", "decreases"),
    ("increasing", "decreasing"), ("higher", "lower"), ("greater", "smaller"),
    ("elevated", "reduced"), ("upregulated", "downregulated"), ("enhanced", "impaired"),
    ("promotes", "inhibits"), ("promoted", "inhibited"), ("activated", "suppressed"),
    ("improved", "worsened"), ("positive", "negative"), ("more", "less"),
    ("longer", "shorter"), ("better", "worse"), ("gain", "loss"),
)  # fmt: skip
_OPPOSITE = _any_of(_OPPOSITES)


def direction_flip(item: TrainSentence, rng: random.Random) -> list[Mutant]:
    """A direction word turned to its opposite (`enhanced` → `impaired`, `higher` → `lower`)."""
    return _turned(item, "direction-flip", _OPPOSITES, list(_OPPOSITE.finditer(item.text))[:3])


_SIDES = re.compile(
    r"\b(in|for|among|with|after|at) ([\w\-]+(?: [\w\-]+){0,3}?) than (?:\1 )?"
    r"([\w\-]+(?: [\w\-]+){0,3}?)(?=[.,;)]|$)"
)


def sides_swap(item: TrainSentence, rng: random.Random) -> list[Mutant]:
    """What a comparison sets against what, swapped (`in men than in women` → `in women than
    in men`)."""
    return [
        _replaced(item, "sides-swap", found, f"{word} {other} than {word} {one}")
        for found in list(_SIDES.finditer(item.text))[:2]
        for word, one, other in [found.groups()]
        if one.lower() != other.lower()
    ]


_ROLE = re.compile(
    r"\b([A-Za-z][\w\-+]{2,30}) ((?:in|de)creases|inhibits|activates|promotes|suppresses"
    r"|reduces|induces|enhances|blocks|stimulates|binds|regulates|causes) ([A-Za-z][\w\-+]{2,30})\b"
)


def role_swap(item: TrainSentence, rng: random.Random) -> list[Mutant]:
    """Who acts on whom, swapped around a verb (`cells increases FM1-43 uptake` →
    `FM1-43 increases cells uptake`)."""
    return [
        _replaced(item, "role-swap", found, f"{patient} {verb} {agent}")
        for found in list(_ROLE.finditer(item.text))[:2]
        for agent, verb, patient in [found.groups()]
        if not {agent.lower(), patient.lower()} & STOP_WORDS and agent.lower() != patient.lower()
    ]


# A hedge and what the sentence says without it: "may provide" → "provides".
_HEDGED = re.compile(r"\b(?:may|might|could) (be|(?!be\b)[a-z]+)\b")
_SHOWN = {"suggest": "show", "suggests": "shows", "suggested": "showed"}
_SUGGEST = re.compile(r"\b(" + "|".join(_SHOWN) + r")\b")


def hedge_dropped(item: TrainSentence, rng: random.Random) -> list[Mutant]:
    """A hedge dropped: what the sentence says may be, stated as shown."""
    out = []
    for found in list(_HEDGED.finditer(item.text))[:2]:
        verb = found.group(1)
        stated = "is" if verb == "be" else verb if verb.endswith("s") else verb + "s"
        out.append(_replaced(item, "hedge-dropped", found, stated))
    for found in list(_SUGGEST.finditer(item.text))[:1]:
        out.append(_replaced(item, "hedge-dropped", found, _SHOWN[found.group()]))
    return out


_SOME = re.compile(r"\b(some|several|many|most|a few)\b", re.I)


def quantifier_change(item: TrainSentence, rng: random.Random) -> list[Mutant]:
    """A quantifier widened: what the sentence says of some, said of all."""
    return [
        _replaced(item, "quantifier-change", found, _cased(found.group(), "all"))
        for found in list(_SOME.finditer(item.text))[:2]
    ]


_UNITS = {
    "mg": "g", "g": "mg", "ml": "l", "mM": "nM", "nM": "mM", "µM": "mM", "kg": "g",
    "seconds": "minutes", "minutes": "hours", "hours": "days", "days": "weeks",
    "weeks": "months", "months": "years", "years": "months",
}  # fmt: skip
_UNIT = re.compile(r"(?<=\d )(" + "|".join(map(re.escape, _UNITS)) + r")\b")


def unit_change(item: TrainSentence, rng: random.Random) -> list[Mutant]:
    """A figure's unit changed: "2 hours" restated as "2 days", "10 mg" as "10 g"."""
    return [
        _replaced(item, "unit-change", found, _UNITS[found.group()])
        for found in list(_UNIT.finditer(item.text))[:2]
    ]


_SPELLED = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
_SPELLED_NUMBER = re.compile(r"\b(" + "|".join(_SPELLED) + r")\b", re.I)


def number_word_change(item: TrainSentence, rng: random.Random) -> list[Mutant]:
    """A spelled number changed to the next: "three groups" restated as "four groups"."""
    out = []
    for found in list(_SPELLED_NUMBER.finditer(item.text))[:2]:
        at = _SPELLED.index(found.group().lower())
        other = _SPELLED[(at + 1) % len(_SPELLED)]
        out.append(_replaced(item, "number-word-change", found, _cased(found.group(), other)))
    return out


# Words and the same word turned around by a prefix, as a writer might drop or add one.
_PREFIXED = _both_ways(
    ("dependent", "independent"), ("active", "inactive"), ("stable", "unstable"),
    ("coupled", "uncoupled"), ("folded", "misfolded"), ("function", "dysfunction"),
    ("regulated", "dysregulated"), ("symptomatic", "asymptomatic"),
    ("typical", "atypical"), ("normal", "abnormal"), ("effective", "ineffective"),
    ("phosphorylation", "dephosphorylation"), ("methylation", "demethylation"),
    ("hyperglycemia", "hypoglycemia"), ("hypertension", "hypotension"),
    ("proinflammatory", "anti-inflammatory"), ("pro-inflammatory", "anti-inflammatory"),
    ("overexpression", "underexpression"), ("significant", "insignificant"),
    ("sufficient", "insufficient"), ("complete", "incomplete"), ("treated", "untreated"),
    ("responsive", "unresponsive"), ("detectable", "undetectable"),
    ("infected", "uninfected"), ("known", "unknown"), ("coding", "non-coding"),
)  # fmt: skip
_PREFIX_WORD = _any_of(_PREFIXED)


def prefix_flip(item: TrainSentence, rng: random.Random) -> list[Mutant]:
    """A word turned around by a prefix dropped, added or swapped ("UCP1-independent" →
    "UCP1-dependent", "active" → "inactive", "hypoglycemia" → "hyperglycemia")."""
    found = [f for f in _PREFIX_WORD.finditer(item.text) if not _after_prefix(f)]
    return _turned(item, "prefix-flip", _PREFIXED, found[:2])


_HYPHENED_PREFIX = re.compile(r"\b(?:de|non|anti|pro|un|dys|mis|hyper|hypo)-$", re.I)


def _after_prefix(found: re.Match[str]) -> bool:
    # "de-regulated" is one word: a prefix put before it would make a word no writer uses.
    return bool(_HYPHENED_PREFIX.search(found.string[: found.start()]))


# Words that fill the same slot and say another thing: another group, part, stage or role.
_OTHERS = _both_ways(
    ("children", "adults"), ("men", "women"), ("male", "female"), ("mice", "humans"),
    ("necessary", "sufficient"), ("acute", "chronic"), ("benign", "malignant"),
    ("early", "late"), ("inner", "outer"), ("maternal", "paternal"),
    ("upstream", "downstream"), ("strongest", "weakest"), ("presence", "absence"),
    ("agonist", "antagonist"), ("dominant", "recessive"), ("cause", "consequence"),
    ("systolic", "diastolic"), ("proximal", "distal"), ("anterior", "posterior"),
    ("donor", "recipient"), ("resistant", "sensitive"), ("first", "last"),
)  # fmt: skip
_OTHER = _any_of(_OTHERS)


def word_swap(item: TrainSentence, rng: random.Random) -> list[Mutant]:
    """A word put out for one that fills its slot and says another thing ("in children" →
    "in adults", "necessary" → "sufficient")."""
    return _turned(item, "word-swap", _OTHERS, list(_OTHER.finditer(item.text))[:2])


# What removes or blocks a named thing, before it ("knockdown of FOXO3") or after it
# ("SIRT1 deficiency", "PTEN-null"): dropped, the sentence speaks of the thing present.
_LOSS_BEFORE = re.compile(
    r"\b(?:knockdown|knockout|deletion|depletion|inhibition|ablation|silencing|loss|lack|"
    r"absence|blockade|blocking|deficiency|disruption|inactivation) of (?:the )?",
    re.IGNORECASE,
)
_LOSS_AFTER = re.compile(
    r"(?<=\w)[- ](?:deficiency|deficient|knockout|knockdown|deletion|null|inhibition|"
    r"blockade|depletion|ablation|silencing)\b",
    re.IGNORECASE,
)


def loss_dropped(item: TrainSentence, rng: random.Random) -> list[Mutant]:
    """The word that removes or blocks what the sentence says acts, dropped ("SIRT1
    deficiency increased steatosis" → "SIRT1 increased steatosis"): the thing itself then
    does the opposite of what the sentence says."""
    return _cut(item, "loss-dropped", _LOSS_BEFORE, _LOSS_AFTER)


# A condition a finding holds under: opening the sentence ("In the absence of insulin, …",
# "Among those who adhered, …") or closing it ("… in the presence of zinc", "… among
# participants who adhered to treatment"). Dropped, the finding is said of every state.
_CONDITION_OPENING = re.compile(
    r"^(?:In the (?:absence|presence) of|Among (?:those|participants|patients|subjects) who)"
    r"\b[^,;]{1,80}, ",
    re.IGNORECASE,
)
_CONDITION_CLOSING = re.compile(
    r",? (?:in the (?:absence|presence) of [^,;.()]{1,60}|among (?:those|participants|"
    r"patients|subjects) who (?:adhered|complied)[^,;.()]{0,60})(?=[.;]\s*$)",
    re.IGNORECASE,
)


def condition_dropped(item: TrainSentence, rng: random.Random) -> list[Mutant]:
    """The condition a sentence's finding holds under, dropped ("In the absence of insulin,
    glucagon increased output" → "Glucagon increased output"): the finding is then said
    of every state, and the sentence says it of one."""
    return _cut(item, "condition-dropped", _CONDITION_OPENING, _CONDITION_CLOSING)


def _cut(item: TrainSentence, family: str, *patterns: re.Pattern[str]) -> list[Mutant]:
    """The sentence with what the first of `patterns` to match there finds cut out."""
    found = next((m for p in patterns if (m := p.search(item.text)) is not None), None)
    if found is None:
        return []
    claim = upper_first(item.text[: found.start()] + item.text[found.end() :])
    return [Mutant(family, claim, item.text, item.abstract)]


OVERSTATEMENTS = {
    "direction-flip": direction_flip,
    "sides-swap": sides_swap,
    "role-swap": role_swap,
    "hedge-dropped": hedge_dropped,
    "quantifier-change": quantifier_change,
    "unit-change": unit_change,
    "number-word-change": number_word_change,
    "prefix-flip": prefix_flip,
    "word-swap": word_swap,
    "loss-dropped": loss_dropped,
    "condition-dropped": condition_dropped,
}
for _name, _family in OVERSTATEMENTS.items():
    register(_name, _family)

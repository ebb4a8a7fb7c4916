"""What a yes must keep of a sentence's figures: each number, its unit, its bound and role.

"Reduced the risk by up to 50%" states a most, not 50%; "over 70 years" bounds the other way
from "under 70"; "from 4% to 2%" starts at 4% and ends at 2%, and "by 2 hours" is no "by 2
days". `figures_changed` names the rule a claim breaks with its figures; `exact` is what a
claim must say exactly (numbers, signs, number words, quantifiers).
"""

from __future__ import annotations

from collections import Counter
from itertools import pairwise

from engine.core.stance import Overstated
from engine.review.yes_figure_sense import figures_against
from engine.text.frame_words import BOUND_PAIRS
from engine.text.lexicon import INTENSIFIERS, NUMBER_WORDS, QUANTIFIERS, STOP_WORDS
from engine.text.tokens import token_spans

Words = tuple[str, ...]
# Each token of a text with whether it is a figure standing alone (`_figured`).
Figured = list[tuple[str, bool]]


def figures_changed(claim_text: str, joined: str, claim: Words, said: Words) -> Overstated | None:
    """The rule the claim's figures break against the evidence's (`joined`, its words
    `said`), else None: a number, sign or quantity it lacks (`EXACT`), a figure with another
    unit (`UNIT`), a bound turned or a most stated as the effect, a figure in another role
    (`EXACT`), or figures that say no change or one the other way (`figures_against`)."""
    theirs = exact(said)
    missing = exact(claim) - theirs
    if missing.keys() <= _SUPERLATIVES and _ranks(theirs):
        missing = Counter()  # one superlative for another: "the most" for "the highest"
    if missing:
        return Overstated.EXACT
    claim_figures, said_figures = _figured(claim_text), _figured(joined)
    if _number_pairs(claim_figures) - _number_pairs(said_figures):
        return Overstated.UNIT
    if _bounds(claim) & _turned_bounds(said) or (_capped(said) - _capped(claim)) & set(claim):
        return Overstated.EXACT
    if _moved_roles(claim, said) or _figure_scope_moved(claim_figures, said_figures):
        return Overstated.EXACT
    return figures_against(claim, said, joined)


def both_ways(pairs: tuple[tuple[str, str], ...]) -> dict[str, tuple[str, ...]]:
    """Each word of the pairs with the words it is paired with, either way round, in order."""
    out: dict[str, tuple[str, ...]] = {}
    for one, other in pairs:
        out[one] = (*out.get(one, ()), other)
        out[other] = (*out.get(other, ()), one)
    return out


# Words that single a thing out: "only aspirin", "the best", "the highest". A claim that
# says one says more than a sentence without it.
_THE_MOST = "the most"
# How far after a figure the words it is said of are read, in a claim and in the evidence.
_CLAIM_SCOPE = 3
_SCOPE_REACH = 6
_SUPERLATIVES = frozenset(
    {_THE_MOST, "best", "worst", "highest", "lowest", "greatest", "largest", "biggest"}
    | {"smallest", "strongest", "weakest"}
)
_RANKING = _SUPERLATIVES | {"only"}
# Words that may stand between a bounding word and its number ("less than 5", "over the age
# of 70").
_BOUND_FILLERS = frozenset({"than", "the", "age", "of", "aged"})
# Words before a number that make it a most, not the effect ("up to 50%").
_CAPS = (
    ("up", "to"), ("as", "much", "as"), ("as", "many", "as"), ("as", "high", "as"),
    ("at", "least"), ("at", "most"), ("nearly",), ("almost",), ("approximately",), ("about",),
    ("around",), ("roughly",),
)  # fmt: skip
# Words that give a figure its role in a change: where it started, ended, or by how much.
_FIGURE_ROLES = frozenset({"from", "to", "by"})
# Each bounding word with those that bound a number from the other side.
_OTHER_BOUND = both_ways(BOUND_PAIRS)


def _bounds(words: tuple[str, ...]) -> set[tuple[str, str]]:
    """(bounding word, number) for each number a bounding word comes just before, "than"
    or "the age of" between them aside ("over 70", "less than 5")."""
    out = set()
    for at, word in enumerate(words):
        if not any(char.isdigit() for char in word):
            continue
        back = at - 1
        while back >= 0 and words[back] in _BOUND_FILLERS:
            back -= 1
        if back >= 0 and words[back] in _OTHER_BOUND:
            out.add((words[back], word))
    return out


def _moved_roles(claim: tuple[str, ...], said: tuple[str, ...]) -> bool:
    """Whether a figure the claim puts after "from", "to" or "by" stands in the evidence only
    after another of them ("reduced the risk from 4% to 2%" for "reduces the risk to 4%"): a
    start, an end and a change are different figures."""
    theirs = _roles(said)
    return any(
        (role, figure) not in theirs and any(f == figure for _, f in theirs)
        for role, figure in _roles(claim)
    )


def _figure_scope_moved(claim: Figured, said: Figured) -> bool:
    """Whether a figure the claim says of something the evidence says of something else
    ("reduced hospitalisation by 90% in adults but by 40% in children" for "by 90% in
    children"): a word the claim puts after the figure stands in the evidence, but not after
    that figure, before the next. A number inside a name ("IL-10") is no figure."""
    everything = {word for word, _ in said}
    for at, (figure, standalone) in enumerate(claim):
        wanted = _scope_after(claim, at, _CLAIM_SCOPE)
        if not standalone or not wanted or not wanted <= everything:
            continue
        spots = [i for i, (word, alone) in enumerate(said) if alone and word == figure]
        if spots and all(not wanted <= _scope_after(said, i, _SCOPE_REACH) for i in spots):
            return True
    return False


def _figured(text: str) -> Figured:
    """Each token of `text` with whether it is a figure standing alone: a number glued to a
    name by a hyphen ("caspase-11", "IL-10") is part of the name."""
    return [
        (span.norm, span.is_number and not _in_name(text, span.start)) for span in token_spans(text)
    ]


def _scope_after(words: Figured, at: int, reach: int) -> set[str]:
    """The content words after the figure at `at`, up to the next figure, within `reach`."""
    out: set[str] = set()
    for word, figure in words[at + 1 : at + 1 + reach]:
        if figure:
            break
        if word.isalpha() and word not in STOP_WORDS:
            out.add(word)
    return out


def _roles(words: tuple[str, ...]) -> set[tuple[str, str]]:
    """(role word, figure) for each figure "from", "to" or "by" comes just before."""
    return {
        (before, word)
        for before, word in pairwise(words)
        if before in _FIGURE_ROLES and any(char.isdigit() for char in word)
    }


def _capped(words: tuple[str, ...]) -> set[str]:
    """The numbers said as a most, a least, about or as the end of a range ("by up to 50%",
    "as much as 3-fold", "nearly 50%", "by 20-30%"): a claim stating the number alone states
    the bound as the effect."""
    return {
        word
        for at, word in enumerate(words)
        if _figure(word)
        and (any(words[max(0, at - len(cap)) : at] == cap for cap in _CAPS) or _ranged(words, at))
    }


def _ranged(words: tuple[str, ...], at: int) -> bool:
    """Whether the number at `at` ends or opens a range ("20-30%", "20 to 30%"; not "from 20
    to 30%", a change)."""
    if not _number(words[at]):
        return False
    before = words[max(0, at - 3) : at]
    after = words[at + 1 : at + 3]
    if (before and _number(before[-1])) or (after and _number(after[0])):
        return True
    between = before[-2:]
    return len(between) == 2 and between[1] == "to" and _number(between[0]) and before[0] != "from"


def _figure(word: str) -> bool:
    return any(char.isdigit() for char in word)


def _number(word: str) -> bool:
    """Whether a token is a number alone ("20", "30%", "0.5"), not a name ("PR3", "C4C4")."""
    return word.removesuffix("%").replace(".", "", 1).isdigit()


def _turned_bounds(words: tuple[str, ...]) -> set[tuple[str, str]]:
    """The bounds of `words` turned to the other side: what a claim may not say of them."""
    return {(other, number) for word, number in _bounds(words) for other in _OTHER_BOUND[word]}


def exact(words: tuple[str, ...]) -> Counter[str]:
    """What must be said exactly: numbers, signs, symbols, marked words such as "hpbm-",
    number words, quantifiers ("all" is not "some"), intensifiers ("dramatically"), "only"
    and superlatives ("the most
    effective" is not "an effective"; "the most" counts apart from the quantity "most")."""
    out: Counter[str] = Counter()
    for before, token in pairwise(("", *words)):
        if _superlative(before, token):
            out[_THE_MOST] += 1
        elif (
            token in NUMBER_WORDS
            or token in QUANTIFIERS
            or token in INTENSIFIERS
            or token in _RANKING
            or (not token.isalpha() and (not token.isalnum() or any(c.isdigit() for c in token)))
        ):
            out[token] += 1
    return out


def _ranks(said: Counter[str]) -> bool:
    """Whether the evidence's exact words hold a superlative, or "most" in any sense ("most
    common" says "the most common")."""
    return any(word in _SUPERLATIVES or word == "most" for word in said)


def _superlative(before: str, token: str) -> bool:
    """Whether "most" makes a superlative ("the most recent month"), not a quantity ("most
    patients")."""
    return token == "most" and before == "the"


def _number_pairs(figured: Figured) -> Counter[tuple[str, str]]:
    """Each figure standing alone with the token after it: its unit or what it counts ("2
    hours")."""
    return Counter((one, after) for (one, alone), (after, _) in pairwise(figured) if alone)


def _in_name(text: str, start: int) -> bool:
    return start >= 2 and text[start - 1] in "-‐‑" and text[start - 2].isalnum()

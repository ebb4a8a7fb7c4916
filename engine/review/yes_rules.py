"""What a yes must keep: the rules under which a claim says more than its evidence.

The offline typer reads a support from shared words and cues; it does not see what the
claim changed. A yes stands only where the claim keeps what the evidence states exactly
(numbers, signs, marks, number words, quantifiers, the unit after each number), drops no
mark, negating prefix, negation, condition or hedge of the evidence, leaves out no clause
by which the evidence takes back what it found, states every direction
as often, keeps each side of a comparison, keeps the evidence's own words in their order
and each word in its slot, turns no word around by a prefix, and names no actor the
evidence never names. `overstates` names the first rule a claim breaks; the stance is then
`neither`.
"""

from __future__ import annotations

import re
from collections import Counter
from difflib import SequenceMatcher
from itertools import pairwise

from engine.core.licensing import find_run
from engine.core.stance import Overstated
from engine.reading.significance import reports_no_significance
from engine.review.doubt_frames import debated, doubted, retracted
from engine.review.no_rules import overstated_no
from engine.review.split_directions import split_by_scope
from engine.review.weak_grounds import undercut
from engine.review.yes_attributes import changed_attribute, moved_the_other_way
from engine.review.yes_clauses import (
    asserted,
    negates,
    other_clause,
    other_subject,
    relative_subject,
    scattered,
)
from engine.review.yes_comparators import against_another
from engine.review.yes_conditions import dropped_condition, in_animals_only
from engine.review.yes_contrasts import (
    drawn_apart,
    means_apart,
    said_of_control,
    split_means,
)
from engine.review.yes_failures import judged_failed
from engine.review.yes_figures import figures_changed
from engine.review.yes_frames import (
    actor,
    governed_against,
    left_taken_back,
    relates,
    set_aside,
    turned_around,
)
from engine.review.yes_links import associated_only
from engine.review.yes_losses import lost_actor
from engine.review.yes_near_null import near_null, tended
from engine.review.yes_order import content_words as _content
from engine.review.yes_order import reordered
from engine.review.yes_partners import combined_actor, null_comparison
from engine.review.yes_parts import partial
from engine.review.yes_populations import population_only
from engine.review.yes_prefixes import prefix_flip, unmarked
from engine.review.yes_trends import actor_trended
from engine.text.frame_words import CONTROLS
from engine.text.lexicon import (
    CONDITION_WORDS,
    FREQUENCY_PARTIALS,
    HEDGES,
    HEDGES_BEFORE_SUBJECT_TO,
    HEDGES_BEFORE_THAT,
    HEDGES_BEFORE_TO,
    LICENSED,
    NEGLIGIBLE,
    NULL_WORDS,
    PURPOSES_BEFORE_TO,
    STOP_WORDS,
    cue_of,
    link_strength,
)
from engine.text.stems import mention_stem, mentions
from engine.text.tokens import word_sequence

# How far after "less effective" its other side may stand ("than bupropion").
_LESSER_REACH = 4
# What "less … than" may be measured against without another thing: "less than expected".
_EXPECTATIONS = frozenset({"expected", "anticipated", "predicted", "hoped", "assumed"})
# The first word by which a claim denies ("does not reduce", "has no effect").
_DENIAL = re.compile(r"\b(?:not|no|never)\b\s*", re.IGNORECASE)
# A word that pairs two lists in order: which of one goes with which of the other is a
# reading the words alone do not make.
_RESPECTIVELY = "respectively"
# Words after "in" that say a finding held in none ("in none of the trials", "in neither arm",
# "in no patients").
_NONE = frozenset({"none", "neither", "no"})
# Words that set one thing against another: what follows each is the other side.
_COMPARING = frozenset({"than", "versus", "vs"})


def overstates(claim_text: str, evidence: list[str]) -> Overstated | None:
    """The first rule under which `claim_text` says more than `evidence`, else None.

    The evidence is taken together (a sentence a PDF line split in two still counts); every
    condition and hedge of the sentences the claim restates must stand in it. A claim of how
    ("… by inhibiting renin") is read for its change alone, once a sentence stating the change
    names the means too (`means_apart`).
    """
    joined = " ".join(evidence)
    claim = word_sequence(claim_text)
    said = word_sequence(joined)
    figures = figures_changed(claim_text, joined, claim, said)
    if figures is not None:
        return figures
    denied = _denial_broken(claim_text, evidence)
    if denied is not None:
        return denied  # "not reduce weight?" off "did not reduce weight until week 12"
    means = split_means(claim_text)
    if means is not None:
        # "… by inhibiting renin": the means stated with the change, the change read alone.
        if means_apart(*means, evidence):
            return Overstated.OTHER_CLAUSE
        return overstates(means[0], evidence)
    if any(unmarked(claim_text, sentence) for sentence in evidence):
        return Overstated.UNMARKED
    flipped = prefix_flip(claim, said)
    if flipped is not None:
        return flipped
    if _negations(claim) - _negations(said):
        return Overstated.NEGATION
    if any(_dropped(claim_text, sentence) for sentence in [*evidence, joined]):
        return Overstated.DROPPED
    if judged_failed(claim, said):
        return Overstated.DROPPED  # "ineffective in reducing weight"
    if null_comparison(claim, evidence):
        return Overstated.DROPPED
    if any(read(claim_text, evidence) for read in (doubted, retracted, debated)):
        return Overstated.DOUBTED  # "a myth that …", "later retracted", "… is debated"
    if any(undercut(claim_text, sentence) for sentence in evidence):
        return Overstated.DOUBTED  # "the evidence is mixed", "stopped for futility"
    if any(left_taken_back(claim, sentence) for sentence in evidence):
        return Overstated.TAKEN_BACK
    if not _states_null(claim) and reports_no_significance(joined):
        return Overstated.NOT_SIGNIFICANT
    kin = _kin(claim_text, evidence)
    if _in_none(kin, claim):
        return Overstated.DROPPED  # "reduced mortality in none of the trials"
    if partial(claim, kin) or set(_among(kin, FREQUENCY_PARTIALS)) - set(claim):
        return Overstated.PARTIAL  # "some patients", "rarely reduced"
    if set(_among(kin, NEGLIGIBLE)) - set(claim):
        return Overstated.NOT_SIGNIFICANT  # "reduced stroke negligibly"
    if near_null(claim, kin):
        return Overstated.NOT_SIGNIFICANT  # "borderline significant", "had little effect"
    if _among(kin, CONDITION_WORDS) - _among(claim, CONDITION_WORDS):
        return Overstated.CONDITION
    if combined_actor(claim, evidence) or dropped_condition(claim, evidence):
        return Overstated.CONDITION
    if _hedges(kin) - _hedges(claim) or tended(claim, kin):
        return Overstated.HEDGE
    if asserted(claim) - asserted(said) or governed_against(claim, evidence):
        return Overstated.DIRECTION
    if moved_the_other_way(claim, evidence):
        return Overstated.DIRECTION  # "reduced weight and glucose increased"
    if turned_around(claim, evidence) or _lesser(claim, said):
        return Overstated.DIRECTION
    if split_by_scope(claim, evidence):
        return Overstated.CONDITION  # "increased bleeding in men but decreased it in women"
    if in_animals_only(claim, evidence):
        return Overstated.CONDITION  # "extended lifespan in obese mice" for "extends lifespan"
    if changed_attribute(claim, evidence):
        return Overstated.ATTRIBUTE  # "reduced the variance of mood scores"
    if population_only(claim, evidence):
        return Overstated.POPULATION  # "the risk of death in patients with diabetes"
    if associated_only(claim, evidence):
        return Overstated.ASSOCIATION
    if actor_trended(claim, evidence):
        return Overstated.TREND  # "mortality fell over the decade in which aspirin use rose"
    if any(_said_of_another(claim, sentence) for sentence in evidence):
        return Overstated.OTHER_CLAUSE
    if _RESPECTIVELY in kin and _RESPECTIVELY not in claim:
        return Overstated.OTHER_CLAUSE  # "A and B reduced X and Y, respectively": paired
    if set_aside(claim, evidence):
        return Overstated.SET_ASIDE
    if lost_actor(claim, evidence):
        return Overstated.LOST
    if _sides_moved(claim, said):
        return Overstated.SIDES  # "than in the brainstem" for "than in the cortex"
    if against_another(claim, said):
        return Overstated.AGAINST_ANOTHER  # "reduced mortality versus heparin"
    if reordered(claim_text, evidence):
        return Overstated.ORDER
    if any(_swapped(claim, word_sequence(sentence), said) for sentence in evidence):
        return Overstated.SWAPPED
    if not _agent_named(claim, said):
        return Overstated.AGENT
    return None


def _denial_broken(claim_text: str, evidence: list[str]) -> Overstated | None:
    """For a claim that denies ("Metformin does not reduce weight"), the rule under which a
    negated evidence sentence is no firm no to the claim without its denial: a yes to the
    denial is a firm no to what it denies ("did not reduce weight until week 12" is neither)."""
    found = _DENIAL.search(claim_text)
    if found is None:
        return None
    undenied = claim_text[: found.start()] + claim_text[found.end() :]
    for sentence in evidence:
        if any(map(negates, word_sequence(sentence))):
            rule = overstated_no(undenied, sentence)
            if rule is not None:
                return rule
    return None


def _lesser(claim: tuple[str, ...], said: tuple[str, ...]) -> bool:
    """Whether the evidence says a word of the claim only as less than an active other side
    ("less effective than bupropion" for "Varenicline is effective"): less than a drug is
    not itself so; less than placebo or a control is read by the other rules."""
    if "less" in claim:
        return False
    own = set(claim)
    for at, word in enumerate(said):
        if word != "less" or at + 1 >= len(said) or said[at + 1] not in own:
            continue
        rest = said[at + 2 : at + 2 + _LESSER_REACH]
        if "than" in rest and CONTROLS.isdisjoint(rest) and _EXPECTATIONS.isdisjoint(rest):
            return True
    return False


def _said_of_another(claim: tuple[str, ...], sentence: str) -> bool:
    """Whether the sentence states the claim's direction of another subject or in another
    clause than the claim's words (`yes_clauses`), or draws the claim's words from two sides
    of a contrast (`yes_contrasts`)."""
    return (
        other_clause(claim, sentence)
        or drawn_apart(claim, sentence)
        or said_of_control(claim, sentence)
        or other_subject(claim, sentence)
        or scattered(claim, sentence)
        or relative_subject(claim, sentence)
    )


def _in_none(words: tuple[str, ...], claim: tuple[str, ...]) -> bool:
    """Whether the words say the finding held "in none of" or "in neither" of what was
    studied, which the claim drops: no finding at all."""
    return not _states_null(claim) and any(
        word == "in" and words[at + 1] in _NONE for at, word in enumerate(words[:-1])
    )


def _states_null(claim: tuple[str, ...]) -> bool:
    """Whether the claim itself says there was no effect (a negation or a null word)."""
    return any(negates(word) or word.startswith(NULL_WORDS) for word in claim)


def _kin(claim_text: str, evidence: list[str]) -> tuple[str, ...]:
    """The words of the evidence sentences the claim restates: those at least half of whose
    content words the claim uses (all of the evidence where none is). A neighbour cited beside
    the sentence, with a hedge of its own, does not hedge what the claim restates."""
    claim = set(_content(claim_text))
    kin: list[str] = []
    for sentence in evidence:
        content = set(_content(sentence))
        if content and 2 * len(content & claim) >= len(content):
            kin.extend(word_sequence(sentence))
    return tuple(kin) if kin else word_sequence(" ".join(evidence))


def _among(words: tuple[str, ...], kept: frozenset[str]) -> Counter[str]:
    return Counter(word for word in words if word in kept)


def _hedges(words: tuple[str, ...]) -> Counter[str]:
    """The hedge words, and the words that hedge only before "to" ("was expected to reduce",
    "appeared to improve", "was reported to"), "that" ("the label claims that"), or "to" and a
    relation word ("was given to reduce", "has the potential to improve")."""
    hedges = _among(words, HEDGES)
    hedges.update(one for one, two in pairwise(words) if one in HEDGES_BEFORE_TO and two == "to")
    hedges.update(
        one for one, two in pairwise(words) if one in HEDGES_BEFORE_THAT and two == "that"
    )
    hedges.update(
        one
        for one, two, three in zip(words, words[1:], words[2:], strict=False)
        if one in PURPOSES_BEFORE_TO
        and (two == "to" or (two == "for" and three.endswith("ing")))
        and relates(three)
    )
    # A regulator's licence, whatever it is for: "approved for treating depression".
    hedges.update(one for one, two in pairwise(words) if one in LICENSED and two in _FOR_TO)
    # With what it is a candidate for between: "a candidate drug to reduce mortality".
    hedges.update(
        one
        for one, three, four in zip(words, words[2:], words[3:], strict=False)
        if one == _CANDIDATE and three == "to" and relates(four)
    )
    hedges.update(words[at] for at in range(len(words)) if _hedges_subject_to(words, at))
    return hedges


_CANDIDATE = "candidate"
_FOR_TO = frozenset({"for", "to"})
# How many words may name what is hedged between the hedge and its "to".
_HEDGED_SUBJECT = 3


def _hedges_subject_to(words: tuple[str, ...], at: int) -> bool:
    """Whether the word at `at` hedges what follows with its subject between it and "to"
    ("we expected metformin to reduce"), not after "as" or "than" ("as expected")."""
    if words[at] not in HEDGES_BEFORE_SUBJECT_TO or words[at - 1 : at] in (("as",), ("than",)):
        return False
    rest = words[at + 1 : at + 2 + _HEDGED_SUBJECT]
    if "to" not in rest[1:]:
        return False
    between = rest[: rest.index("to")]
    return not any(cue_of(word) or negates(word) or word.endswith("ed") for word in between)


def _dropped(claim_text: str, sentence: str) -> bool:
    """Whether the claim is the sentence's words with a negation or a condition cut out:
    the words on either side of a negation stand side by side in the claim, or the claim
    runs unbroken in the sentence while a condition word stands outside it."""
    claim, said = word_sequence(claim_text), word_sequence(sentence)
    # Both ends marked, so a negation that opens or closes the sentence has two neighbours.
    pairs = set(pairwise(("\x02", *claim, "\x03")))
    ends = ("\x02", *said, "\x03")
    for at, token in enumerate(ends[1:-1], start=1):
        if negates(token) and (ends[at - 1], ends[at + 1]) in pairs:
            return True
    run = find_run(claim, said) if claim else -1
    return run >= 0 and any(
        token in CONDITION_WORDS
        for at, token in enumerate(said)
        if not run <= at < run + len(claim)
    )


def _sides_moved(claim: tuple[str, ...], said: tuple[str, ...]) -> bool:
    """Whether a comparison of the claim sets something else against what it compares: the
    words from each "than" or "versus" of the claim to its first content word are not a run
    of the evidence's words ("than in the lower brainstem" where the evidence has "than in
    the transentorhinal region")."""
    for at, token in enumerate(claim):
        if token not in _COMPARING:
            continue
        end = next((i for i in range(at + 1, len(claim)) if claim[i] not in STOP_WORDS), None)
        side = claim[at : (len(claim) if end is None else end + 1)]
        if find_run(side, said) < 0:
            return True
    return False


def _swapped(claim: tuple[str, ...], sentence: tuple[str, ...], said: tuple[str, ...]) -> bool:
    """Whether the claim is the sentence with a word or two put out for others in the same
    place ("reduced fractures in children" for "… in adults", "necessary" for "sufficient"):
    the words on both sides agree, and the claim says its words more often than the
    evidence does, the sentence its own more often than the claim. Directions, numbers and
    links have rules of their own."""
    ends = ("\x02", *claim, "\x03"), ("\x02", *sentence, "\x03")
    extra_mine, extra_theirs = Counter(claim) - Counter(said), Counter(sentence) - Counter(claim)
    matcher = SequenceMatcher(None, *ends, autojunk=False)
    codes = matcher.get_opcodes()
    for at, (tag, i1, i2, j1, j2) in enumerate(codes):
        # As many words for as many: a paraphrase ("ligand signalling" for "peptide") or an
        # abbreviation ("DCs" for "dendritic cells") is not one word put out for another.
        if tag != "replace" or not (i2 - i1 == j2 - j1 <= 2):
            continue
        # Flanked by agreeing words on both sides: the same slot, another filler.
        if not (codes[at - 1][0] == "equal" and codes[at + 1][0] == "equal"):
            continue
        mine, theirs = ends[0][i1:i2], ends[1][j1:j2]
        if not all(_fills(w) for w in (*mine, *theirs)):
            continue
        # One link for another ("associated" for "linked") states the same link.
        if any(map(_links, mine)) and any(map(_links, theirs)):
            continue
        if any(map(_same_word, mine, theirs)):
            continue
        # Said more often on its own side: a text that says both ("male deaths and … male
        # deaths" against "female deaths and … male deaths") still shows the one that moved.
        if not (Counter(mine) - extra_mine or Counter(theirs) - extra_theirs):
            return True
    return False


# British and American spellings of one word ("randomised", "tumour", "anaemia").
_SPELLINGS = (("ae", "e"), ("oe", "e"), ("our", "or"), ("z", "s"), ("ll", "l"), ("tre", "ter"))


def _same_word(one: str, other: str) -> bool:
    """Whether two words are one word in another form ("accounts", "accounted") or spelt
    two ways ("randomized", "randomised")."""
    if mentions(mention_stem(one), {mention_stem(other)}):
        return True
    for old, new in _SPELLINGS:
        one, other = one.replace(old, new), other.replace(old, new)
    return one == other


def _fills(word: str) -> bool:
    """Whether `word` names what fills a slot: a content word with no rule of its own."""
    return word.isalpha() and word not in STOP_WORDS and cue_of(word) is None and not negates(word)


def _links(word: str) -> bool:
    return link_strength(word) is not None


def _agent_named(claim: tuple[str, ...], said: tuple[str, ...]) -> bool:
    """Whether the evidence names what the claim says acts: some content word before the
    claim's first relation word ("Gliptin decreases risk of kidney failure" against a
    sentence on insulin). One is enough: a sentence names an actor in words of its own
    ("CLEC-2" for "the C-type lectin receptor (CLEC-2)", "a pharmacist on rounds" for
    "pharmacists in rounding teams"). A claim that opens on its relation names none."""
    named = {mention_stem(word) for word in said}
    agent = actor(claim)
    return not agent or any(mentions(mention_stem(word), named) for word in agent)


def _negations(words: tuple[str, ...]) -> Counter[str]:
    return Counter(token for token in words if negates(token))

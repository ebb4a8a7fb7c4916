"""What a no must keep: the rules under which a negation in the evidence is no firm no.

A sentence can hold a negation and still affirm the claim. The negation can deny a
comparison with another active thing ("Atorvastatin did not lower LDL more than
rosuvastatin did", "no less effective than medication", "was not reduced further by adding
clopidogrel"), a whole ("Not all patients responded": some did), a judgement or a failure
("It is not surprising that smoking increases …", "There is no doubt that …", "did not fail
to cure", "not only … but also"), that the literature showed it ("No study has shown that
…"), a quality ("None of the side effects were serious": there were some), or hold in one
scope a later clause answers ("did not lower glucose in the first hour, but did
thereafter"). A sentence that names the claim's actor only as the other side of a comparison
("higher with placebo than with dexamethasone") says nothing against it. A comparison with
placebo or a control is the null finding itself and stays a no. `overstated_no` names the
first rule a no breaks; the stance is then `neither`.
"""

from __future__ import annotations

import re

from engine.core.stance import Overstated
from engine.review.doubt_frames import literature_denied
from engine.review.no_scopes import against_expectation, at_time_point, by_degree, in_subset
from engine.review.weak_grounds import undercut
from engine.review.yes_attributes import changed_attribute
from engine.review.yes_clauses import cues, denied_elsewhere, directions, hedged_no, negates
from engine.review.yes_comparators import in_other_side
from engine.review.yes_conditions import dropped_condition, in_animals_only
from engine.review.yes_contrasts import without_means
from engine.review.yes_figure_sense import figures_for, negative_by
from engine.review.yes_frames import (
    actor_set_aside,
    changed_words,
    one_direction,
    turned_around,
)
from engine.review.yes_near_null import leaned
from engine.review.yes_populations import risk_scoped_only
from engine.review.yes_trends import actor_trended
from engine.text.clause_words import CONTRASTS, LIKEWISE_AUXILIARIES, MODALS_AFTER_POINTER
from engine.text.frame_words import (
    CONTROLS,
    EVALUATIONS,
    EXTRA_WORDS,
    NEGATED_NEGATIVES,
    NULL_COMPARATIVES,
    OTHER_SIDE,
    POPULATION_NOUNS,
    QUALIFIERS,
    SET_ASIDE_MARKERS,
    WHOLE_WORDS,
)
from engine.text.lexicon import CLAUSE_BREAKS, FAIL_WORDS, STOP_WORDS, relation_word
from engine.text.stems import mention_stem, mentions
from engine.text.tokens import word_sequence

Words = tuple[str, ...]
# Comparatives whose denial is of a comparison ("not … more than", "no less … than"); "not
# different from" is a null finding, not a comparison denied.
_COMPARATIVES = (NULL_COMPARATIVES - {"different"}) | {
    "faster", "slower", "sooner", "earlier", "later", "longer", "shorter", "quicker",
}  # fmt: skip
# Words after which the other side of a comparison follows: "did not reduce glucose compared
# with gliclazide" denies a difference from an active drug, not that it reduces glucose.
_COMPARING = frozenset({"compared", "versus", "vs", "relative", "beyond"})
_EXCEPTIONS = frozenset({"except", "excepting", "save"})
# How far after a negation what it denies may stand, and how far after a comparative its
# other side ("not lower LDL cholesterol more than rosuvastatin").
_REACH = 8
_SIDE_REACH = 4
# How far after "none of" the verb of what it denies may stand ("None of the side effects
# of ibuprofen were serious").
_QUANTIFIED_REACH = 14
# Words that carry no quality of their own after "none of the …": the verb the quality follows.
_COPULAS = LIKEWISE_AUXILIARIES | MODALS_AFTER_POINTER | {"been", "be", "being"}
# What names the other side of a comparison; a negation is the no itself, not a side.
_OTHER_SIDE_MARKERS = tuple(m for m in SET_ASIDE_MARKERS if not any(map(negates, m)))
# How far around a negation the group it names and what they went without may stand
# ("patients who did not receive aspirin"), and the words for going without.
_GROUP_REACH = 3
_TAKING = frozenset(
    {"taking", "take", "given", "receiving", "receive", "received", "treated", "using", "use"}
)
# Words a negation just before, with "to" after, denies were shown ("was not shown to").
_SHOWN = frozenset({"shown", "proven", "proved", "demonstrated", "established"})
# A negation of knowing before an open question ("it is not known whether …", "not clear if").
_KNOWN = frozenset({"known", "clear", "certain", "understood", "established", "determined"})
_OPEN = frozenset({"whether", "if"})
# Words passed over to find what a negation denies first: "not a myth", "not the only",
# "cannot be excluded".
_PASSED_OVER = frozenset({"a", "an", "the", "be", "been", "being"})
# What a later clause names what the claim changes by ("…, but reduced it"), and how far
# after its direction word.
_POINTERS = frozenset({"it", "them", "this", "these"})
_OBJECT_REACH = 3
# Where a later clause begins that may answer a denial: "…, but did thereafter".
_LATER = re.compile(r",\s*(?:but|yet)\s+|;\s*(?:but\s+|yet\s+)?", re.IGNORECASE)


def overstated_no(claim_text: str, sentence: str) -> Overstated | None:
    """The rule under which a "no" read off `sentence` is no firm no, else None.

    It comes from a clause about something else (`denied_elsewhere`) or is hedged there
    alone (`hedged_no`); a word of the claim stands only after an exception to it
    (`Overstated.SET_ASIDE`); its words of the other direction are each turned around
    ("prevented the decline" for "increases": `Overstated.DIRECTION`); the claim's actor is
    named only as the other side ("higher with placebo than with dexamethasone" for
    "Dexamethasone reduces mortality": `Overstated.SET_ASIDE`); or every negation of the
    sentence names a group by it ("compared with patients not given aspirin", "seen in
    patients not taking it": `Overstated.GROUP_NEGATED`) or denies something the claim does
    not state: a comparison with an active other side (`Overstated.COMPARED`), a whole
    (`Overstated.PARTIAL`), a judgement or a failure (`Overstated.FRAMED`, first of all where
    a "that" follows: "there is no doubt that …"), that the literature showed it
    (`Overstated.DOUBTED`: "no study has shown that …", "was not shown to"), or a quality the
    claim never names (`Overstated.QUALITY`: "none of the side effects were serious"); or a
    later clause says it did after all (`Overstated.OTHER_CLAUSE`).
    """
    claim, said = word_sequence(claim_text), word_sequence(sentence)
    if denied_elsewhere(claim_text, sentence) or _contrasted(claim, sentence):
        return Overstated.OTHER_CLAUSE
    if hedged_no(claim_text, sentence):
        return Overstated.HEDGE
    if _object_unnamed(word_sequence(without_means(claim_text)), said):
        return Overstated.OTHER_CLAUSE  # "Metformin activated AMPK" for "… lower glucose"
    if risk_scoped_only(claim, [sentence]):
        return Overstated.POPULATION  # "no more bleeding in sepsis" for "… risk of sepsis"
    if actor_trended(claim, [sentence]):
        return Overstated.TREND  # "aspirin use rose while sepsis mortality fell"
    if turned_around(claim, [sentence], against=True):
        return Overstated.DIRECTION  # "prevented the decline" for "increases"
    if negative_by(claim, said):
        return Overstated.DIRECTION  # "increased mortality by -4%" for "reduces"
    if actor_set_aside(claim, [sentence], _OTHER_SIDE_MARKERS):
        return Overstated.SET_ASIDE  # "higher with placebo than with dexamethasone"
    denials = _negations(said)
    if denials and all(in_other_side(said, at) for at in denials):
        return Overstated.GROUP_NEGATED  # "compared with patients not given aspirin"
    if denials and all(_names_a_group(said, at) for at in denials):
        return Overstated.GROUP_NEGATED  # "was seen in patients not taking aspirin"
    framing = _kind(said, denials[0], claim) if denials else None
    if framing in (Overstated.DOUBTED, Overstated.FRAMED) and "that" in said[denials[0] :]:
        return framing  # "there is no doubt that …", "no study has shown that …": a frame
    if undercut(claim_text, sentence):
        return Overstated.DOUBTED  # "the evidence is mixed", "stopped for futility"
    doubled = NEGATED_NEGATIVES - set(claim)  # "not ineffective" is a no to "ineffective?"
    if any(doubled & set(said[at + 1 : at + 1 + _DOUBLED_REACH]) for at in denials):
        return Overstated.FRAMED  # "not ineffective", "not without effect": no denial
    if any(negates(word) for word in claim):
        return None  # a claim that denies is read against the sentence as it stands
    # A time or a part bounds a denial; a direction stated the other way ("increased among
    # women whose …") is read by the rules that read directions.
    if denials and (at_time_point(claim, said) or by_degree(claim, said)):
        return Overstated.QUALITY  # "did not reduce weight at 1 week", "by 5% or more"
    if denials and in_subset(claim, said):
        return Overstated.CONDITION  # "in patients who did not exercise", "post hoc"
    if denials and in_animals_only(claim, [sentence]):
        return Overstated.CONDITION  # "did not reduce mortality in septic mice"
    if figures_for(claim, sentence):
        return Overstated.TAKEN_BACK  # "did not reduce mortality (HR 0.70, 95% CI 0.55-0.89)"
    if denials and leaned(claim, said):
        return Overstated.TAKEN_BACK  # "did not reduce weight, though a trend was noted"
    if against_expectation(claim_text, sentence):
        return Overstated.FRAMED  # "did not reduce weight as expected"
    if _excepted(said, claim):
        return Overstated.SET_ASIDE  # "no effect on colds, except in marathon runners"
    if _quality(said, claim):
        return Overstated.QUALITY  # "none of the side effects were serious"
    if changed_attribute(claim, [sentence]):
        return Overstated.ATTRIBUTE  # "did not reduce glucose variability"
    # "…, but did thereafter", "did not increase it, but reduced it"
    if _done_after(sentence) or _stated_after(claim, sentence):
        return Overstated.OTHER_CLAUSE
    kinds = [_kind(said, at, claim) for at in denials]
    if kinds and all(kinds):
        return kinds[0]
    if denials and dropped_condition(claim, [sentence]):
        return Overstated.CONDITION  # "when given late", "in the absence of heparin", "in vitro"
    return None


def _names_a_group(said: Words, at: int) -> bool:
    """Whether the negation at `at` names who did without something ("patients not taking
    aspirin", "those who did not receive it"), not a finding denied."""
    before = said[max(0, at - _GROUP_REACH) : at]
    after = said[at + 1 : at + 1 + _GROUP_REACH]
    grouped = not POPULATION_NOUNS.isdisjoint(before) or "who" in before
    return grouped and not _TAKING.isdisjoint(after)


def _object_unnamed(claim: Words, said: Words) -> bool:
    """Whether the sentence names none of what the claim's one direction word changes (an
    active claim: "lowers glucose"): its other direction is said of something else."""
    one = one_direction(claim)
    if one is None or (one[0] > 0 and claim[one[0] - 1] in _COPULAS):
        return False  # "is reduced throughout pregnancy": what changes stands before it
    objects = {mention_stem(word) for word in changed_words(claim, one[0])}
    named = {mention_stem(word) for word in said}
    return bool(objects) and not any(mentions(stem, named) for stem in objects)


def _contrasted(claim: Words, sentence: str) -> bool:
    """Whether a word the claim names stands in the sentence only on a side of a contrast
    (`CONTRASTS`: "No reduction was seen with placebo, whereas metformin lowered it") that
    holds no negation and no direction against the claim, while another side holds one: the
    denial is of something else."""
    if any(map(negates, claim)):
        return False  # a claim that denies is read against the sentence as it stands
    pieces = [word_sequence(piece) for piece in CONTRASTS.split(sentence)]
    denying = [piece for piece in pieces if any(map(negates, piece))]
    if len(pieces) < 2 or not denying or len(denying) == len(pieces):
        return False
    # A side without a negation that states the other direction is itself a no.
    against = {(axis, -sign) for axis, sign in directions(claim)}
    if any(against & set(directions(piece)) for piece in pieces if piece not in denying):
        return False
    denied = {mention_stem(word) for piece in denying for word in piece}
    said = {mention_stem(word) for piece in pieces for word in piece}
    return any(
        stem in said and stem not in denied
        for stem in {mention_stem(word) for word in _content(claim)}
    )


def _excepted(said: Words, claim: Words) -> bool:
    """Whether a word of the claim stands only after an exception to the denial ("had no
    effect on cold incidence, except in marathon runners" for "… in marathon runners")."""
    at = next((i for i, word in enumerate(said) if word in _EXCEPTIONS), None)
    if at is None:
        return False
    before, after = set(said[:at]), set(said[at + 1 :])
    return any(
        word in after and word not in before
        for word in claim
        if word not in STOP_WORDS and word.isalpha() and not relation_word(word)
    )


# How far after a negation a second one turns it ("not entirely ineffective").
_DOUBLED_REACH = 2


def _negations(said: Words) -> list[int]:
    """Where the sentence negates: a negation, or a failure word before "to"."""
    return [
        at
        for at, word in enumerate(said)
        if negates(word)
        or (
            word in FAIL_WORDS
            and said[at + 1 : at + 2] == ("to",)
            and not (at and negates(said[at - 1]))  # "did not fail to": one double negation
        )
    ]


def _kind(said: Words, at: int, claim: Words) -> Overstated | None:
    """What the negation at `at` denies, where it is not the claim's finding; else None."""
    after = said[at + 1 : at + 1 + _REACH]
    cut = next((i for i, word in enumerate(after) if word in CLAUSE_BREAKS), len(after))
    after = after[:cut]
    if after[:1] and after[0] in WHOLE_WORDS and after[0] not in claim:
        return Overstated.PARTIAL  # "not all patients responded"
    # What else the negation reaches counts only where it reaches the claim's own words: "but
    # not with differences in severe dysplasia" denies nothing the claim says.
    reaches = bool({mention_stem(w) for w in after} & {mention_stem(w) for w in _content(claim)})
    if reaches and (WHOLE_WORDS & set(after)) - set(claim):
        return Overstated.PARTIAL  # "did not reduce pain in every patient"
    head = [word for word in after if word not in _PASSED_OVER][:2]
    if head[1:] == ["to"] and head[0] in _SHOWN:
        return Overstated.DOUBTED  # "was not shown to reduce": not shown, not not so
    if head[1:2] and head[1] in _OPEN and head[0] in _KNOWN:
        return Overstated.CONDITION  # "it is not known whether": a question, not a no
    head = head[:1]
    if head and (head[0] in EVALUATIONS or head[0] in FAIL_WORDS or head[0] == "only"):
        return Overstated.FRAMED  # "not surprising that", "no doubt that", "not the only"
    if _compared(after, claim) or (reaches and _as_much_as(after, claim)):
        return Overstated.COMPARED
    if reaches and (QUALIFIERS & set(after)) - set(claim):
        return Overstated.QUALITY  # "not serious", "not strongly", "not until the second week"
    if literature_denied(said[at + 1 :]):
        return Overstated.DOUBTED  # "no study has shown that …": not shown, not not so
    return None


def _quality(said: Words, claim: Words) -> bool:
    """Whether the sentence's denial is "none of" (or "neither of") a thing, of a quality
    the claim never names: "None of the side effects of ibuprofen were serious" denies that
    they were serious, and says there were some, for "Does ibuprofen have side effects?".
    The quality is what follows the first verb after the "of" (the verb too, unless it is a
    copula or an auxiliary: "None of the patients improved" denies "improved")."""
    own = {mention_stem(word) for word in claim}
    for at, word in enumerate(said[:-1]):
        if word not in ("none", "neither") or said[at + 1] != "of":
            continue
        reach = said[at + 2 : at + 2 + _QUANTIFIED_REACH]
        cut = next((i for i, w in enumerate(reach) if w in CLAUSE_BREAKS), len(reach))
        reach = reach[:cut]
        verb = next((i for i, w in enumerate(reach) if w in _COPULAS or _verb_form(w)), None)
        if verb is None:
            return False
        quality = reach[verb + 1 :] if reach[verb] in _COPULAS else reach[verb:]
        named = [w for w in quality if w not in STOP_WORDS and w.isalpha()]
        return bool(named) and not any(mention_stem(w) in own for w in named)
    return False


def _verb_form(word: str) -> bool:
    """Whether `word` reads as a past verb or participle ("improved", "developed")."""
    return word.endswith("ed") and len(word) > 4


def _content(words: Words) -> list[str]:
    """The claim's words that name something: not stop words, not relation words."""
    return [w for w in words if w not in STOP_WORDS and w.isalpha() and not relation_word(w)]


def _as_much_as(after: Words, claim: Words) -> bool:
    """Whether the words a negation reaches deny an equal comparison ("did not reduce pain as
    much as pregabalin"), which the claim does not make."""
    if "as" in claim:
        return False
    return any(
        one == "as" and three == "as" and two.isalpha()
        for one, two, three in zip(after, after[1:], after[2:], strict=False)
    )


def _compared(after: Words, claim: Words) -> bool:
    """Whether the words a negation reaches deny a comparison the claim does not make, with
    an active other side: "did not lower LDL more than rosuvastatin", "no less effective
    than medication", "was not reduced further by adding clopidogrel", "did not reduce
    glucose compared with gliclazide"."""
    if OTHER_SIDE.intersection(claim) or EXTRA_WORDS.intersection(claim):
        return False
    for i, word in enumerate(after):
        if word in EXTRA_WORDS:
            return True
        if word in _COMPARING and word not in claim:
            return not CONTROLS.intersection(after[i + 1 : i + 1 + _SIDE_REACH])
        if word in _COMPARATIVES:
            side = after[i + 1 : i + 1 + _SIDE_REACH]
            if OTHER_SIDE.intersection(side):
                return not CONTROLS.intersection(after[i + 1 :])
    return False


def _stated_after(claim: Words, sentence: str) -> bool:
    """Whether a later clause states, with no negation, the direction the claim states of
    what it changes ("did not increase weight, but reduced it" for "reduces weight"): the
    denial was of another direction."""
    wanted = set(directions(claim))
    own = {mention_stem(word) for word in _content(claim)} | _POINTERS
    first, *later = _LATER.split(sentence)
    if not any(map(negates, word_sequence(first))):
        return False  # a no of the other direction stated, not of a denial
    for piece in later:
        words = word_sequence(piece)
        if any(map(negates, words)):
            continue
        for at, cue in cues(words):
            after = {mention_stem(word) for word in words[at + 1 : at + 1 + _OBJECT_REACH]}
            if cue in wanted and own & after:
                return True
    return False


def _done_after(sentence: str) -> bool:
    """Whether a later clause says, elliptically, that it did after all ("…, but did
    thereafter", "…, but it did in women")."""
    for piece in _LATER.split(sentence)[1:]:
        words = word_sequence(piece)
        if words[:1] in (("it",), ("they",)):
            words = words[1:]
        if words[:1] and words[0] in LIKEWISE_AUXILIARIES and not any(map(negates, words)):
            return True
    return False

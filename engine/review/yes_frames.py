"""Where in the evidence a claim's words stand: as the finding, or set aside from it.

A sentence can name every word of a claim and still not say it: "Metformin, unlike aspirin,
lowered the incidence of adenoma" names aspirin only as what the finding is set against;
"Orlistat reduced body weight at 6 weeks but not at 12 months" names 12 months only as
where it did not hold; "…, but the association disappeared after adjustment" goes on to
take the finding back; "Homeopathy improved symptoms no more than placebo" states no
difference. These readers say so for the yes rules (`engine.review.yes_rules`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import pairwise

from engine.core.licensing import find_run, taken_back, withdraws
from engine.review.yes_clauses import cues
from engine.text.clause_words import (
    FINDING_DETERMINERS,
    FINDING_NOUNS,
    LIKEWISE_AUXILIARIES,
    WITHDRAWING_STEMS,
)
from engine.text.frame_words import (
    CONTROLS,
    EXCLUDING_MARKERS,
    EXPECTED_KINDS,
    LASTING,
    OBSERVED,
    SET_ASIDE_MARKERS,
    TURNING_STEMS,
)
from engine.text.lexicon import (
    NEGATIONS,
    STOP_WORDS,
    cue_of,
    relation_word,
)
from engine.text.stems import mention_stem, mentions, plural_fold
from engine.text.tokens import word_sequence

Words = tuple[str, ...]
# Words that may stand between a word that turns a direction around and that direction.
_DETERMINERS = frozenset({"the", "a", "an", "this", "that", "these", "those", "its", "their"})
# Words after which a direction word's reach ends: what follows is compared with, not changed.
COMPARISONS = frozenset({"than", "compared", "versus", "vs"})
# How many content words after a direction word it changes ("decreased body weight").
_CHANGED = 2
# Participles that, after a word, name what caused the change after them ("the
# steroid-induced rise"): passed over to find what turns the change around.
_CAUSED = frozenset({"induced", "mediated", "evoked", "driven", "associated", "related"})
# Words between a word that shields and what it shields from ("protects against the loss").
_SHIELDED_FROM = frozenset({"against", "from"})
# Where a phrase ends in a sentence's text: a marker reaches no further.
PAUSES = re.compile(r"[,;:()\[\]]")


def actor(claim: Words) -> list[str] | None:
    """The content words before the claim's first relation word; None when it has none."""
    agent: list[str] = []
    for word in claim:
        if relates(word):
            return agent
        if word not in STOP_WORDS and word.isalpha() and len(word) > 1:
            agent.append(word)
    return None


def subject(claim: Words) -> list[str]:
    """The claim's actor (`actor`), or its first content word where it has no relation word
    ("Is obesity a risk factor for asthma?")."""
    found = actor(claim)
    if found:
        return found
    return [word for word in claim if word not in STOP_WORDS and word.isalpha()][:1]


def left_taken_back(claim: Words, sentence: str) -> bool:
    """Whether `sentence` goes on to take back what it found and the claim leaves that out.

    Beside the clauses licensing reads (`taken_back`), any later piece after a comma counts,
    a connector before it aside: "…, although the difference did not reach significance",
    "…, as did placebo", "…, a finding not replicated in later trials".
    """
    back = taken_back(sentence)
    if back is not None:
        return find_run(word_sequence(back), claim) < 0
    withdrawn = list(_later_withdrawals(sentence))
    words = word_sequence(sentence)
    if _did_not_last(words) or _lost_on_adjustment(words):
        withdrawn.append(words)
    return any(find_run(words, claim) < 0 for words in withdrawn)


def _lost_on_adjustment(words: Words) -> bool:
    """Whether the sentence says its finding did not hold once adjusted: "before but not
    after adjustment for baseline", "not after correction for multiple comparisons"."""
    for at in range(len(words) - 2):
        if words[at : at + 2] == ("not", "after") and words[at + 2].startswith(_ADJUSTING):
            return True
    return False


# Word beginnings of what a finding is adjusted or corrected by.
_ADJUSTING = ("adjust", "correct", "control", "account")
# Connectors a later piece may open with and still be about what the sentence found.
_CONNECTORS = frozenset({"although", "though", "while", "whilst", "albeit"})
_BARE_BUTS = frozenset({"but", "yet"})
_MIN_CLAUSE = 3
_CLAUSE_OPENERS = frozenset({"and", "but", "yet", "whereas"})
_SCOPES = frozenset({"in", "among", "at", "for", "with", "after", "before", "during"})


def _later_withdrawals(sentence: str) -> Iterator[Words]:
    """Later pieces, past a comma, that name what the sentence found and withdraw it.

    Read narrower than licensing's clauses: a finding noun after its determiner ("the
    difference did not reach significance", "a finding not replicated"), not a bare "it" or
    "this", which past any comma mostly names a thing; or a control that did as well.
    """
    pieces = [
        part for piece in _top_level(sentence) for part in _at_bare_buts(word_sequence(piece))
    ]
    # A piece is later only after one that could state a finding ("Recently, it …" is one).
    first = next((i for i, words in enumerate(pieces) if len(words) >= _MIN_CLAUSE), len(pieces))
    for words in pieces[first + 1 :]:
        if words[:1] and words[0] in _CONNECTORS:
            words = words[1:]
        if len(words) < _MIN_CLAUSE or words[0] in _CLAUSE_OPENERS:
            continue  # licensing reads a clause after "and", "but" or "yet" as its own
        if words[0] == "as" and words[1] in LIKEWISE_AUXILIARIES and CONTROLS.intersection(words):
            yield words  # "as did placebo"
        elif _names_finding(words) and withdraws(words) and not _elsewhere(words):
            yield words


def _at_bare_buts(words: Words) -> list[Words]:
    """The piece, cut before each "but" or "yet" with no comma before it that follows a
    clause ("reduced mortality at 6 months but this difference was lost at 12 months")."""
    parts, start = [], 0
    for at, word in enumerate(words):
        if word in _BARE_BUTS and at - start >= _MIN_CLAUSE:
            parts.append(words[start:at])
            start = at + 1
    return [*parts, words[start:]]


def _elsewhere(words: Words) -> bool:
    """Whether a piece says a finding was not seen in some scope ("an effect not seen in
    women"): the finding is bounded there, not withdrawn."""
    return any(
        one in NEGATIONS and two in OBSERVED and three in _SCOPES
        for one, two, three in zip(words, words[1:], words[2:], strict=False)
    )


def _did_not_last(words: Words) -> bool:
    """Whether a sentence whose subject is a finding says it did not last: "The reduction in
    blood pressure with salt restriction was not sustained"."""
    if len(words) < 2 or words[0] not in FINDING_DETERMINERS or words[1] not in FINDING_NOUNS:
        return False
    return denies_lasting(words)


def denies_lasting(words: Words) -> bool:
    """Whether the words deny that a finding lasted: a negation just before one of `LASTING`
    ("was not sustained", "did not persist", "was not replicated")."""
    return any(
        one in NEGATIONS and LASTING.intersection((two, three))
        for one, two, three in zip(words, words[1:], (*words[2:], ""), strict=False)
    )


def _top_level(sentence: str) -> list[str]:
    """The pieces of `sentence` between commas and semicolons outside brackets."""
    pieces, depth, last = [], 0, 0
    for at, char in enumerate(sentence):
        depth += (char in "([{") - (char in ")]}")
        if char in ",;" and depth <= 0:
            pieces.append(sentence[last:at])
            last = at + 1
    return [*pieces, sentence[last:]]


def _names_finding(words: Words) -> bool:
    return any(
        (one in FINDING_DETERMINERS or one in ("a", "an")) and two in FINDING_NOUNS
        for one, two in pairwise(words)
    )


def set_aside(claim: Words, evidence: list[str]) -> bool:
    """Whether the evidence names the claim's actor, or another word of it, only where it
    sets it aside.

    The actor (the claim's words before its relation) is set aside when every mention of
    every actor word follows one of `SET_ASIDE_MARKERS`, comparisons included ("compared
    with diet alone" for "Diet alone lowers glucose"). Another word of a claim that holds no
    negation is set aside when every mention of it follows one of `EXCLUDING_MARKERS` ("but
    not at 12 months", "without kidney disease"). A marker reaches to the next pause or
    relation word.
    """
    if actor_set_aside(claim, evidence):
        return True
    segments = phrases_of(evidence)
    subject = list(actor(claim) or ())
    if any(word in NEGATIONS for word in claim):
        return False
    own = _framed(claim, EXCLUDING_MARKERS)
    others = {w for at, w in enumerate(claim) if at not in own and _content(w)} - set(subject)
    return any(_all_framed([word], segments, EXCLUDING_MARKERS) for word in sorted(others))


def actor_set_aside(
    claim: Words, evidence: list[str], markers: tuple[Words, ...] = SET_ASIDE_MARKERS
) -> bool:
    """Whether every mention of the claim's actor follows one of `markers` ("Mortality was
    higher with placebo than with dexamethasone" for "Dexamethasone reduces mortality"):
    what the evidence says, it says of the other side."""
    subject = list(actor(claim) or ())
    return _all_framed(subject, phrases_of(evidence), markers)


def _all_framed(words: list[str], segments: list[Words], markers: tuple[Words, ...]) -> bool:
    """Whether `words` are mentioned in `segments`, every mention inside a marker's reach."""
    targets = {mention_stem(word) for word in words}
    if not targets:
        return False
    where = []
    for segment in segments:
        framed = _framed(segment, markers)
        where += [
            at in framed
            for at, said in enumerate(segment)
            if said in words or mentions(mention_stem(said), targets)
        ]
    return bool(where) and all(where)


def governed_against(claim: Words, evidence: list[str]) -> bool:
    """Whether the evidence directs the other way what the claim's one direction word acts
    on: the first words it changes in the claim ("increases body weight") stand in the
    evidence only as the first words a direction word of the same kind and the other sign
    changes ("Metformin increased insulin sensitivity but decreased body weight"; "superior
    for pain but inferior for function"). A negated claim, a claim with more than one
    direction word, and words after "than" or "compared" are not read."""
    one = one_direction(claim)
    if one is None:
        return False
    at, (axis, sign) = one
    objects = changed_words(claim, at)
    segments = phrases_of(evidence)
    for word in sorted(objects):
        governing = [
            _governing(segment, where, axis)
            for segment in segments
            for where, said in enumerate(segment)
            if plural_fold(said) == plural_fold(word)
        ]
        if governing and all(cue is not None and cue != sign for cue in governing):
            return True
    return False


def turned_around(claim: Words, evidence: list[str], *, against: bool = False) -> bool:
    """Whether every direction word of the evidence that says what the claim's one
    direction word says is itself turned around by the word just before it ("Naloxone
    reversed the increase in respiratory depression" for "Naloxone increases respiratory
    depression"; "prevented the rise in …"): a word of the other sign, one that withdraws
    (`WITHDRAWING_STEMS`) or one that stops it (`TURNING_STEMS`), a determiner between them
    aside. `against` reads the direction words of the other sign instead, for a no.
    """
    one = one_direction(claim)
    if one is None:
        return False
    _, (axis, sign) = one
    if against:
        # Read the words of the other sign: "prevented the decline" is no "no" to "increases".
        sign = -sign
    turned = []
    for text in evidence:
        words = word_sequence(text)
        turner_of = {
            at: _turner(words, at, axis, sign) for at, cue in cues(words) if cue == (axis, sign)
        }
        # A word that turns the next one around ("prevented the decline") states no
        # direction of its own, whatever its own sign; nor does a cause's participle just
        # before a direction word ("the steroid-induced rise").
        turners = set(turner_of.values())
        turners |= {at for at in turner_of if words[at] in _CAUSED and at + 1 in turner_of}
        turned += [by is not None for at, by in turner_of.items() if at not in turners]
    return bool(turned) and all(turned)


def one_direction(claim: Words) -> tuple[int, tuple[str, int]] | None:
    """The claim's one direction word (not a presence word) with its axis and sign; None for
    a negated claim or one with none or several (a chain is the direction rules' to read)."""
    if any(word in NEGATIONS for word in claim):
        return None
    found = [(at, cue) for at, cue in cues(claim) if cue[0] != "presence"]
    return found[0] if len(found) == 1 else None


def phrases_of(evidence: list[str]) -> list[Words]:
    """The evidence's phrases: its sentences cut at every pause, as word sequences."""
    return [word_sequence(part) for text in evidence for part in PAUSES.split(text)]


def _turner(words: Words, at: int, axis: str, sign: int) -> int | None:
    """Where the word that turns the direction word at `at` around stands, else None: just
    before it, a determiner, an expected kind or a cause between ("averted the expected
    decline", "reversed the steroid-induced rise"), past "against" or "from" after a word that
    shields ("protects against the loss"), or past one word the change is of after a word
    that stops it ("prevented weight gain")."""
    back, passed = at - 1, 0
    while back >= 0:
        if words[back] in _DETERMINERS or words[back] in EXPECTED_KINDS:
            back -= 1
        elif words[back] in _CAUSED and back > 0:
            back, passed = back - 2, passed + 2
        elif words[back] in _SHIELDED_FROM and back > 0 and _stops(words[back - 1]):
            back, passed = back - 1, passed + 1
        else:
            break
    if _of_noun(words, at) and back == at - 1 and back > 0:
        stop = back - 1
        while stop > 0 and (words[stop] in _DETERMINERS or words[stop] in EXPECTED_KINDS):
            stop -= 1  # "stopped the expected weight gain"
        if _stops(words[stop]):
            back, passed = stop, passed + 1
    if back < 0 or at - back - passed > 3:
        return None
    word = words[back]
    cue = cue_of(word, words[back + 1])
    return back if _turning(word) or (cue is not None and cue == (axis, -sign)) else None


def _turning(word: str) -> bool:
    """Whether a word withdraws or stops the change after it ("reversed", "prevented")."""
    return word.startswith(WITHDRAWING_STEMS) or word.startswith(TURNING_STEMS)


def _stops(word: str) -> bool:
    """Whether a word stops or shields from the change after it ("prevented", "protects")."""
    return word.startswith(TURNING_STEMS)


def _of_noun(words: Words, at: int) -> bool:
    """Whether the direction word at `at` is a noun with the word it is of just before it
    ("weight gain", not "metformin reduced")."""
    before = words[at - 1]
    named = before.isalpha() and before not in STOP_WORDS and cue_of(before) is None
    return named and not words[at].endswith(("ed", "ing"))


def changed_words(words: Words, at: int) -> set[str]:
    """The first `_CHANGED` content words after the direction word at `at`, up to a
    comparison ("than", "compared"): what it changes."""
    out: list[str] = []
    for word in words[at + 1 :]:
        if word in COMPARISONS or len(out) == _CHANGED:
            break
        if names_something(word) and word not in STOP_WORDS and not relates(word):
            out.append(word)
    return set(out)


def _governing(words: Words, at: int, axis: str) -> int | None:
    """The sign of the direction word of `axis` whose first changed words hold the word at
    `at`, when unnegated; None when no such word stands before it."""
    for back in range(at - 1, -1, -1):
        cue = cue_of(words[back], words[back + 1])
        if cue is None or cue[0] != axis:
            continue
        if words[at] not in changed_words(words, back):
            return None
        negated = back > 0 and words[back - 1] in NEGATIONS
        return None if negated else cue[1]
    return None


def _framed(words: Words, markers: tuple[Words, ...]) -> set[int]:
    """The positions that follow one of `markers`, up to the next relation word."""
    out: set[int] = set()
    for at in range(len(words)):
        for marker in markers:
            if words[at : at + len(marker)] != marker:
                continue
            for i in range(at + len(marker), len(words)):
                if relates(words[i]):
                    break
                out.add(i)
    return out


def names_something(word: str) -> bool:
    """Whether a token names something: it holds a letter ("SIRT1", "IL-6", "mice")."""
    return any(char.isalpha() for char in word)


def relates(word: str) -> bool:
    """Whether a word relates topics: a relation word or a direction word."""
    return relation_word(word) or cue_of(word) is not None


def _content(word: str) -> bool:
    return word not in STOP_WORDS and (word.isalpha() or word.isdigit()) and not relates(word)

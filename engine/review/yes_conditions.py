"""Whether a sentence states its finding only under a condition the claim never names.

"In the absence of insulin, glucagon increased hepatic glucose output" says what glucagon
does without insulin; "When given within 3 hours, alteplase improved outcome" says what it
does given early; "In a post hoc analysis, …" what a chosen part of the data showed. A claim
that names none of the condition's words ("Glucagon increases …") says it of every state,
which the sentence does not. A population ("In patients with diabetes, …") is no such
condition: most findings hold of one, and a question that leaves it out still asks what the
finding answers.
"""

from __future__ import annotations

from engine.core.licensing import find_run
from engine.review.yes_frames import PAUSES
from engine.text.frame_words import (
    ANALYSIS_SCOPES,
    ANALYSIS_SUBSETS,
    ANIMAL_WORDS,
    CONDITION_PHRASES,
    DOSE_WORDS,
    HUMAN_WORDS,
    MODEL_SCOPES,
    PROTOCOL_SUBSETS,
    SUBSET_OPENINGS,
    TRANSIENT,
)
from engine.text.lexicon import STOP_WORDS, cue_of
from engine.text.numbers import is_plain_figure
from engine.text.stems import mention_stem, mentions
from engine.text.tokens import word_sequence

Words = tuple[str, ...]
# Words that open a condition on how or when what acts was given ("When given within 3 hours,
# …", "If started early, …"), before a participle; "When compared with placebo" compares.
_TIMING = frozenset({"when", "if", "once", "whenever"})
_NOT_TIMING = frozenset(
    {"compared", "contrasted", "adjusted", "analyzed", "analysed", "considered", "taken", "viewed"}
)
# How near the opening a dose word must stand ("At high doses", "In the highest-dose group");
# further on it is what the sentence measured ("… proportional to the inoculum dose").
_DOSE_REACH = 5
_IN_VIVO = ("in", "vivo")
# Participles of a partner, which the combination rule reads beside what acts.
_PARTNERED = frozenset({"combined", "coadministered", "added"})
# How far after "at" a dose word may stand anywhere in a sentence ("at the lowest dose").
_AT_DOSE_REACH = 3
_EVERY = frozenset({"all", "every", "any", "each", "both"})
# Units after a figure that make it a dose ("at 300 mg").
_DOSE_UNITS = frozenset({"mg", "g", "mcg", "ug", "µg", "ml", "iu", "units", "mmol", "mg/kg"})
# How near a direction word "initially" or "transiently" must stand to time it.
_TRANSIENT_REACH = 2
# How far after "or" the second of "either … or" may be named.
_EITHER_REACH = 4


def dropped_condition(claim: Words, evidence: list[str]) -> bool:
    """Whether a sentence states its finding only under a condition the claim never names.

    A condition runs from one of `CONDITION_PHRASES` to the next pause ("In the absence of
    insulin, glucagon increased …" for "Glucagon increases …"), or is what the sentence
    opens on up to its first pause (`conditional_opening`); a per-protocol subset stands
    anywhere (`PROTOCOL_SUBSETS`: "… among those who adhered to treatment"), as does a dose
    ("at low doses", "at 300 mg"); part of an analysis (`ANALYSIS_SCOPES`: "… in a post hoc
    analysis") and a model of the world (`MODEL_SCOPES`: "… in vitro", "… in simulations")
    hold it back where every sentence names one. A claim naming any
    content word of the condition keeps it.
    """
    said = {mention_stem(word) for word in claim}

    def unnamed(words: Words) -> bool:
        named = [w for w in words if w not in STOP_WORDS and w.isalpha()]
        return bool(named) and not any(mentions(mention_stem(w), said) for w in named)

    sentences = [word_sequence(sentence) for sentence in evidence]
    for sentence, whole in zip(evidence, sentences, strict=True):
        if _transient_or_either(whole, claim):
            return True
        pieces = [word_sequence(piece) for piece in PAUSES.split(sentence)]
        for words in pieces:
            for marker in CONDITION_PHRASES:
                at = find_run(marker, words)
                # "even in the absence of X" says it holds without X too: no condition.
                even = at > 0 and words[at - 1] == "even"
                if at >= 0 and not even and unnamed(words[at + len(marker) :]):
                    return True
        if any(unnamed(timing) for timing in _timings(whole)):
            return True  # "… when taken at night", "… once given with food"
        if any(unnamed(dose) for dose in _doses(whole)):
            return True  # "Alcohol at low doses raised HDL", "Aspirin at 300 mg reduced …"
        head = pieces[0] if len(pieces) > 1 else ()
        opened = conditional_opening(head)
        if opened is not None and unnamed(head[opened:]):
            return True
        if any(_unnamed_marker(marker, whole, said) for marker in PROTOCOL_SUBSETS):
            return True
    if sentences and all(_in_analysis_part(words, said) for words in sentences):
        return True
    # A model holds a finding back only where every sentence found it in one and in no body:
    # an experiment in vitro beside one in mice, or "in vivo and in vitro", found it in one.
    return bool(sentences) and all(_in_model_only(words, said) for words in sentences)


def _in_analysis_part(words: Words, said: set[str]) -> bool:
    """Whether the words say a finding of part of an analysis the claim never names
    (`ANALYSIS_SCOPES`: "… in a post hoc analysis")."""
    return any(_unnamed_marker(marker, words, said) for marker in ANALYSIS_SCOPES)


def in_animals_only(claim: Words, evidence: list[str]) -> bool:
    """Whether every sentence says its finding of animals (`ANIMAL_WORDS`: "in mice",
    "murine") and none of people, and the claim names no animal: a finding in mice answers
    a question that names mice, not one that names no species."""
    said = {mention_stem(word) for word in claim}
    if any(mentions(mention_stem(word), said) for word in ANIMAL_WORDS):
        return False
    sentences = [set(word_sequence(sentence)) for sentence in evidence]
    return bool(sentences) and all(
        not ANIMAL_WORDS.isdisjoint(words) and HUMAN_WORDS.isdisjoint(words) for words in sentences
    )


def _doses(words: Words) -> list[Words]:
    """The dose phrases anywhere in the words: "at" and, within `_AT_DOSE_REACH` words, a dose
    word ("at low doses", "at the highest dose") or a figure and its unit ("at 300 mg")."""
    out = []
    for at, word in enumerate(words):
        if word != "at":
            continue
        # "at the 75 mg dose": an article before the dose counts for no word of its reach.
        start = at + 2 if words[at + 1 : at + 2] in (("the",), ("a",)) else at + 1
        after = words[start : start + _AT_DOSE_REACH]
        if not _EVERY.isdisjoint(after):
            continue  # "at all doses", "at every dose": no condition
        if not DOSE_WORDS.isdisjoint(after):
            out.append(after)
        elif len(after) > 1 and is_plain_figure(after[0]) and after[1] in _DOSE_UNITS:
            out.append(after[:2])
    return out


def _timings(words: Words) -> list[Words]:
    """What follows a timing word and a participle after the sentence's opening ("… when
    taken at night", "… once given with food"), up to the end: how it was given."""
    return [
        words[at + 1 :]
        for at in range(1, len(words) - 1)
        if _timed(words[at], words[at + 1])
        and (words[at + 1] not in _NOT_TIMING or _given(words, at + 1))
        and words[at + 1] not in _PARTNERED
    ]


def _timed(word: str, after: str) -> bool:
    """Whether a timing word and a participle open how or when what acts was given ("when
    given", "if started")."""
    return word in _TIMING and after.endswith(("ed", "en"))


def _given(words: Words, at: int) -> bool:
    """Whether "taken" at `at` says how a drug was taken ("when taken at night"), not how
    findings are read ("when taken together")."""
    return words[at] == "taken" and words[at + 1 : at + 2] != ("together",)


def _in_model_only(words: Words, said: set[str]) -> bool:
    """Whether the words say a finding of a model the claim never names (`MODEL_SCOPES`),
    and not of a living body ("in vivo")."""
    if find_run(_IN_VIVO, words) >= 0:
        return False
    return any(_unnamed_marker(marker, words, said) for marker in MODEL_SCOPES)


def _transient_or_either(words: Words, claim: Words) -> bool:
    """Whether the words say the finding held for a while only ("initially reduced") or of
    one of two unnamed ("Either metformin or exercise reduced …"), which the claim does not."""
    for at, word in enumerate(words):
        near = words[max(0, at - _TRANSIENT_REACH) : at + _TRANSIENT_REACH + 1]
        if word in TRANSIENT and word not in claim and any(cue_of(w) for w in near):
            return True
    if "either" not in words or "either" in claim or "or" not in words:
        return False
    start, end = words.index("either"), words.index("or", words.index("either"))
    named = set(words[start + 1 : end + _EITHER_REACH])
    return any(word in named for word in claim if word not in STOP_WORDS)


def _unnamed_marker(marker: Words, words: Words, said: set[str]) -> bool:
    """Whether `marker` stands in `words` and the claim (its stems `said`) never names its
    last word."""
    return find_run(marker, words) >= 0 and not mentions(mention_stem(marker[-1]), said)


def conditional_opening(head: Words) -> int | None:
    """Where the condition's own words begin when a sentence's opening piece `head` sets one,
    else None: a chosen subset ("Among those who …", `SUBSET_OPENINGS`), a part of the
    analysis ("In a post hoc analysis", `ANALYSIS_SUBSETS`), a dose ("At high doses", "In the
    highest-dose group"), a state ("Under hypoxic conditions") or a timing ("When given
    within 3 hours", "If started early")."""
    for marker in SUBSET_OPENINGS:
        if head[: len(marker)] == marker:
            return len(marker)
    if not head:
        return None
    first = head[0]
    if first == "in" and ANALYSIS_SUBSETS.intersection(head):
        return 1
    if first in ("at", "in") and DOSE_WORDS.intersection(head[:_DOSE_REACH]):
        return 1
    if first == "under" and len(head) > 1:
        return 1
    second = head[1] if len(head) > 1 else ""
    if _timed(first, second) and second not in _NOT_TIMING:
        return 1
    return None

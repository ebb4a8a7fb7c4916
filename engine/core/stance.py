"""The stance of an answer's evidence toward the claim a question states, and the cue behind it.

Review computes both and navigation carries them on the answer, so the values live in the
core both may import. A cue's words are made here, from its fields, for every reader.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class StanceRelation(StrEnum):
    """Whether the evidence supports the claim, contradicts it, or says neither in so many words."""

    SUPPORTS = "supports"
    CONTRADICTS = "contradicts"
    NEITHER = "neither"


class Overstated(StrEnum):
    """The rule that withheld a reading: how a claim says more than the evidence a support was
    read from (the yes withheld), or how a negation there is no firm no (the no withheld)."""

    EXACT = "exact"  # a number, sign, mark, number word or quantifier the evidence lacks
    UNIT = "unit"  # a figure followed by another word than in the evidence ("2 days")
    UNMARKED = "unmarked"  # a mark or negating prefix of the evidence dropped ("Li" for "Li+")
    NEGATION = "negation"  # a negation the evidence lacks
    DROPPED = "dropped"  # a negation or condition of the evidence cut out of its words
    TAKEN_BACK = "taken-back"  # the evidence goes on to take it back ("…, but this vanished")
    NOT_SIGNIFICANT = "not-significant"  # the evidence's own P value or interval says no effect
    PARTIAL = "partial"  # the evidence says it of some ("some", "3 of 10"), the claim of all
    CONDITION = "condition"  # a condition or aim word of the evidence ("whether") left out
    HEDGE = "hedge"  # a hedge of the evidence ("may", "suggest") left out: stated as shown
    DIRECTION = "direction"  # a direction stated more often than in the evidence
    SIDES = "sides"  # a comparison's other side not the evidence's
    AGAINST_ANOTHER = "against-another"  # found only against another treatment, not none
    GROUP_NEGATED = "group-negated"  # a no: its negation names who went without something
    ORDER = "order"  # the evidence's own words, moved around
    SWAPPED = "swapped"  # a word of the evidence put out for another ("children" for "adults")
    OTHER_CLAUSE = "other-clause"  # the clause on the claim's words says otherwise
    SET_ASIDE = "set-aside"  # a word of the claim named only as set aside ("unlike X")
    LOST = "lost"  # the claim's actor named only as lost, blocked or mutated ("X deficiency")
    AGENT = "agent"  # what the claim says acts is never named by the evidence
    ASSOCIATION = "association"  # the evidence reports an association, the claim a change
    TREND = "trend"  # the claim's actor only rises or falls itself ("aspirin use rose")
    COMPARED = "compared"  # a no: the evidence denies a comparison the claim does not make
    FRAMED = "framed"  # a no: the evidence denies a judgement or a failure, not the finding
    NEXT_SENTENCE = "next-sentence"  # the source's next sentence takes it back
    DOUBTED = "doubted"  # the evidence states it inside a frame that doubts it ("a myth that")
    QUALITY = "quality"  # a no: the denial reaches a quality, degree or time the claim lacks
    ATTRIBUTE = "attribute"  # the evidence changes a property of it ("the variance of")
    POPULATION = "population"  # the evidence names it only as who was studied ("with X")
    UNREAD = "unread"  # neither a yes nor a no: the words say neither, as far as they are read

    @property
    def words(self) -> str:
        """Why the yes is withheld, in words about the cited sentence and the claim."""
        return _OVERSTATED_WORDS[self]

    @property
    def label(self) -> str:
        """The same in a few words, for a table cell (the whole reason in its tooltip)."""
        return _OVERSTATED_LABELS[self]


# Why a yes (or a no) was withheld, in words about the cited sentence and the claim.
_OVERSTATED_WORDS = {
    Overstated.EXACT: "the claim states a number, sign, mark or quantity the cited sentence"
    " does not",
    Overstated.UNIT: "the claim gives a figure another unit than the cited sentence does",
    Overstated.UNMARKED: "the claim drops a mark or a negating prefix of the cited sentence",
    Overstated.NEGATION: "the claim holds a negation the cited sentence does not",
    Overstated.DROPPED: "the claim leaves out a negation or a condition of the cited sentence",
    Overstated.TAKEN_BACK: "the cited sentence goes on, in a later clause, to withdraw or"
    " bound what it found; the claim leaves that clause out",
    Overstated.NEXT_SENTENCE: "the next sentence of the cited source points back at what the"
    " cited sentence found and withdraws it (\u201cHowever, this reduction was not"
    " significant\u201d); the answer leaves that sentence out",
    Overstated.NOT_SIGNIFICANT: "the cited sentence's own figures (a P value above 0.05, or an"
    " interval that holds no effect) say the result is not statistically significant; the"
    " claim states it as found",
    Overstated.PARTIAL: "the cited sentence says it of some (\u201csome\u201d, \u201ca few\u201d,"
    " \u201c3 of 10\u201d); the claim says it of all",
    Overstated.CONDITION: "the cited sentence states it under a condition or as a question to"
    " test, which the claim leaves out",
    Overstated.HEDGE: "the cited sentence hedges it (it may be, or is suggested); the claim"
    " states it as shown",
    Overstated.DIRECTION: "the claim states a direction (up or down, better or worse) the"
    " cited sentence does not",
    Overstated.SIDES: "the claim compares other things than the cited sentence compares",
    Overstated.AGAINST_ANOTHER: "the cited sentence finds it only against another treatment or"
    " group (\u201cversus clopidogrel\u201d), not against none; the claim names no such"
    " comparison",
    Overstated.ORDER: "the claim puts the cited sentence's words in another order, so who does"
    " what to whom may differ",
    Overstated.SWAPPED: "the claim puts another word where the cited sentence has one of its own"
    " (another group, part, role or degree)",
    Overstated.OTHER_CLAUSE: "the cited sentence says it in a clause about something else; the"
    " clause on what the claim names does not say the same",
    Overstated.SET_ASIDE: "the cited sentence names a word of the claim only as what its finding"
    " is set against or leaves out (\u201cunlike \u2026\u201d, \u201ccompared with"
    " \u2026\u201d, \u201cbut not \u2026\u201d, \u201cwithout \u2026\u201d)",
    Overstated.LOST: "the cited sentence speaks of what the claim says acts only as lost, removed,"
    " blocked or mutated (\u201cX deficiency\u201d, \u201cknockdown of X\u201d,"
    " \u201cinhibition of X\u201d, \u201cmutations in X\u201d), which turns what it does"
    " around or makes it another thing; the claim speaks of it present",
    Overstated.AGENT: "the cited sentence never names what the claim says acts (its subject)",
    Overstated.ASSOCIATION: "the cited sentence reports an association (\u201cassociated with"
    " \u2026\u201d, \u201clinked to \u2026\u201d); the claim says one thing changes the"
    " other, which an association does not show",
    Overstated.TREND: "the cited sentence says only that what the claim says acts rose or"
    " fell itself (\u201caspirin use rose\u201d, \u201cas prescriptions increased\u201d) while"
    " something else moved: two trends side by side, which show neither that one changed the"
    " other nor which way",
    Overstated.GROUP_NEGATED: "the cited sentence's negation names a group, those who went"
    " without something (\u201cpatients not given aspirin\u201d), and denies no finding",
    Overstated.COMPARED: "the cited sentence denies a comparison with something else"
    " (\u201cnot more than \u2026\u201d, \u201cno less effective than \u2026\u201d,"
    " \u201cnot further by adding \u2026\u201d), which the claim does not make",
    Overstated.FRAMED: "the cited sentence denies how its finding is judged or a failure"
    " (\u201cit is not surprising that \u2026\u201d, \u201cdid not fail to \u2026\u201d,"
    " \u201cnot only \u2026\u201d), not the finding itself",
    Overstated.DOUBTED: "the cited sentence states it only inside words that deny or doubt it"
    " (\u201cit is a myth that \u2026\u201d, \u201cfew studies have shown that \u2026\u201d,"
    " \u201cno study has shown that \u2026\u201d), not as found",
    Overstated.ATTRIBUTE: "the cited sentence changes a property of what the claim names"
    " (\u201cthe variance of \u2026\u201d, \u201cthe time to \u2026\u201d, \u201cthe"
    " decline in \u2026\u201d), not the thing itself",
    Overstated.POPULATION: "the cited sentence names what the claim says changes only as who"
    " was studied (\u201cdeath in patients with diabetes\u201d, \u201cmortality among stroke"
    " patients\u201d), not as what changed",
    Overstated.UNREAD: "no direction, negation, null result or figure in the cited sentence"
    " reads as a yes or a no to it, so what the sentence says of it is for a reader to judge",
    Overstated.QUALITY: "the cited sentence's negation reaches something the claim does not"
    " say (a quality, a degree, a time or a dose: \u201cnone of the side effects were"
    " serious\u201d, \u201cnot strongly\u201d, \u201cnot until the second week\u201d),"
    " which it may deny instead of the finding",
}


# Why a yes (or a no) was withheld, in a few words: "not a yes: " and one of these.
_OVERSTATED_LABELS = {
    Overstated.EXACT: "a number or quantity the sentence lacks",
    Overstated.UNIT: "another unit",
    Overstated.UNMARKED: "a mark or prefix dropped",
    Overstated.NEGATION: "a negation the sentence lacks",
    Overstated.DROPPED: "a negation or condition dropped",
    Overstated.TAKEN_BACK: "taken back in a later clause",
    Overstated.NEXT_SENTENCE: "taken back by the next sentence",
    Overstated.NOT_SIGNIFICANT: "not significant by its own figures",
    Overstated.PARTIAL: "said of some, not all",
    Overstated.CONDITION: "stated under a condition",
    Overstated.HEDGE: "hedged in the sentence",
    Overstated.DIRECTION: "another direction",
    Overstated.OTHER_CLAUSE: "said of another subject",
    Overstated.SET_ASIDE: "named only as set aside",
    Overstated.LOST: "named only as lost, blocked or mutated",
    Overstated.SIDES: "other sides compared",
    Overstated.AGAINST_ANOTHER: "found only against another treatment",
    Overstated.GROUP_NEGATED: "a negation naming a group",
    Overstated.ORDER: "the words in another order",
    Overstated.SWAPPED: "another word in its slot",
    Overstated.AGENT: "its actor never named",
    Overstated.ASSOCIATION: "an association, not a change shown",
    Overstated.TREND: "two trends side by side",
    Overstated.COMPARED: "a comparison denied, not the finding",
    Overstated.FRAMED: "a judgement denied, not the finding",
    Overstated.DOUBTED: "doubted by its own frame",
    Overstated.QUALITY: "a quality, degree or time denied",
    Overstated.ATTRIBUTE: "a property of it changed, not it",
    Overstated.POPULATION: "named only as who was studied",
    Overstated.UNREAD: "neither said in its words",
}


def withheld_reading(withheld: Overstated | None, *, withheld_no: bool) -> str:
    """Which reading a rule withheld, in words: "yes", "no", or "yes or no" where the words
    read as neither (`Overstated.UNREAD`)."""
    if withheld is Overstated.UNREAD:
        return "yes or no"
    return "no" if withheld_no else "yes"


class ContradictionCue(StrEnum):
    """What in the aligned texts disagrees."""

    NUMBER = "number"  # a different number for the same quantity
    DIRECTION = "direction"  # opposite direction words on the same aligned terms
    NEGATION = "negation"  # one side negates what the other states
    NULL_RESULT = "null-result"  # no effect on one side, an effect on the other
    NONE = "none"  # nothing specific stands out

    @property
    def label(self) -> str:
        """The cue in words, for a reviewer."""
        return _LABELS[self]


_LABELS = {
    ContradictionCue.NUMBER: "changed number on the same quantity",
    ContradictionCue.DIRECTION: "opposite direction on the same aligned terms",
    ContradictionCue.NEGATION: "negation",
    ContradictionCue.NULL_RESULT: "null result against an effect",
    ContradictionCue.NONE: "no specific cue",
}


class CueShape(StrEnum):
    """How a sentence stands against a claim, word by word."""

    NUMBER = "number"  # a different number for the same quantity
    DIRECTION = "direction"  # the opposite direction word over the same terms
    AGREEMENT = "agreement"  # the same direction word over the same terms
    NEGATED_ONE_SIDE = "negated-one-side"  # a direction word negated on one side only
    NO_EFFECT = "no-effect"  # the sentence reports no effect where the claim asserts one
    AN_EFFECT = "an-effect"  # the sentence reports an effect where the claim asserts none
    NEGATION = "negation"  # the sentence puts a negation on what the claim states
    NONE = "none"  # nothing explicit


_KINDS = {
    CueShape.NUMBER: ContradictionCue.NUMBER,
    CueShape.DIRECTION: ContradictionCue.DIRECTION,
    CueShape.NEGATED_ONE_SIDE: ContradictionCue.NEGATION,
    CueShape.NO_EFFECT: ContradictionCue.NULL_RESULT,
    CueShape.AN_EFFECT: ContradictionCue.NULL_RESULT,
    CueShape.NEGATION: ContradictionCue.NEGATION,
}


@dataclass(frozen=True)
class Cue:
    """The explicit cue a stance or contradiction rests on: its shape and the words compared.

    `theirs` is the sentence's word or number, `mine` the claim's; `in_claim` says which
    side a one-sided negation is on.
    """

    shape: CueShape
    theirs: str = ""
    mine: str = ""
    in_claim: bool = False

    @property
    def kind(self) -> ContradictionCue:
        """The contradiction family the cue belongs to (`none` for agreement or no cue)."""
        return _KINDS.get(self.shape, ContradictionCue.NONE)

    @property
    def explicit(self) -> bool:
        """Whether the sentence states the opposite word or another number outright."""
        return self.shape in (CueShape.NUMBER, CueShape.DIRECTION)

    def __bool__(self) -> bool:
        return self.shape is not CueShape.NONE

    def words(self, subject: str = "the claim") -> str:
        """The cue as a phrase about the sentence, naming the other text as `subject`."""
        shape = self.shape
        if shape is CueShape.NUMBER:
            return f"gives {self.theirs} where {subject} gives {self.mine} for the same quantity"
        if shape is CueShape.DIRECTION:
            return f'says "{self.theirs}" where {subject} says "{self.mine}"'
        if shape is CueShape.AGREEMENT:
            return f'says "{self.theirs}" as {subject} says "{self.mine}"'
        if shape is CueShape.NEGATED_ONE_SIDE:
            if self.in_claim:
                return f'says "{self.theirs}" where {subject} negates it'
            return f'negates "{self.theirs}" where {subject} does not'
        if shape is CueShape.NO_EFFECT:
            return f"reports no effect where {subject} asserts one"
        if shape is CueShape.AN_EFFECT:
            return f"reports an effect where {subject} asserts none"
        if shape is CueShape.NEGATION:
            return f'puts "{self.theirs}" on what {subject} states'
        return ""


NO_CUE = Cue(CueShape.NONE)
_READINGS = {
    StanceRelation.SUPPORTS: "yes",
    StanceRelation.CONTRADICTS: "no",
    StanceRelation.NEITHER: "mixed",
}
_DENIED_READINGS = {
    StanceRelation.SUPPORTS: "denied too",
    StanceRelation.CONTRADICTS: "stated, not denied",
}


@dataclass(frozen=True)
class Stance:
    """Whether the answer's evidence supports or contradicts the claim a question states.

    `cue` is what decided it; `evidence` is the cited sentence compared. Shown beside the
    router's verdict; it never makes an answer greener (a relation it cannot read keeps a
    yes/no question's answer from green: see `engine.api`).
    """

    relation: StanceRelation
    cue: Cue
    confidence: float
    evidence: str = ""
    # How often a stance like this one was right, out of fold ("about 7 in 10 at this
    # confidence were right …"), or "" when nothing was measured for it.
    measured: str = ""
    # A contradiction from a confidence band right too rarely out of fold to call it one.
    tension: bool = False
    # The question asked yes or no (rather than stating a claim): the stance is its answer.
    asked: bool = False
    # Why a support was read as neither: how the claim says more than the evidence.
    overstated: Overstated | None = None
    # The reading `overstated` withheld was a no (the sentence's negation is no firm no).
    withheld_no: bool = False
    # The question asked a denial ("Does aspirin not reduce stroke?"): `reading` stays the
    # answer to it as asked, and words for people say which holds instead (`answer_words`).
    denied: bool = False

    @property
    def phrase(self) -> str:
        """What decided the stance, in plain words about the source and the question."""
        if self.overstated is not None:
            return self.overstated.words
        if not self.cue and self.relation is StanceRelation.SUPPORTS:
            return "the cited sentence says what the claim says, in words of its own"
        if not self.cue:
            return "the cited sentence neither confirms nor denies the claim in so many words"
        return "the source " + self.cue.words("the question")

    @property
    def withheld_reading(self) -> str:
        """Which reading `overstated` withheld, in words: "no", "yes" or "yes or no"."""
        return withheld_reading(self.overstated, withheld_no=self.withheld_no)

    @property
    def brief(self) -> str:
        """What decided the stance in a few words where a rule withheld it, else `phrase`."""
        if self.overstated is not None:
            return f"not a {self.withheld_reading}: {self.overstated.label}"
        return self.phrase

    def to_dict(self) -> dict[str, Any]:
        return {
            "relation": self.relation.value,
            "cue": self.phrase,
            "cue_kind": self.cue.shape.value,
            "confidence": round(self.confidence, 4),
            "evidence": self.evidence,
            "measured": self.measured,
            "tension": self.tension,
            "asked": self.asked,
            "overstated": None if self.overstated is None else self.overstated.value,
            "withheld_no": self.withheld_no,
            "reading": self.reading,
            "denied": self.denied,
        }

    @property
    def reading(self) -> str:
        """The stance as the answer to a yes/no question: yes, no or mixed."""
        return _READINGS[self.relation]

    @property
    def answer_words(self) -> str:
        """The reading in words for people: yes, no or mixed; for a question that asks a
        denial, what the source does instead ("denied too", "stated, not denied"), since
        "no" to "Does aspirin not reduce stroke?" is read both ways."""
        if self.denied and self.relation in _DENIED_READINGS:
            return _DENIED_READINGS[self.relation]
        return self.reading

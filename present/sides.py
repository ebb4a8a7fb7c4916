"""The words for a triage decision: which side of a contradiction a reviewer says is wrong.

The one place a `TriageDecision` becomes words for people: the buttons, the queue's state
column, the log and the message after a click read from here (the marks: `present.markup`).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine import TriageDecision, TriageEntry

# The triage buttons, in the order shown: the side a decision names, and its value.
TRIAGE_CHOICES = (
    ("The literature claim is contested", TriageDecision.CONFIRMED),
    ("Our practice note is wrong", TriageDecision.PRACTICE_WRONG),
    ("Both stand: scope differs", TriageDecision.SCOPE_DIFFERS),
    ("Not a contradiction", TriageDecision.DISMISSED),
    ("Follow up later", TriageDecision.FOLLOW_UP),
)
# Not a side: it takes the pair back to unreviewed, as a new line of the log.
RESET_LABEL = "Reset to unreviewed"
_WORDS = {decision: label for label, decision in TRIAGE_CHOICES} | {
    TriageDecision.RESET: RESET_LABEL
}
# What each decision does to the router, said once beside the buttons.
_EFFECTS = {
    TriageDecision.CONFIRMED: "the canon claim is contested wherever an answer cites it",
    TriageDecision.PRACTICE_WRONG: (
        "the canon claim stays grounded; the practice note is flagged wherever it is cited"
    ),
    TriageDecision.SCOPE_DIFFERS: "neither side is contested",
    TriageDecision.DISMISSED: "neither side is contested",
    TriageDecision.FOLLOW_UP: "nothing changes until someone decides",
    TriageDecision.RESET: "the pair is unreviewed again; earlier decisions stay in the log",
}


def decision_words(value: str) -> str:
    """A stored decision as a reviewer reads it; "unreviewed" for none, as-is if unknown."""
    if not value:
        return "unreviewed"
    try:
        return _WORDS[TriageDecision(value)]
    except ValueError:
        return value


def decision_effect(value: str) -> str:
    """What a decision does to answers, in a clause."""
    try:
        return _EFFECTS[TriageDecision(value)]
    except ValueError:
        return ""


def reviewer_words(by: str) -> str:
    """A reviewer as named in the log; lines from before reviewers were named say so."""
    return by or "an unnamed reviewer"


def disagreement_words(standing: Sequence[TriageEntry], acting: str) -> str:
    """One line saying that reviewers disagree on a pair, who said what and when, and what
    acts until they agree; "" when they do not disagree."""
    if len({entry.decision for entry in standing}) < 2:
        return ""
    said = "; ".join(
        f"{reviewer_words(e.by)} ({e.at[:16].replace('T', ' ')} UTC): "
        f"{decision_words(e.decision.value).lower()}"
        for e in standing
    )
    return (
        f"Reviewers disagree on this pair — {said}. Until they agree, the more cautious "
        f"decision acts: {decision_words(acting).lower()}."
    )

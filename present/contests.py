"""The contradictions on an answer's cited sources, as the answer's banner discloses them."""

from __future__ import annotations

from dataclasses import dataclass

from engine import (
    Answer,
    ReviewState,
    shorten,
)
from present.markup import esc

_STATE_WORDS = {
    "confirmed": "confirmed by a reviewer",
    "unreviewed": "unreviewed",
    "follow-up": "marked for follow-up, not confirmed",
    "practice-wrong": "a reviewer marked our practice note as the wrong side",
}


@dataclass(frozen=True)
class ContestLine:
    """One contradiction on a cited source: which note contests which, its state and edge."""

    edge_id: str
    text: str
    contests: bool
    link_label: str  # for a link to the edge in the claim matrix


def contest_lines(result: Answer) -> tuple[ContestLine, ...]:
    """A line per contradiction touching the answer's cited nodes, contesting ones first."""
    items = result.contests.items if result.contests else ()
    lines = []
    for item in items:
        found = item.contradiction
        state = _STATE_WORDS.get(found.state.value, found.state.value)
        if found.state is ReviewState.PRACTICE_WRONG:
            effect = "the canon claim stands; this practice note is the wrong side"
        elif found.contests:
            effect = "contests it"
        else:
            effect = "does not contest it until confirmed"
        cue = f", cue: {found.cue}" if found.cue and found.cue != "none" else ""
        sure = f", confidence {found.confidence:.2f}" if found.confidence is not None else ""
        practice, canon = found.key.practice_address, found.key.canon_address
        text = (
            f"“{shorten(item.practice_title, 70)}” ({practice}) "
            f"contradicts {'the cited' if item.cited == canon else 'the canon'} "
            f"“{shorten(item.canon_title, 70)}” "
            f"({canon}): {state}{sure}{cue}; {effect}."
        )
        link = (
            f"Review in the claim matrix: “{shorten(item.practice_title, 40)}” × "
            f"“{shorten(item.canon_title, 40)}”"
        )
        lines.append(ContestLine(found.key.token, text, found.contests, link))
    return tuple(sorted(lines, key=lambda line: not line.contests))


def contests_summary(result: Answer) -> str:
    """The one-line summary of the disclosure, or "" when nothing touches the cited nodes."""
    return result.contests.summary() if result.contests else ""


def contests_html(result: Answer) -> str:
    """The disclosure as an escaped list, or "" when there is nothing to disclose."""
    lines = contest_lines(result)
    if not lines:
        return ""
    items = "".join(
        f"<li class='contest-{'on' if line.contests else 'off'}'>{esc(line.text)}</li>"
        for line in lines
    )
    return (
        "<div class='contest-disclosure' style='font-size:0.9em'>"
        f"<b>{esc(contests_summary(result))}</b><ul style='margin:4px 0'>{items}</ul></div>"
    )


def review_note(result: Answer) -> str:
    """Says when the answer was re-routed after, or predates, a change to what it rests on."""
    if result.rerouted and result.files_changed:
        return "Re-routed: a note or source it rests on changed on disk since it was first asked."
    if result.files_changed:
        return (
            "Stale: a note or source it rests on changed on disk after this answer; ask again "
            "for a verdict on the files as they are now."
        )
    if result.rerouted:
        return "Re-routed after a triage decision on a pair it cites."
    if result.review_stale:
        return (
            "Stale: a triage decision on a pair it cites came after this answer; ask again "
            "for a verdict that honours it."
        )
    return ""

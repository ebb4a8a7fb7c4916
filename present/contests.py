"""The contradictions on an answer's cited sources, as the answer's banner discloses them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.core.text import shorten
from present.markup import esc

_STATE_WORDS = {
    "confirmed": "confirmed by a reviewer",
    "unreviewed": "unreviewed",
    "follow-up": "marked for follow-up, not confirmed",
}


@dataclass(frozen=True)
class ContestLine:
    """One contradiction on a cited source: which note contests which, its state and edge."""

    edge_id: str
    text: str
    contests: bool
    link_label: str  # for a link to the edge in the claim matrix


def contest_lines(result: Mapping) -> tuple[ContestLine, ...]:
    """A line per contradiction touching the answer's cited nodes, contesting ones first."""
    items = ((result.get("contests") or {}).get("items")) or []
    lines = []
    for item in items:
        state = _STATE_WORDS.get(item.get("state"), str(item.get("state")))
        effect = "contests it" if item.get("contests") else "does not contest it until confirmed"
        confidence = item.get("confidence")
        cue = f", cue: {item['cue']}" if item.get("cue") and item["cue"] != "none" else ""
        sure = f", confidence {confidence:.2f}" if isinstance(confidence, int | float) else ""
        text = (
            f"“{shorten(item.get('practice_title', ''), 70)}” ({item.get('practice')}) "
            f"contradicts the cited “{shorten(item.get('canon_title', ''), 70)}” "
            f"({item.get('canon')}): {state}{sure}{cue}; {effect}."
        )
        link = (
            f"Review in the claim matrix: “{shorten(item.get('practice_title', ''), 40)}” × "
            f"“{shorten(item.get('canon_title', ''), 40)}”"
        )
        edge = str(item.get("edge_id", ""))
        lines.append(ContestLine(edge, text, bool(item.get("contests")), link))
    return tuple(sorted(lines, key=lambda line: not line.contests))


def contests_summary(result: Mapping) -> str:
    """The one-line summary of the disclosure, or "" when nothing touches the cited nodes."""
    return str((result.get("contests") or {}).get("summary") or "")


def contests_html(result: Mapping) -> str:
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


def review_note(result: Mapping) -> str:
    """Says when the answer was re-routed after, or predates, a triage decision; else ""."""
    if result.get("rerouted"):
        return "Re-routed after a triage decision on a pair it cites."
    if result.get("review_stale"):
        return (
            "Stale: a triage decision on a pair it cites came after this answer; ask again "
            "for a verdict that honours it."
        )
    return ""

"""How a reviewer walks the triage queue: Next to the following open pair, Previous back.

A decision re-sorts a pending-first queue (the decided pair drops to the end), so both walk
the order the reviewer saw (`walked`), not the order shown after the decision; pairs shown
now but not walked come after it.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence


def walk_order(walked: Sequence[str], shown: Sequence[str], now: str | None) -> list[str]:
    """The pairs shown, in the order walked when `now` is part of that walk."""
    order = [t for t in walked if t in shown] if now in walked else []
    return order + [t for t in shown if t not in order]


def next_open(
    walked: Sequence[str], shown: Sequence[str], open_pairs: Collection[str], now: str | None
) -> str | None:
    """The pair "Next" moves to: the first open pair after `now`, wrapping round.

    Returns `now` when no other pair is open (the first shown pair when nothing is selected).
    """
    order = walk_order(walked, shown, now)
    start = order.index(now) + 1 if now in order else 0
    ahead = order[start:] + order[:start]
    following = next((t for t in ahead if t in open_pairs and t != now), None)
    return following or now or (order[0] if order else None)


def previous_pair(
    walked: Sequence[str], shown: Sequence[str], triaged: Collection[str], now: str | None
) -> str | None:
    """The pair "Previous" moves back to: the triageable pair before `now`, decided or not,
    wrapping round, so the pair just decided can be looked at again (or reset).

    `triaged` holds the pairs a reviewer triages (contradictions and possible tensions).
    Returns `now` when no other pair is triageable (the last one when nothing is selected).
    """
    order = walk_order(walked, shown, now)
    at = order.index(now) if now in order else len(order)
    behind = list(reversed(order[:at])) + list(reversed(order[at:]))
    earlier = next((t for t in behind if t in triaged and t != now), None)
    return earlier or now or (order[-1] if order else None)

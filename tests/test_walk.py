"""Walking the triage queue: Next to the following open pair, Previous back to the last one."""

import pytest

from engine.review.walk import next_open, previous_pair


@pytest.mark.parametrize(
    ("walked", "shown", "open_pairs", "now", "following"),
    [
        ("abcd", "acdb", "ac", "b", "c"),
        ("abcd", "acdb", "a", "d", "a"),
        ("", "abcd", "ac", "b", "c"),
        ("abcd", "abcd", "c", None, "c"),
        ("ab", "abe", "ae", "b", "e"),
        ("abcd", "abcd", "c", "c", "c"),
    ],
    ids=["after-the-decided", "wraps-round", "no-walk", "nothing-selected", "new-row", "none-open"],
)
def test_next_goes_to_the_next_open_pair_after_the_one_decided(
    walked: str, shown: str, open_pairs: str, now: str | None, following: str
) -> None:
    assert next_open(list(walked), list(shown), set(open_pairs), now) == following


@pytest.mark.parametrize(
    ("walked", "shown", "triaged", "now", "earlier"),
    [
        ("abcd", "acdb", "abcd", "c", "b"),
        ("abcd", "abcd", "bd", "a", "d"),
        ("", "abcd", "abc", "c", "b"),
        ("abcd", "abcd", "bc", None, "c"),
        ("abcd", "abcd", "c", "c", "c"),
        ("abcd", "abcd", "", None, "d"),
    ],
    ids=["the-one-just-decided", "wraps-round", "no-walk", "nothing-selected", "alone", "none"],
)
def test_previous_goes_back_to_the_pair_before_decided_or_not(
    walked: str, shown: str, triaged: str, now: str | None, earlier: str
) -> None:
    assert previous_pair(list(walked), list(shown), set(triaged), now) == earlier

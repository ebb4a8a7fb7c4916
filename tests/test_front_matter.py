"""Splitting a note into front matter and body: the fences, line by line."""

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.workspace.front_matter import split_front_matter

# The definition the splitter keeps: one pattern, a lazy body, the first closing fence.
DEFINITION = re.compile(r"\A---[ \t]*\r?\n(.*?)^(?:---|\.\.\.)[ \t]*\r?$\n?", re.S | re.M)


def by_definition(text: str) -> tuple[str, str] | None:
    match = DEFINITION.match(text)
    return None if match is None else (match.group(1), text[match.end() :])


CASES = {
    "plain": ("---\nid: a\n---\nBody.\n", ("id: a\n", "Body.\n")),
    "dots-close": ("---\nid: a\n...\nBody.", ("id: a\n", "Body.")),
    "empty": ("---\n---\nBody.", ("", "Body.")),
    "crlf-and-blanks": ("--- \r\nid: a\r\n---\t\r\nBody.", ("id: a\r\n", "Body.")),
    "closes-at-the-end": ("---\nid: a\n---", ("id: a\n", "")),
    "indented-fence-is-text": (
        "---\nid: a\n ---\nb: c\n---\nBody.",
        ("id: a\n ---\nb: c\n", "Body."),
    ),
    "fence-with-text-is-text": ("---\nid: ---x\n---x\n---\n", ("id: ---x\n---x\n", "")),
    "never-closed": ("---\nid: a\nBody.\n", None),
    "no-opening": ("id: a\n---\n", None),
    "opening-not-first": ("\n---\nid: a\n---\n", None),
}


@pytest.mark.parametrize(("text", "expected"), CASES.values(), ids=CASES.keys())
def test_front_matter_is_what_lies_between_the_first_two_fences(
    text: str, expected: tuple[str, str] | None
) -> None:
    assert split_front_matter(text) == expected == by_definition(text)


@given(st.lists(st.sampled_from(["---", "...", "\n", "\r", " ", "\t", "a", "-", ".", "x: y"])))
@settings(max_examples=400, deadline=None)
def test_the_splitter_agrees_with_its_definition(pieces: list[str]) -> None:
    text = "".join(pieces)
    assert split_front_matter(text) == by_definition(text)
    assert split_front_matter("---\n" + text) == by_definition("---\n" + text)

"""Structured-abstract headings: "BACKGROUND …", "METHODS AND RESULTS …" become sections.

Many abstracts in SciFact run their section headings into the first sentence of each
section. The importer splits the heading off, so a sentence quoted as an answer starts
with what it says, and the heading becomes the section the sentence belongs to.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.text.lexicon import SECTION_HEADING_WORDS

_WORD = "(?:" + "|".join(sorted(SECTION_HEADING_WORDS, key=len, reverse=True)) + ")"
_JOIN = r"(?:\s*[&/]\s*|\s+(?:AND|OF|FOR)\s+|\s+)"
# A heading: heading words joined by spaces, "AND", "OF", "&" or "/", then an optional colon,
# then the sentence itself, which must not start with another capitalised heading word.
_HEADING = re.compile(rf"^({_WORD}(?:{_JOIN}{_WORD})*)\b\s*:?\s+(?=\S)")


@dataclass(frozen=True)
class Sectioned:
    """A sentence with its heading split off; `section` is "" when it had none."""

    section: str
    text: str


def split_heading(sentence: str) -> Sectioned:
    """Split a leading structured-abstract heading off a sentence, if it has one."""
    match = _HEADING.match(sentence)
    if match is None:
        return Sectioned("", sentence)
    rest = sentence[match.end() :]
    if not rest or not any(ch.isalnum() for ch in rest):
        return Sectioned("", sentence)
    return Sectioned(_name(match.group(1)), rest)


def sectioned(sentences: list[str]) -> list[Sectioned]:
    """Each sentence with its heading split off and the running section carried forward."""
    out, current = [], ""
    for sentence in sentences:
        item = split_heading(sentence)
        current = item.section or current
        out.append(Sectioned(current, item.text))
    return out


def _name(heading: str) -> str:
    """ "METHODS AND RESULTS" -> "Methods and results"; "BACKGROUND & AIMS" keeps the "&"."""
    words = " ".join(heading.split()).lower()
    return words[:1].upper() + words[1:]

"""Where a folded quote stands in a folded source: whole, unnegated, and found cheaply.

A quote counts where it cuts neither a word nor a number and does not start just after a
negation that governs it. Most quotes are copied as the source writes them, so where the
quote is written is found first in the text as given, and only a window around it is
folded: the fold is local wherever a text is cut between two ASCII letters or digits (no
white space run, line-break hyphen, combining mark, superscript or final sigma reaches
over such a cut), so the window's fold is a piece of the whole fold. What the checks read
around an occurrence (a sign up to 57 characters back, a negation 24, marks a few ahead)
must lie inside the window, or the whole source is folded after all.
"""

from __future__ import annotations

import re

from engine.core.quote_fold import fold
from engine.core.typos import negation
from engine.text.fold import local_cut
from engine.text.numbers import sign_start
from engine.text.tokens import marks_end

# How far the checks read around an occurrence in the fold: back (a sign, then the number
# before it that makes it a range) and ahead (marks glued after the last token).
_READ_BEFORE = 64
_READ_AFTER = 8


def found_in_window(fulltext: str, needle: str) -> bool:
    """Whether `needle` stands whole and unnegated in the fold of `fulltext`, shown by folding
    only a window around where it is written. False says nothing: fold the whole source.

    `needle` is a folded quote (`quote_fold.fold`, lower case). Where it is written is found
    in the text lower-cased (characters outside ASCII as `?`, one for one, so offsets stay
    those of the text given).
    """
    if fulltext.isascii():
        at = fulltext.lower().find(needle)
    else:
        written = fulltext.encode("ascii", "replace").lower()
        at = written.find(needle.encode("ascii", "replace"))
    if at < 0:
        return False
    start = local_cut(fulltext, at - _READ_BEFORE - 16, -1)
    end = local_cut(fulltext, at + len(needle) + _READ_AFTER + 8, 1)
    if start is None or end is None:
        return False
    window = fold(fulltext[start:end]).text
    pos = find_unnegated(window, needle)
    if pos < 0:
        return False
    room_before = start == 0 or pos >= _READ_BEFORE
    room_after = end == len(fulltext) or len(window) - pos - len(needle) >= _READ_AFTER
    return room_before and room_after


def find_whole(haystack: str, needle: str) -> int:
    """First position of needle that does not cut through a word or a number, or -1."""
    pos = haystack.find(needle)
    while pos >= 0 and not _whole(haystack, pos, pos + len(needle)):
        pos = haystack.find(needle, pos + 1)
    return pos


# A negation is looked for among the last characters before an occurrence.
_NEGATION_REACH = 24


def _word_before(text: str, pos: int) -> str:
    """The word ending just before `pos` (spaces, not a line break, between), or "".

    Letters and digits with at most one inner apostrophe (`don't`), read within
    `_NEGATION_REACH` characters. Matched on the window read backwards: a regex anchored
    at the end of a window is tried from every start in it, quadratic in the window.
    """
    floor = max(0, pos - _NEGATION_REACH)
    end = pos
    while end > floor and text[end - 1] != "\n" and text[end - 1].isspace():
        end -= 1
    found = _WORD_BACKWARDS.match(text[floor:end][::-1])
    return "" if found is None else text[end - found.end() : end]


# A word written backwards: letters and digits, then at most one apostrophe and more of them.
_WORD_BACKWARDS = re.compile(r"[^\W_]+(?:'[^\W_]+)?")


def find_unnegated(haystack: str, needle: str) -> int:
    """First whole occurrence of needle not cut from just after a negation, or -1.

    "association was detected" is in "No association was detected", but quoting it drops
    the negation that governs it, so that occurrence does not count.
    """
    pos = find_whole(haystack, needle)
    while pos >= 0:
        if not negation(_word_before(haystack, pos)):
            return pos
        pos = haystack.find(needle, pos + 1)
        while pos >= 0 and not _whole(haystack, pos, pos + len(needle)):
            pos = haystack.find(needle, pos + 1)
    return -1


def _whole(text: str, start: int, end: int) -> bool:
    # Cut neither words nor numbers: "5 mg" must not confirm "2.5 mg", "-5 mg", "− 5 mg" or
    # "5.5 mg"; nor drop the marks after a token: "40′" is not "40″", "ER" is not "ER⁻".
    ahead, behind = text[max(0, start - 2) : start].rjust(2), text[end : end + 2].ljust(2)
    first, last = text[start], text[end - 1]
    word = (first.isalnum() and ahead[1].isalnum()) or (last.isalnum() and behind[0].isalnum())
    signed = ahead[1] == "-" or sign_start(text, start) < start
    lead = first.isdigit() and (signed or (ahead[1] in ".," and ahead[0].isdigit()))
    tail = last.isdigit() and behind[0] in ".," and behind[1].isdigit()
    return not (word or lead or tail or marks_end(text, end) > end)

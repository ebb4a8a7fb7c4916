"""Verify that a quoted passage really occurs in a source's full text."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import KW_ONLY, asdict, dataclass
from enum import StrEnum
from functools import lru_cache
from itertools import accumulate

from rapidfuzz import fuzz

from engine.core.errors import ConfigError
from engine.core.quote_find import find_unnegated, find_whole, found_in_window
from engine.core.quote_fold import Folded as _Folded
from engine.core.quote_fold import fold as _fold
from engine.core.quote_fold import fold_cached as _fold_cached
from engine.core.typos import negation, same_marks, typo_in
from engine.core.values import quick_init
from engine.text.controls import bidi_controls, control_names
from engine.text.memo import TextMemo
from engine.text.numbers import sign_start
from engine.text.tokens import marks_end

DEFAULT_FUZZY_FLOOR = 90.0
ANNOTATION_COVERAGE = 90.0

# A word keeps inner apostrophes and hyphens, and a "treat- ment" split left by text
# extraction, so word counts compare like for like.
_TOKEN = re.compile(r"(?:(?<!\w)-)?\d+(?:[.,]\d+)*|[^\W_]+(?:(?:'|- ?)[^\W_]+)*|[<>=±≤≥%+/×~∼^]")
_NOTE = (
    r"(?:(?:my|reader'?s?|editor'?s?)\s+)?(?:(?:note|nb|comment|emphasis\s+(?:added|mine|ours)"
    r"|italics\s+(?:added|mine))\b|n\.\s?b\.|ed\.)"
)
# Matched at a given opening bracket or dash, never searched for from every position: a
# search ending in `$` re-scans the rest of the text at each candidate (quadratic).
_NOTE_OPEN = re.compile(rf"\s*{_NOTE}")
_DASH_NOTE = re.compile(rf"\s-{{1,2}}\s*{_NOTE}\s*:")
_TOKEN_SPLIT = re.compile(f"({_TOKEN.pattern})")
_SIC = re.compile(r"\s*[\[(]sic!?[\])]")
# A fuzzy match costs about the quote's length times the candidate windows; past this the
# quote must match exactly or as a highlight.
MAX_FUZZY_QUOTE_CHARS = 2000


class MatchMethod(StrEnum):
    """How a quote was, or was not, found in the source."""

    EXACT = "exact"
    FUZZY = "fuzzy"
    ANNOTATION = "annotation"
    NONE = "none"
    UNAVAILABLE = "unavailable"
    REFUSED = "refused"


@quick_init
@dataclass(frozen=True)
class QuoteMatch:
    """The verdict on one quote against one source text.

    `page` is 1-based (form feeds separate pages); on failure it is the near miss's page.
    `near_miss` is set only on failure: the closest source window, in the source's own
    wording with whitespace collapsed. `confirmed_source_text` is the normalised quote
    for `exact`, the highlight text for `annotation`, the source's own span at the match
    (its spelling, whitespace collapsed) for `fuzzy`, otherwise None.
    """

    verified: bool
    method: MatchMethod
    score: float
    page: int | None = None
    _: KW_ONLY
    near_miss: str | None = None
    confirmed_source_text: str | None = None
    reason: str | None = None

    @classmethod
    def unavailable(cls) -> QuoteMatch:
        """No source text to check against; this is not a refutation."""
        return cls(False, MatchMethod.UNAVAILABLE, 0.0)

    @classmethod
    def refused(cls, reason: str) -> QuoteMatch:
        """The quote cannot be compared as it is displayed; this is not a refutation."""
        return cls(False, MatchMethod.REFUSED, 0.0, reason=reason)

    @classmethod
    def exact(cls, needle: str, page: int) -> QuoteMatch:
        return cls(True, MatchMethod.EXACT, 100.0, page, confirmed_source_text=needle)

    @classmethod
    def annotation(cls, highlight: str, *, score: float, page: int | None) -> QuoteMatch:
        return cls(True, MatchMethod.ANNOTATION, score, page, confirmed_source_text=highlight)

    @classmethod
    def fuzzy(cls, score: float, page: int, span: str | None = None) -> QuoteMatch:
        return cls(True, MatchMethod.FUZZY, score, page, confirmed_source_text=span)

    @classmethod
    def not_found(
        cls,
        *,
        score: float = 0.0,
        page: int | None = None,
        near_miss: str | None = None,
        reason: str | None = None,
    ) -> QuoteMatch:
        return cls(False, MatchMethod.NONE, score, page, near_miss=near_miss, reason=reason)

    def to_dict(self) -> dict[str, object]:
        """The seven fields as JSON-ready values."""
        return {**asdict(self), "method": self.method.value}


@dataclass(frozen=True)
class _Tokens:
    words: list[str]
    starts: list[int]
    ends: list[int]
    postings: dict[str, list[int]]
    by_prefix: dict[str, list[int]]


def verify_quote(
    body: str,
    fulltext: str | None,
    annotations: Sequence[Mapping[str, object]] | None = None,
    *,
    fuzzy_floor: float | None = None,
) -> QuoteMatch:
    """Check `body` against `fulltext`: exact, then a highlight in `annotations`, then fuzzy.

    Both sides are normalised (NFKC, quotes, dashes, line-break hyphenation, whitespace,
    case) and a trailing reader note or `[sic]` is dropped from the quote. Fuzzy matching
    forgives only in-word typos: numbers, negations, antonyms and word counts must agree.
    """
    floor = DEFAULT_FUZZY_FLOOR if fuzzy_floor is None else float(fuzzy_floor)
    if not 0.0 <= floor <= 100.0:
        raise ConfigError(f"fuzzy_floor must be between 0 and 100, got {fuzzy_floor!r}")
    if fulltext is None or not fulltext.strip():
        return QuoteMatch.unavailable()
    # Other format characters (a zero-width space) are compared like any character.
    controls = bidi_controls(body)
    if controls:
        return QuoteMatch.refused(
            f"the quote holds invisible bidirectional controls ({control_names(controls)}) "
            "that change the order it is displayed in; text is compared as displayed"
        )
    needle = quote_needle(body)
    if not _TOKEN.search(needle):
        return QuoteMatch.not_found()
    # Without page breaks every exact match is on page 1: where the quote is written, a
    # window folded around it settles most quotes without folding the whole source.
    if "\f" not in fulltext and found_in_window(fulltext, needle):
        return QuoteMatch.exact(needle, 1)
    source = _fold_cached(fulltext)
    if (pos := find_unnegated(source.text, needle)) >= 0:
        return QuoteMatch.exact(needle, _page(fulltext, source.original(pos)))
    hit = _annotation_match(needle, annotations or (), fulltext)
    if hit is not None:
        return hit
    if len(needle) > MAX_FUZZY_QUOTE_CHARS:
        return QuoteMatch.not_found(
            reason=f"quote is {len(needle):,} characters, over the {MAX_FUZZY_QUOTE_CHARS:,}"
            " that fuzzy matching takes; only an exact or highlighted match counts"
        )
    return _fuzzy_match(needle, fulltext, floor, said=body)


def _needle(body: str) -> str:
    """The normalised quote that is searched for, with reader notes and `[sic]` removed.

    A note is a trailing `[...]` or `(...)` group that opens with note, my note, nb, n.b.,
    ed., comment or emphasis/italics added, or a trailing ` - note: ...` (any dash).
    Surrounding quotation marks and leading or trailing ellipses are dropped too.
    """
    text = _fold(body).text.strip()
    # The pattern opens on optional white space, so a scan tries it at every character: a
    # quick look for its word (the fold is lower case) spares the scan in nearly every quote.
    if "sic" in text:
        text = _SIC.sub("", text)
    # Work on [start, end) of the text rather than on slices, so stripping many notes one
    # after another stays linear in the quote's length.
    start, end = 0, len(text)
    # The leftmost dash note (stripping never adds one). The fold leaves no white space but
    # single spaces, so a note's opening " -" is looked for first, in C.
    dash = _DASH_NOTE.search(text) if " -" in text else None
    while True:
        if dash is not None and dash.start() < start:
            dash = _DASH_NOTE.search(text, start, end)
        note = _note_tail_start(text, start, end, dash)
        inner = _edges(text, start, end if note is None else note)
        if inner == (start, end):
            return text[start:end]
        start, end = inner


def _note_tail_start(text: str, start: int, end: int, dash: re.Match[str] | None) -> int | None:
    """Where a trailing reader note of text[start:end] starts (spaces before it included).

    A bracketed note is looked for only among the openers after the last inner closing
    bracket, and a dash note is the leftmost one the caller found, so no scan runs from
    every position to the end.
    """
    starts = []
    if dash is not None and dash.end() <= end:
        starts.append(dash.start())
    closer = text[end - 1] if end > start else ""
    if closer in ("]", ")"):
        opener = "[" if closer == "]" else "("
        inner = max(text.rfind(closer, start, end - 1) + 1, start)
        pos = text.find(opener, inner, end - 1)
        while pos >= 0:
            if _NOTE_OPEN.match(text, pos + 1, end):
                starts.append(pos)
                break
            pos = text.find(opener, pos + 1, end - 1)
    if not starts:
        return None
    first = min(starts)
    while first > start and text[first - 1].isspace():
        first -= 1
    return first


def _edges(text: str, start: int, end: int) -> tuple[int, int]:
    """[start, end) without surrounding spaces, quotation marks and ellipses (linear)."""
    while start < end:
        if text[start].isspace() or text[start] in "\"'":
            start += 1
        elif text.startswith("...", start, end):
            start += 3
        else:
            break
    while end > start:
        if text[end - 1].isspace() or text[end - 1] in "\"'":
            end -= 1
        elif text.endswith("...", start, end):
            end -= 3
        else:
            break
    return start, end


# A quote is checked whenever an answer citing it is routed: its needle is kept by content.
quote_needle = TextMemo(_needle, entries=4096, chars=1_000_000)


def _page(fulltext: str, orig_pos: int) -> int:
    return fulltext.count("\f", 0, orig_pos) + 1


def _annotation_match(
    needle: str, annotations: Sequence[Mapping[str, object]], fulltext: str
) -> QuoteMatch | None:
    # A highlight confirms the quote when the quote is the highlight plus at most some
    # punctuation at its ends, the highlight covers ANNOTATION_COVERAGE percent of it, and
    # the highlight itself is in the source. A highlight that contains the quote needs no
    # rule of its own: the quote is then in the source and was already found exactly.
    source = _fold_cached(fulltext)
    best: QuoteMatch | None = None
    for note in annotations:
        raw = note.get("text") if isinstance(note, Mapping) else None
        if not isinstance(raw, str):
            continue
        highlight = _fold(raw).text.strip()
        pos = needle.find(highlight) if highlight else -1
        coverage = round(100.0 * len(highlight) / len(needle), 2)
        rest = needle[:pos] + needle[pos + len(highlight) :]
        if pos < 0 or coverage < ANNOTATION_COVERAGE or any(ch.isalnum() for ch in rest):
            continue
        where = find_whole(source.text, highlight)
        if where >= 0 and (best is None or coverage > best.score):
            page = note.get("page")
            page = int(page) if isinstance(page, str) and page.strip().isdigit() else page
            if not isinstance(page, int) or isinstance(page, bool) or page < 1:
                page = _page(fulltext, source.original(where))
            best = QuoteMatch.annotation(raw.strip(), score=coverage, page=page)
    return best


@lru_cache(maxsize=4)
def _tokens_cached(fulltext: str) -> _Tokens:
    # Splitting keeps separators, so running lengths give every token's offsets without
    # building a match object per token (three times faster on a book).
    pieces = _TOKEN_SPLIT.split(_fold_cached(fulltext).text)
    offsets = list(accumulate(map(len, pieces)))
    words = pieces[1::2]
    postings: dict[str, list[int]] = {}
    for i, word in enumerate(words):
        postings.setdefault(word, []).append(i)
    by_prefix: dict[str, list[int]] = {}
    for word, where in postings.items():
        by_prefix.setdefault(word[:3], []).extend(where)
    return _Tokens(words, offsets[0::2][: len(words)], offsets[1::2], postings, by_prefix)


def _fuzzy_match(needle: str, fulltext: str, floor: float, *, said: str = "") -> QuoteMatch:
    source = _fold_cached(fulltext)
    tokens = _tokens_cached(fulltext)
    spans = [m.span() for m in _TOKEN.finditer(needle)]
    words = [needle[a:b] for a, b in spans]
    lead, trail = spans[0][0], len(needle) - spans[-1][1]
    n = len(words)
    best: tuple[float, int] | None = None
    ranked: list[tuple[int, int]] = []
    for s in _candidate_starts(words, tokens):
        window = tokens.words[s : s + n]
        ranked.append((-sum(map(str.__eq__, words, window)), s))
        if (
            len(window) == n
            and all(typo_in(w, x, tokens.postings) for w, x in zip(words, window, strict=True))
            and not _shifted(words, tokens.words, s)
        ):
            text = source.text[max(0, tokens.starts[s] - lead) : tokens.ends[s + n - 1] + trail]
            score = round(fuzz.ratio(needle, text), 2)
            better = best is None or score > best[0]
            if (
                score >= floor
                and better
                and _keeps_meaning(said or needle, fulltext, source, tokens, (s, n))
            ):
                best = (score, s)
    if best is not None:
        s = best[1]
        lo = source.original(max(0, tokens.starts[s] - lead))
        hi = source.original(min(len(source.text), tokens.ends[s + n - 1] + trail))
        # The source's own span at the match, in its own spelling: what the check confirmed.
        span = " ".join(fulltext[lo:hi].split())
        return QuoteMatch.fuzzy(best[0], _page(fulltext, lo), span)
    return _near_miss(needle, fulltext, sorted(ranked)[:5], n) if ranked else QuoteMatch.not_found()


def _shifted(words: list[str], source: list[str], start: int) -> bool:
    """Whether the window at `start` differs from the quote at an edge word that the source
    has verbatim just outside it: a dropped or added word passing as a typo."""
    end = start + len(words)
    before = start > 0 and words[0] != source[start] and source[start - 1] == words[0]
    after = end < len(source) and words[-1] != source[end - 1] and source[end] == words[-1]
    return before or after


def _candidate_starts(words: list[str], tokens: _Tokens) -> list[int]:
    # Any word the quote got right pins the window; the rarest four (and at most some
    # thousands of windows) keep the work small on a book.
    # Without one, fall back to words sharing a three-letter prefix with a quote word.
    limit = len(tokens.words) - len(words)
    for index, key_of in ((tokens.postings, str), (tokens.by_prefix, lambda w: w[:3])):
        keys = sorted({key_of(w) for w in words} & index.keys(), key=lambda k: (len(index[k]), k))
        starts: set[int] = set()
        for key in keys[:4]:
            if len(starts) > 4000:
                break
            for i, word in enumerate(words):
                if key_of(word) == key:
                    starts.update(p - i for p in index[key])
        if starts:  # clamped, so a quote longer than the source still gets a near miss
            return sorted({min(max(s, 0), max(limit, 0)) for s in starts})
    return []


def _near_miss(needle: str, fulltext: str, ranked: list[tuple[int, int]], n: int) -> QuoteMatch:
    source = _fold_cached(fulltext)
    tokens = _tokens_cached(fulltext)
    best = (-1.0, 0, 0)
    for _, s in ranked:
        # A dropped or added word shifts the true window by one token either way.
        for a in (s - 1, s, s + 1):
            for b in sorted({min(a + n + d, len(tokens.words)) for d in (-1, 0, 1)}):
                if 0 <= a < b:
                    score = fuzz.ratio(needle, source.text[tokens.starts[a] : tokens.ends[b - 1]])
                    if score > best[0]:
                        best = (score, a, b)
    score, a, b = best
    start = source.original(tokens.starts[a])
    text = " ".join(fulltext[start : source.original(tokens.ends[b - 1])].split())
    return QuoteMatch.not_found(score=round(score, 2), page=_page(fulltext, start), near_miss=text)


def _keeps_meaning(
    said: str, fulltext: str, source: _Folded, tokens: _Tokens, window: tuple[int, int]
) -> bool:
    """Whether a fuzzy window says what the quote says: same marks, no negation cut off.

    Marks are read from the texts as written (case tells the marker ER- from a split word).
    """
    start, n = window
    # Only a word right before the window (spaces between, no punctuation) governs it.
    gap = source.text[tokens.ends[start - 1] : tokens.starts[start]] if start > 0 else "."
    if not gap.strip() and negation(tokens.words[start - 1]):
        return False
    # The window takes the sign before its first token and the marks after its last, so a
    # quote that drops them ("1.2%" of "− 1.2%", "40′" of "40″") is told apart.
    first = sign_start(source.text, tokens.starts[start])
    last = marks_end(source.text, tokens.ends[start + n - 1])
    lo, hi = source.original(first), source.original(last)
    return same_marks(_cased_needle(said), fulltext[lo:hi])


def _cased_needle(body: str) -> str:
    """The quote as written, trimmed of surrounding quotation marks and ellipses."""
    text = _SIC.sub("", body.strip())
    start, end = _edges(text, 0, len(text))
    return text[start:end]

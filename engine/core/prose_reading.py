"""How the prose of an answer is read: its sentences, and each one's words when needed.

The prose is split once by the one splitter and kept by content; a sentence read alone (the
common case: plain white space between sentences, each ending with a terminator) takes its
words from the memo by content, and only when a comparison or a finding needs them, so a
sentence that copies its claim is settled by its text and never tokenised. Otherwise the
whole prose is tokenised once and its tokens grouped by sentence.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property

from engine.core.values import quick_init
from engine.text.memo import TextMemo
from engine.text.sentences import Span, sentences
from engine.text.tokens import TokenSpan, token_spans, word_sequence

Words = tuple[str, ...]


@quick_init
@dataclass(frozen=True)
class ProseSentence:
    """A prose sentence with its word sequence; its tokens are read only when needed.

    A sentence read alone (`given` None) takes its tokens from the memo by content when a
    finding needs them, placed at `offset` in the prose; its word sequence is licensing's
    own, so a sentence licensing already read is not tokenised again.
    """

    span: Span
    text: str
    offset: int
    read: Words | None = None  # the word sequence, when the whole prose was read at once
    given: tuple[TokenSpan, ...] | None = None

    @cached_property
    def seq(self) -> Words:
        """The word sequence, read when first asked for."""
        return self.read if self.read is not None else _sequence(self.text)

    @cached_property
    def has_words(self) -> bool:
        """Whether the sentence holds a word or number, without reading it when that shows.

        An ASCII letter or digit is never folded away and always starts or sits in a token.
        """
        if self.read is None and _ASCII_WORD.search(self.text):
            return True
        return bool(self.seq)

    @cached_property
    def local(self) -> tuple[TokenSpan, ...]:
        """The tokens, spans relative to `offset`."""
        return self.given if self.given is not None else _SENTENCE_TOKENS(self.text)[0]

    @cached_property
    def words(self) -> tuple[TokenSpan, ...]:
        """The tokens with their spans in the prose."""
        at = self.offset
        if not at:
            return self.local
        return tuple(TokenSpan(t.norm, t.is_number, t.start + at, t.end + at) for t in self.local)


def read_prose(prose: str) -> tuple[ProseSentence, ...]:
    """The sentences of the prose, covering every token; each read when first asked for."""
    # Text that folds away entirely (zero-width characters) still counts as one sentence.
    spans = _PROSE_SPANS(prose) or (Span(0, len(prose)),)
    if _alone(prose, spans):
        return tuple(ProseSentence(one, prose[one.start : one.end], one.start) for one in spans)
    starts = [span.start for span in spans]
    grouped: list[list[TokenSpan]] = [[] for _ in spans]
    for token in token_spans(prose):
        grouped[max(0, bisect.bisect_right(starts, token.start) - 1)].append(token)
    return tuple(
        ProseSentence(span, prose[span.start : span.end], 0, _norms(words), tuple(words))
        for span, words in zip(spans, grouped, strict=True)
    )


def _norms(words: Iterable[TokenSpan]) -> Words:
    return tuple(token.norm for token in words)


def _read_alone(text: str) -> tuple[tuple[TokenSpan, ...], Words]:
    words = tuple(token_spans(text))
    return words, _norms(words)


def _sequence(text: str) -> Words:
    # ASCII text folds to itself, and then `word_sequence` reads exactly the norms
    # `token_spans` reads: licensing's memo serves, with no spans built.
    return word_sequence(text) if text.isascii() else _SENTENCE_TOKENS(text)[1]


# Prose restates claims, and claims recur from answer to answer: a sentence is tokenised
# once and kept by content with its word sequence; the same answer's prose is split once.
_SENTENCE_TOKENS = TextMemo(_read_alone, entries=4096, chars=500_000)
_PROSE_SPANS = TextMemo(sentences, entries=1024, chars=1_000_000)
_ASCII_WORD = re.compile(r"[A-Za-z0-9]")


def _alone(prose: str, spans: Sequence[Span]) -> bool:
    """Whether each sentence's words read alone are its words read in the whole prose.

    Alone is the same as in place when only ASCII white space lies between and around the
    sentences, each starts with an ASCII character and all but the last end with a
    terminator: no token reaches over a sentence's edge, what a token looks back at (a
    digit before a dash) is never in the previous sentence, and every run of characters
    the fold rewrites lies inside one sentence, folded as it is in place.
    """
    done = 0
    for i, span in enumerate(spans):
        text = prose[span.start : span.end]
        gap = prose[done : span.start]
        if (gap.strip() or not gap.isascii() or not text[:1].isascii()) or (
            i < len(spans) - 1 and not _ends_terminated(text)
        ):
            return False
        done = span.end
    rest = prose[done:]
    return not rest.strip() and rest.isascii()


def _ends_terminated(text: str) -> bool:
    """Whether `text` ends with a terminator, closing quotes or brackets after it.

    Read from the end: a pattern anchored at the end of a text is tried from every start.
    """
    return text.rstrip("\"')]").endswith((".", "!", "?"))

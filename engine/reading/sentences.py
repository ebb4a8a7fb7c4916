"""The sentences of a note or a source, as both wings read them: what the reasoner may
restate and what alignment compares. The core's splitter finds the sentence ends; a heading
or a first title line stands alone, and fragments of fewer than three words are left out.
"""

from __future__ import annotations

from functools import lru_cache

from engine.core import text as _text


@lru_cache(maxsize=8192)
def sentences_of(text: str) -> tuple[str, ...]:
    """The sentences of a note, verbatim; a heading or a first title line stands alone."""
    out = []
    for span in _text.sentences(text):
        piece = text[span.start : span.end]
        head, newline, rest = piece.partition("\n")
        titled = newline and (span.start == 0 or head.lstrip().startswith("#"))
        for part in (head, rest) if titled else (piece,):
            part = part.strip().lstrip("#").strip()
            if len(_text.tokens(part)) >= 3:
                out.append(part)
    return tuple(out)

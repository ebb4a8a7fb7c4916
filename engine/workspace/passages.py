"""Passages: the full text of every source, split into quotable, page-cited pieces of evidence.

Each `sources/<key>.txt` (pages split by form feeds; text from PDFs, Zotero attachments,
abstracts as `<key>.abstract.txt`, SciFact abstracts) is cut into sentences, and the
sentences of one page are grouped into passages of a few sentences. A passage is a canon
note of the reserved box `~passages` (`zk:~passages:<key>~p<page>~<n>`): its body is the
passage, each sentence is a quote of the source with its page, and its citekey is the
source's, so the quote check confirms every sentence against the source text itself, and
a restatement of one is licensed exactly as a hand-made highlight is.

A passage repeats nothing a note already quotes: sentences quoted by a canon note of the
same source are left out (a SciFact abstract quoted sentence by sentence gives none), and
an abstract's sentences found again in its paper's text are left out of the abstract (the
paper cites the page). The offsets and the passages' layout are cached per user
(`engine.workspace.passage_cache`); the notes themselves are made a source at a time when
something first reads one (`engine.workspace.passage_notes`), so a library opens without
making hundreds of thousands of them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from collections.abc import Set as AbstractSet
from pathlib import Path

import numpy as np

from engine.text.sentences import Span, is_furniture, sentences
from engine.text.tokens import word_sequence
from engine.workspace.notes import Note, Store
from engine.workspace.passage_cache import Layout, PassageCache, digest_texts
from engine.workspace.passage_notes import (
    PASSAGE_CHARS,
    PASSAGE_SENTENCES,
    LaidSource,
    PassageNotes,
)
from engine.workspace.source_texts import ABSTRACT_SUFFIX, SourceText, paper_key, read_sources

_LETTER = re.compile(r"[^\W\d_]")
_PARAGRAPH = re.compile(r"\n[ \t\r\v]*\n")


def split_sentences(text: str) -> np.ndarray:
    """The sentences of a source text, page by page (pages split by form feeds), as an
    n × 3 array of start, end (offsets into `text`) and 1-based page.

    A paragraph that is furniture (a heading, a table row, a caption: `is_furniture`)
    gives none: it is not evidence, and a passage never joins it to prose.
    """
    out = []
    start = 0
    for page, chunk in enumerate(text.split("\f"), start=1):
        for span in prose_spans(chunk):
            out.append((start + span.start, start + span.end, page))
        start += len(chunk) + 1
    return np.array(out, dtype=np.int64).reshape(-1, 3)


def prose_spans(chunk: str) -> list[Span]:
    """The sentences of one page that are prose: none of a furniture paragraph, each with a
    letter in it."""
    furniture = [(lo, hi) for lo, hi in _paragraphs(chunk) if is_furniture(chunk[lo:hi].strip())]
    return [
        span
        for span in sentences(chunk)
        if _LETTER.search(chunk, span.start, span.end)
        and not any(lo <= span.start < hi for lo, hi in furniture)
    ]


def _paragraphs(chunk: str) -> list[tuple[int, int]]:
    """The `[start, end)` of each paragraph of `chunk` (text between blank lines)."""
    cuts = [0, *(x for m in _PARAGRAPH.finditer(chunk) for x in (m.start(), m.end())), len(chunk)]
    return list(zip(cuts[::2], cuts[1::2], strict=True))


def passage_notes(
    sources: Iterable[SourceText], quoted: Mapping[str, Iterable[str]], cache: PassageCache
) -> PassageNotes:
    """The passage notes of `sources`, leaving out what `quoted` (key → texts the notes of
    that source already hold: their quotes and title) says and an abstract's sentences its
    paper's text repeats.

    Each source's layout comes from `cache` when its hash and what decided it match and it
    fits the text, else it is worked out now (and kept in `cache`); no note is made here.
    """
    sources = list(sources)
    texts = {s.key: s for s in sources}
    laid: list[LaidSource] = []
    for source in sources:
        key, sha = source.key, source.stamp.sha256
        said = list(quoted.get(paper_key(key), ()))
        said_digest = digest_texts(said)
        more = cache.says_more(key, sha, said_digest)
        if more is None:
            more = _beyond(source.text, said)
            cache.said_more(key, sha, said_digest, more)
        if not more:
            continue
        paper = texts.get(paper_key(key)) if key.endswith(ABSTRACT_SUFFIX) else None
        # What decides which sentences are kept: the notes' texts and the paper's text.
        digest = digest_texts([said_digest, paper.stamp.sha256 if paper is not None else ""])
        spans = _sentences(source, cache)
        layout = cache.layout(key, sha, digest)
        if layout is None or not layout.fits(spans, len(source.text)):
            skip = {word_sequence(text) for text in said}
            if paper is not None:
                text = paper.text
                skip |= {word_sequence(text[a:b]) for a, b, _ in _sentences(paper, cache).tolist()}
            layout = lay_out(source.text, spans, skip)
            cache.laid_out(key, sha, digest, layout)
        laid.append(LaidSource(source, spans, layout))
    return PassageNotes(laid)


def _sentences(source: SourceText, cache: PassageCache) -> np.ndarray:
    """The sentences of `source`, from the cache when its hash matches, else split now."""
    sha = source.stamp.sha256
    found = cache.sentences(source.key, sha, len(source.text))
    if found is None:
        found = split_sentences(source.text)
        cache.split(source.key, sha, found)
    return found


def lay_out(text: str, spans: np.ndarray, skip: AbstractSet[tuple[str, ...]]) -> Layout:
    """The layout of a source's passages: its sentences but those whose words are one of
    `skip`'s, grouped page by page into runs of at most `PASSAGE_SENTENCES` sentences and
    `PASSAGE_CHARS` characters."""
    rows = spans.tolist()
    if skip:
        kept = [i for i, (a, b, _) in enumerate(rows) if word_sequence(text[a:b]) not in skip]
    else:
        kept = list(range(len(rows)))
    pages: list[int] = []
    counts: list[int] = []
    start = -1
    for i in kept:
        a, b, page = rows[i]
        if (
            not counts
            or page != pages[-1]
            or counts[-1] >= PASSAGE_SENTENCES
            or b - start > PASSAGE_CHARS
        ):
            pages.append(page)
            counts.append(0)
            start = a
        counts[-1] += 1
    return Layout(*(np.array(x, dtype=np.int64) for x in (kept, pages, counts)))


def _beyond(text: str, said: list[str]) -> bool:
    """Whether `text` holds words beyond the texts in `said`, without splitting it.

    The fast look for a source its notes already quote in full (a SciFact abstract): any
    letter left once each quoted text is taken out means there is more to split.
    """
    flat = " ".join(text.split())
    for piece in said:
        piece = " ".join(piece.split())
        if piece:
            flat = flat.replace(piece, " ")
    return bool(_LETTER.search(flat))


def load_passages(root: Path, notes: Mapping[str, Note], cache: PassageCache) -> PassageNotes:
    """The passage notes of every `sources/*.txt` of the workspace at `root` (`read_sources`),
    beside its written `notes`."""
    quoted: dict[str, list[str]] = {}
    titles: dict[str, str] = {}
    for note in notes.values():
        if note.store is Store.CANON and note.citekey:
            quoted.setdefault(note.citekey, []).extend([note.title, *(q.body for q in note.quotes)])
            titles.setdefault(note.citekey, note.title)
    return passage_notes(read_sources(root, titles), quoted, cache)

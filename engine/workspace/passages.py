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
paper cites the page). Splitting is the slow part (about 1.4 MB of text a second), so the
sentence offsets of each source are kept in this user's cache folder for the workspace
(`passages.json`, `engine.workspace.caches`) by content hash; only offsets are kept, and
the text always comes from the source file as it is now.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import stat
from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from itertools import repeat
from pathlib import Path
from typing import Any, NamedTuple

from engine.core.errors import WorkspaceError
from engine.text.sentences import Span, is_furniture, sentences
from engine.text.tokens import word_sequence
from engine.workspace.atomic import read_app_file, write_atomic
from engine.workspace.caches import PASSAGES_FILE, cache_file, cached_file
from engine.workspace.notes import FileStamp, Note, NoteKind, Quote, Store, is_address_safe

PASSAGE_BOX = "~passages"
ABSTRACT_SUFFIX = ".abstract"
PASSAGE_SENTENCES = 3
PASSAGE_CHARS = 900
MAX_CACHE_BYTES = 256 * 1024 * 1024
# The cap the quote check puts on a source it reads (`engine.core.verifiers`).
MAX_SOURCE_BYTES = 20 * 1024 * 1024
_LETTER = re.compile(r"[^\W\d_]")
_ZOTERO_NAME = re.compile(r"^.+? - \d{4} - (?P<title>.+)$")
_CACHE_VERSION = 4
_PARAGRAPH = re.compile(r"\n[ \t\r\v]*\n")
# Built once: a large library's open makes hundreds of thousands of passages and quotes.
_PASSAGE_PREFIX = f"{Store.CANON.value}:{PASSAGE_BOX}:"
_QUOTE_IDS = tuple(f"s{i}" for i in range(PASSAGE_SENTENCES))


class Sentence(NamedTuple):
    """One sentence of a source: `[start, end)` in its text, and its 1-based page.

    An immutable tuple rather than a frozen dataclass: a large library's open makes
    hundreds of thousands of them from the offsets cache, and a tuple is made in half the time.
    """

    start: int
    end: int
    page: int


@dataclass
class PassageCache:
    """Sentence offsets per source key and content hash, kept in this user's cache folder."""

    entries: dict[str, tuple[str, tuple[Sentence, ...]]] = field(default_factory=dict)
    # Key -> (content hash, digest of the texts left out, indices of the sentences kept):
    # which sentences repeat a note's quote, so a reopen need not read every sentence again.
    kept: dict[str, tuple[str, str, tuple[int, ...]]] = field(default_factory=dict)
    # Key -> (content hash, digest of its notes' texts, whether the source says more than
    # they do): the look reads the whole text, about a second a reopen at 20,000 pages.
    beyond: dict[str, tuple[str, str, bool]] = field(default_factory=dict)
    changed: bool = False

    @classmethod
    def read(cls, root: Path) -> PassageCache:
        """The saved offsets; an absent, unreadable or foreign file is an empty cache."""
        try:
            raw = read_app_file(cached_file(root, PASSAGES_FILE), max_bytes=MAX_CACHE_BYTES)
            data = json.loads(raw)
        except (OSError, ValueError, WorkspaceError, RecursionError):
            return cls()
        if not isinstance(data, dict) or data.get("version") != _CACHE_VERSION:
            return cls()
        entries, kept, beyond = {}, {}, {}
        for key, entry in (data.get("sources") or {}).items():
            with contextlib.suppress(TypeError, ValueError, KeyError):
                sha = entry["sha"]
                if "spans" in entry:  # a source its notes quote in full was never split
                    found = tuple(Sentence(int(a), int(b), int(p)) for a, b, p in entry["spans"])
                    entries[key] = (str(sha), found)
                if "kept" in entry:
                    digest, indices = entry["kept"]
                    kept[key] = (str(sha), str(digest), tuple(int(i) for i in indices))
                if "beyond" in entry:
                    digest, more = entry["beyond"]
                    if isinstance(more, bool):
                        beyond[key] = (str(sha), str(digest), more)
        return cls(entries, kept, beyond)

    def says_more(self, source: SourceText, said: list[str]) -> bool:
        """Whether `source` holds words beyond the texts in `said` (`_beyond`), from the
        cache when its hash and the digest of `said` match, else looked at now."""
        digest = _digest_texts(said)
        cached = self.beyond.get(source.key)
        if cached is not None and cached[:2] == (source.stamp.sha256, digest):
            return cached[2]
        more = _beyond(source.text, said)
        self.beyond[source.key] = (source.stamp.sha256, digest, more)
        self.changed = True
        return more

    def sentences(self, key: str, sha: str, text: str) -> tuple[Sentence, ...]:
        """The sentences of `text`, from the cache when its hash matches, else split now."""
        cached = self.entries.get(key)
        if cached is not None and cached[0] == sha and _fits(cached[1], len(text)):
            return cached[1]
        found = split_sentences(text)
        self.entries[key] = (sha, found)
        self.changed = True
        return found

    def kept_sentences(
        self, source: SourceText, spans: tuple[Sentence, ...], skip: AbstractSet[tuple[str, ...]]
    ) -> list[Sentence]:
        """The sentences of `source` whose words are none of `skip`'s, from the cache when
        its hash and the digest of `skip` match, else read now."""
        if not skip:
            return list(spans)
        digest = _digest(skip)
        cached = self.kept.get(source.key)
        if (
            cached is not None
            and cached[:2] == (source.stamp.sha256, digest)
            and all(0 <= i < len(spans) for i in cached[2])
        ):
            return [spans[i] for i in cached[2]]
        text = source.text
        indices = tuple(
            i for i, s in enumerate(spans) if word_sequence(text[s.start : s.end]) not in skip
        )
        self.kept[source.key] = (source.stamp.sha256, digest, indices)
        self.changed = True
        return [spans[i] for i in indices]

    def save(self, root: Path, keys: Iterable[str]) -> None:
        """Write the offsets of `keys` (the sources present) when anything changed.

        Raises WorkspaceError or OSError when the cache cannot be written; the caller
        goes on without a cache.
        """
        keep = set(keys)
        if not self.changed and keep == set(self.entries) | set(self.beyond):
            return
        sources: dict[str, dict[str, Any]] = {
            key: {"sha": sha, "spans": [[s.start, s.end, s.page] for s in spans]}
            for key, (sha, spans) in sorted(self.entries.items())
            if key in keep
        }
        for key, (sha, digest, more) in sorted(self.beyond.items()):
            if key in keep and sources.setdefault(key, {"sha": sha})["sha"] == sha:
                sources[key]["beyond"] = [digest, more]
        for key, (sha, digest, indices) in self.kept.items():
            if key in sources and sources[key]["sha"] == sha and "spans" in sources[key]:
                sources[key]["kept"] = [digest, list(indices)]
        payload = json.dumps({"version": _CACHE_VERSION, "sources": sources}, separators=(",", ":"))
        write_atomic(cache_file(root, PASSAGES_FILE), payload, durable=False)
        self.changed = False


def split_sentences(text: str) -> tuple[Sentence, ...]:
    """The sentences of a source text, page by page (pages split by form feeds).

    A paragraph that is furniture (a heading, a table row, a caption: `is_furniture`)
    gives none: it is not evidence, and a passage never joins it to prose.
    """
    out = []
    start = 0
    for page, chunk in enumerate(text.split("\f"), start=1):
        for span in prose_spans(chunk):
            out.append(Sentence(start + span.start, start + span.end, page))
        start += len(chunk) + 1
    return tuple(out)


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


def source_keys(root: Path) -> list[str]:
    """The keys of `sources/*.txt` that can name a source, sorted."""
    try:
        return sorted(_keys(os.listdir(root / "sources")))
    except OSError:
        return []


def _keys(names: Iterable[str]) -> list[str]:
    keys = [name[: -len(".txt")] for name in names if name.endswith(".txt")]
    return [key for key in keys if is_address_safe(key) and not key.startswith(".")]


@dataclass(frozen=True)
class SourceText:
    """One source file as read now: its key, text, content hash and page labels."""

    key: str
    text: str
    stamp: FileStamp
    labels: tuple[str, ...] = ()
    title: str = ""


def passage_notes(
    sources: Iterable[SourceText], quoted: Mapping[str, Iterable[str]], cache: PassageCache
) -> dict[str, Note]:
    """The passage notes of `sources`, leaving out what `quoted` (key → texts the notes of
    that source already hold: their quotes and title) says and an abstract's sentences its
    paper's text repeats."""
    sources = list(sources)
    texts = {s.key: s for s in sources}
    out: dict[str, Note] = {}
    for source in sources:
        said = list(quoted.get(_paper(source.key), ()))
        if not cache.says_more(source, said):
            continue
        skip = {word_sequence(text) for text in said}
        paper = texts.get(_paper(source.key)) if source.key.endswith(ABSTRACT_SUFFIX) else None
        if paper is not None:
            spans = cache.sentences(paper.key, paper.stamp.sha256, paper.text)
            skip |= {word_sequence(paper.text[s.start : s.end]) for s in spans}
        spans = cache.sentences(source.key, source.stamp.sha256, source.text)
        kept = cache.kept_sentences(source, spans, skip)
        for note in _group(source, kept):
            out[note.address] = note
    return out


def _digest(skip: AbstractSet[tuple[str, ...]]) -> str:
    """A digest of the word sequences a source's passages leave out, order aside."""
    return _digest_texts(sorted("\x1f".join(words) for words in skip))


def _digest_texts(texts: list[str]) -> str:
    """A digest of texts in their order (a source's notes' texts: `_beyond` reads them so)."""
    joined = "\x1e".join(texts)
    return hashlib.sha256(joined.encode("utf-8", "surrogatepass")).hexdigest()


def _paper(key: str) -> str:
    return key[: -len(ABSTRACT_SUFFIX)] if key.endswith(ABSTRACT_SUFFIX) else key


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


def _group(source: SourceText, kept: list[Sentence]) -> list[Note]:
    notes: list[Note] = []
    run: list[Sentence] = []
    for sentence in [*kept, None]:
        if run and (
            sentence is None
            or sentence.page != run[0].page
            or len(run) >= PASSAGE_SENTENCES
            or sentence.end - run[0].start > PASSAGE_CHARS
        ):
            notes.append(_passage(source, run, len(notes) + 1))
            run = []
        if sentence is not None:
            run.append(sentence)
    return notes


def _quote_ids(count: int) -> Sequence[str]:
    """The ids of a passage's `count` quotes, s0, s1, …: made once for the usual few."""
    return _QUOTE_IDS if count <= len(_QUOTE_IDS) else [f"s{i}" for i in range(count)]


def _passage(source: SourceText, run: list[Sentence], n: int) -> Note:
    page = run[0].page
    label = source.labels[page - 1] if 0 < page <= len(source.labels) else str(page)
    where = "abstract" if source.key.endswith(ABSTRACT_SUFFIX) else f"p. {label}"
    note_id = f"{source.key}~p{page}~{n}"
    said = [source.text[s.start : s.end] for s in run]
    return Note(
        address=_PASSAGE_PREFIX + note_id,
        store=Store.CANON,
        source=PASSAGE_BOX,
        id=note_id,
        type=NoteKind.SOURCE,
        title=f"{source.title} ({_paper(source.key)}, {where})"
        if source.title
        else f"{_paper(source.key)}, {where}",
        # One split of the sentences joined: the same words as each one's, one space apart.
        body=" ".join(" ".join(said).split()),
        path=f"sources/{source.key}.txt",
        citekey=source.key,
        quotes=tuple(map(Quote, _quote_ids(len(said)), said, repeat(page))),
        # The source file's own stamp: a passage changes exactly when its source does.
        stamp=source.stamp,
    )


@dataclass(frozen=True)
class PassagePlace:
    """Where a passage sits: its paper (key and title) and its page, as a reader cites it."""

    paper: str
    paper_title: str
    where: str  # "p. 12", or "abstract"


def passage_place(address: str, title: str) -> PassagePlace | None:
    """The paper and page of the passage at `address` (titled `title`), else None."""
    prefix = f"{Store.CANON.value}:{PASSAGE_BOX}:"
    if not address.startswith(prefix) or "~p" not in address:
        return None
    key = address[len(prefix) :].rsplit("~p", 1)[0]
    paper = _paper(key)
    # The title is written by `_passage`: "<paper title> (<paper>, <where>)" or "<paper>, <where>".
    head, _, tail = title.rpartition(f" ({paper}, ")
    if head and tail.endswith(")"):
        return PassagePlace(paper, head, tail[:-1])
    _, _, where = title.partition(f"{paper}, ")
    return PassagePlace(paper, paper, where or "")


def _fits(spans: tuple[Sentence, ...], size: int) -> bool:
    return all(0 <= s.start < s.end <= size for s in spans)


def load_passages(root: Path, notes: Mapping[str, Note], cache: PassageCache) -> dict[str, Note]:
    """The passage notes of every `sources/*.txt` of the workspace at `root`.

    The folder is opened once without following a link; a file that is a link, not a
    regular file or over the size cap gives no passages.
    """
    quoted: dict[str, list[str]] = {}
    titles: dict[str, str] = {}
    for note in notes.values():
        if note.store is Store.CANON and note.citekey:
            quoted.setdefault(note.citekey, []).extend([note.title, *(q.body for q in note.quotes)])
            titles.setdefault(note.citekey, note.title)
    return passage_notes(_read_sources(root, titles), quoted, cache)


def _read_sources(root: Path, titles: Mapping[str, str]) -> list[SourceText]:
    try:
        folder = os.open(root / "sources", os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    except OSError:
        return []
    out = []
    try:
        names = set(os.listdir(folder))
        for key in sorted(_keys(names)):
            data = _read_at(folder, f"{key}.txt", MAX_SOURCE_BYTES)
            if data is None:
                continue
            text = data[0].decode("utf-8", errors="replace")
            side = (
                _sidecar(folder, f"{_paper(key)}.pdf.json")
                if f"{_paper(key)}.pdf.json" in names
                else {}
            )
            labels = side.get("labels")
            labels = (
                tuple(labels)
                if isinstance(labels, list) and all(isinstance(x, str) for x in labels)
                else ()
            )
            title = titles.get(_paper(key)) or _title(side) or _first_line(text)
            stamp = FileStamp.of(data[0], mtime_ns=data[1])
            out.append(SourceText(key, text, stamp, labels, title))
    finally:
        os.close(folder)
    return out


def _sidecar(folder: int, name: str) -> dict[str, object]:
    data = _read_at(folder, name, 1024 * 1024)
    try:
        loaded = json.loads(data[0]) if data is not None else {}
    except (ValueError, RecursionError):
        return {}
    return loaded if isinstance(loaded, dict) else {}


def _title(side: dict[str, object]) -> str:
    """The paper's title: the PDF's own, or the one in a name Zotero gave the file."""
    title = side.get("title")
    if isinstance(title, str) and title.strip():
        return " ".join(title.split())
    name = side.get("pdf")
    if isinstance(name, str):
        found = _ZOTERO_NAME.match(" ".join(Path(name).stem.split()))
        if found is not None:
            return found.group("title")
    return ""


def _first_line(text: str) -> str:
    """The first line of the first page when it reads like a title (a few words)."""
    first = next((line.strip() for line in text.split("\f", 1)[0].splitlines() if line.strip()), "")
    return first if 2 <= len(first.split()) <= 25 and not first.endswith(".") else ""


def _read_at(folder: int, name: str, limit: int) -> tuple[bytes, int] | None:
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=folder)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
            return None
        chunks = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
        return b"".join(chunks), info.st_mtime_ns
    except OSError:
        return None
    finally:
        os.close(fd)

"""The parser that turns one Markdown file with YAML front matter into a Note.

Front matter is read with PyYAML's safe loader (the libyaml-backed `CSafeLoader` when it is
built, which is the same safe subset, only faster). A field of the wrong shape is dropped
and reported; the rest of the note still loads.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeGuard

import yaml

from engine.core.errors import PayloadError
from engine.core.jsonsafe import filled_strings
from engine.core.model import Address
from engine.core.paths import resolve_inside
from engine.workspace.notes import (
    KINDS_BY_STORE,
    DataCheck,
    Evidence,
    FileStamp,
    Link,
    Note,
    NoteKind,
    Quote,
    Store,
    Tether,
    TreeCheck,
    is_address_safe,
    note_address,
)

_SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

# YAML aliases share one value among many places, so a small file can stand for a huge one
# (a 13 KB quote aliased 100,000 times); a note needs few, if any.
MAX_ALIASES = 32
_ALIAS_HINT = re.compile(r"(?:^|[\s\[{,:-])\*[^\s,\[\]{}]")
# The front matter opens on the first line and closes at the first line that is a fence:
# one `re.match` per line, where one pattern with a lazy `(.*?)` tried the fence at every
# character (a ninth of opening a workspace of abstracts).
_OPENING = re.compile(r"---[ \t]*\r?\n")
_CLOSING = re.compile(r"(?:---|\.\.\.)[ \t]*\r?(?:\n|\Z)")
_SHA256_HEX = re.compile(r"\A[0-9a-f]{64}\Z")


@dataclass(frozen=True)
class ParsedNote:
    """The outcome of parsing one file: a note (or none) and the problems found on the way."""

    note: Note | None
    problems: tuple[str, ...] = ()

    @classmethod
    def rejected(cls, problem: str) -> ParsedNote:
        return cls(None, (problem,))


def _load_front_matter(text: str) -> object:
    """YAML, read as JSON first when it is a JSON object (JSON is YAML, and much faster)."""
    if text.lstrip().startswith("{"):
        try:
            return json.loads(text, parse_constant=_not_json)
        except ValueError:
            pass  # flow-style YAML that is not JSON
    return yaml.load(text, Loader=_SafeLoader)


def _not_json(name: str) -> float:
    raise ValueError(f"{name} is not JSON")


def parse_note(
    data: bytes,
    *,
    store: Store,
    source: str,
    path: str,
    root: Path,
    stamp: FileStamp | None = None,
) -> ParsedNote:
    """Parse the bytes of one note file found at `path` (relative to the workspace `root`)."""
    if b"\x00" in data:
        return ParsedNote.rejected("binary file (contains NUL bytes), not a Markdown note")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return ParsedNote.rejected(f"not UTF-8 (byte {exc.start})")
    text = text.removeprefix("\ufeff")
    split = split_front_matter(text)
    if split is None:
        return ParsedNote.rejected("no YAML front matter (the file must start with '---')")
    front, body = split
    try:
        if _too_many_aliases(front):
            return ParsedNote.rejected(
                f"front matter uses more than {MAX_ALIASES} YAML aliases (*name); write the"
                " values out"
            )
        meta = _load_front_matter(front)
    except (yaml.YAMLError, ValueError, RecursionError) as exc:
        return ParsedNote.rejected(f"bad YAML front matter: {_first_line(exc)}")
    if not isinstance(meta, dict):
        return ParsedNote.rejected("front matter is not a mapping")
    return _NoteBuilder(meta, store=store, source=source, path=path, root=root).build(
        body=body.strip(), stamp=stamp
    )


def split_front_matter(text: str) -> tuple[str, str] | None:
    """The front matter between its `---` fences and the text after them, or None.

    The opening fence is the first line; the closing one is the first later line that is
    `---` or `...` (trailing blanks allowed), possibly the last line of the text.
    """
    opened = _OPENING.match(text)
    if opened is None:
        return None
    start = line = opened.end()
    while True:
        closed = _CLOSING.match(text, line)
        if closed is not None:
            return text[start:line], text[closed.end() :]
        newline = text.find("\n", line)
        if newline < 0:
            return None
        line = newline + 1


def _too_many_aliases(text: str) -> bool:
    """True when the YAML uses more than MAX_ALIASES aliases; stops at the first one over.

    A cheap scan rules out almost every note; only text that may hold that many aliases is
    parsed into events to count the real ones (an `*` inside a quoted string is no alias).
    """
    if text.count("*") <= MAX_ALIASES:  # the usual note: no scan at all (a sixth of an open)
        return False
    for hints, _ in enumerate(_ALIAS_HINT.finditer(text), start=1):
        if hints > MAX_ALIASES:
            break
    else:
        return False
    aliases = 0
    for event in yaml.parse(text, Loader=_SafeLoader):
        if isinstance(event, yaml.AliasEvent):
            aliases += 1
            if aliases > MAX_ALIASES:
                return True
    return False


class _NoteBuilder:
    """Reads the fields of one front matter mapping, collecting problems as it goes."""

    def __init__(self, meta: dict[str, Any], *, store: Store, source: str, path: str, root: Path):
        self.meta = meta
        self.store = store
        self.source = source
        self.root = root
        self.path = path
        self.problems: list[str] = []

    def build(self, *, body: str, stamp: FileStamp | None) -> ParsedNote:
        note_id = _as_text(self.meta.get("id"))
        if note_id is None:
            missing = "id" not in self.meta or self.meta["id"] is None
            return ParsedNote.rejected("missing id" if missing else "id is not a string")
        if not is_address_safe(note_id):
            return ParsedNote.rejected(
                f"id {note_id!r} is not address-safe (no '/', '\\', '..', ':', "
                "whitespace or control characters)"
            )
        note = Note(
            address=note_address(self.store, self.source, note_id),
            store=self.store,
            source=self.source,
            id=note_id,
            type=self._kind(),
            title=self._text("title") or note_id,
            body=body,
            path=self.path,
            citekey=self._citekey(),
            quotes=self._quotes(),
            links=self._links(),
            tether=self._tether(),
            evidence=self._evidence(),
            stamp=stamp,
        )
        return ParsedNote(note, tuple(self.problems))

    def report(self, problem: str) -> None:
        self.problems.append(problem)

    def _text(self, key: str) -> str | None:
        value = self.meta.get(key)
        if value is None:
            return None
        if not isinstance(value, str):
            self.report(f"{key} is not a string")
            return None
        return value

    def _declared_path(self, key: str, value: object) -> str | None:
        if value is None:
            return None
        if not isinstance(value, str):
            self.report(f"{key} is not a string")
            return None
        safe = resolve_inside(self.root, value)
        if safe.path is None:
            # Kept so the verifier can say why it refuses; it re-checks before reading.
            self.report(f"{key}: {safe.reason}")
        return value

    def _kind(self) -> NoteKind | None:
        value = self.meta.get("type")
        allowed = KINDS_BY_STORE[self.store]
        names = ", ".join(sorted(kind.value for kind in allowed))
        if value is None:
            self.report(f"missing type (one of {names})")
            return None
        if isinstance(value, str) and value in NoteKind.__members__.values():
            kind = NoteKind(value)
            if kind in allowed:
                return kind
        self.report(f"type {value!r} is not one of {names}")
        return None

    def _citekey(self) -> str | None:
        value = self.meta.get("source")
        if value is None:
            return None
        citekey = _as_text(value)
        if citekey is None or not is_address_safe(citekey):
            self.report(f"source {value!r} is not a usable citekey")
            return None
        return citekey

    def _items(self, key: str) -> list[Any]:
        value = self.meta.get(key)
        if value is None:
            return []
        if not isinstance(value, list):
            self.report(f"{key} is not a list")
            return []
        return value

    def _quotes(self) -> tuple[Quote, ...]:
        quotes = []
        for n, item in enumerate(self._items("quotes"), start=1):
            if not isinstance(item, dict):
                self.report(f"quote {n} is not a mapping")
                continue
            body = item.get("body")
            if not isinstance(body, str) or not body.strip():
                self.report(f"quote {n} has no text body")
                continue
            page = item.get("page")
            if page is not None and (not isinstance(page, int) or isinstance(page, bool)):
                self.report(f"quote {n} page is not a whole number")
                page = None
            quote_id = _as_text(item.get("id")) or f"q{n}"
            section = item.get("section")
            if section is not None and not isinstance(section, str):
                self.report(f"quote {n} section is not text")
                section = None
            quotes.append(Quote(quote_id, body, page, (section or "").strip()))
        return tuple(quotes)

    def _links(self) -> tuple[Link, ...]:
        links = []
        for n, item in enumerate(self._items("links"), start=1):
            target, relation = (item, "related") if isinstance(item, str) else (None, None)
            if isinstance(item, dict):
                target, relation = _as_text(item.get("target")), item.get("relation", "related")
            address = self._link_address(target)
            if address is None or not isinstance(relation, str) or not relation.strip():
                self.report(f"link {n} needs a target address or id and a relation")
                continue
            links.append(Link(address, relation.strip()))
        return tuple(links)

    def _link_address(self, target: str | None) -> str | None:
        if target is None:
            return None
        if ":" not in target:
            safe = is_address_safe(target)
            return note_address(self.store, self.source, target) if safe else None
        try:
            return str(Address.parse(target))
        except PayloadError:
            return None

    def _tether(self) -> Tether | None:
        value = self.meta.get("tether")
        if value is None:
            return None
        if not isinstance(value, dict) or not isinstance(value.get("path"), str):
            self.report("tether is not a mapping with a path")
            return None
        path = value["path"]
        self._declared_path("tether path", path)
        pin = value.get("pin")
        if pin is not None and not (isinstance(pin, str) and _SHA256_HEX.match(pin.lower())):
            self.report("tether pin is not a sha256 hex digest")
            pin = None
        anchor = value.get("anchor")
        if anchor is not None and not isinstance(anchor, str):
            self.report("tether anchor is not a string")
            anchor = None
        return Tether(path, pin.lower() if pin else None, anchor or None)

    def _evidence(self) -> Evidence:
        return Evidence(
            equation=self._text("equation"),
            figure=self._declared_path("figure", self.meta.get("figure")),
            data=self._data(),
            tree=self._tree(),
        )

    def _data(self) -> DataCheck | None:
        value = self.meta.get("data")
        if value is None:
            return None
        if not isinstance(value, dict):
            self.report("data is not a mapping")
            return None
        names = [value.get(key) for key in ("file", "column", "agg")]
        number, tolerance = value.get("value"), value.get("tolerance")
        where = _scalar_pairs(value.get("where", {}), allow_lists=True)
        if not filled_strings(names):
            self.report("data needs file, column and agg as strings")
        elif not _is_number(number) or not (tolerance is None or _is_number(tolerance)):
            self.report("data value and tolerance must be numbers")
        elif where is None:
            self.report("data where is not a mapping of column to value(s)")
        else:
            file, column, agg = names
            self._declared_path("data file", file)
            return DataCheck(file, column, agg, number, tolerance, where)
        return None

    def _tree(self) -> TreeCheck | None:
        value = self.meta.get("tree")
        if value is None:
            return None
        params = (
            _scalar_pairs(value.get("params", {}), allow_lists=False)
            if isinstance(value, dict)
            else None
        )
        if params is None or not isinstance(value.get("file"), str):
            self.report("tree needs a file and a mapping of scalar params")
            return None
        self._declared_path("tree file", value["file"])
        return TreeCheck(value["file"], params, _as_text(value.get("target")))


def _as_text(value: object) -> str | None:
    """A string, or a whole number written without quotes, as text; anything else is None."""
    if isinstance(value, str):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return None


def _is_number(value: object) -> TypeGuard[float]:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _is_scalar(value: object) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


def _scalar_pairs(value: object, *, allow_lists: bool) -> tuple[Any, ...] | None:
    if value is None:
        return ()
    if not isinstance(value, dict) or not all(isinstance(key, str) for key in value):
        return None
    pairs = []
    for key in sorted(value):
        item = value[key]
        if allow_lists and isinstance(item, list) and all(_is_scalar(x) for x in item):
            item = tuple(item)
        elif not _is_scalar(item):
            return None
        pairs.append((key, item))
    return tuple(pairs)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return " ".join(text.splitlines()[:3]) if text else type(exc).__name__

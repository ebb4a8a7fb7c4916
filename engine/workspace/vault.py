"""Markdown vault notes (Obsidian and the like) read as they are, without this project's format.

`workspace.toml` maps vault folders to the stores:

    [vault]
    canon = ["Literature", "Concepts"]      # each folder becomes a canon box
    practice = ["Lab notebook", "Decisions"]

A note's title is its front matter `title`, else its first heading, else its file name.
`[[wikilinks]]` and `[[target|alias]]` become links (`links-to`, or the relation a line
declares, `supports:: [[note]]`); `#tags` are kept; a block quote attributed with
`— @citekey, p. 12` becomes a quote checked against `sources/<citekey>.txt`. A note whose
front matter has an `id` keeps it (so renames keep its address); otherwise its id is its
path inside the mapped folder. Links are resolved after every note is read, by file
name, path, id or alias, as a vault app resolves them.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import yaml

from engine.workspace.front_matter import parse_note
from engine.workspace.notes import (
    FEDERATED_PREFIX,
    KINDS_BY_STORE,
    PRACTICE_SOURCE,
    FileStamp,
    Link,
    Note,
    NoteKind,
    Quote,
    Store,
    is_address_safe,
    note_address,
)

LINKS_TO = "links-to"
# Safe loading only, as for front matter notes.
_SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_FRONT = re.compile(r"\A---[ \t]*\r?\n(.*?)^(?:---|\.\.\.)[ \t]*\r?$\n?", re.S | re.M)
_WIKILINK = re.compile(r"(!?)\[\[([^\[\]|#^\n]*)(?:[#^][^\[\]|\n]*)?(?:\|([^\[\]\n]*))?\]\]")
_FIELD = re.compile(r"(?:^|[\[(\s])([A-Za-z][\w-]*)::")
_FIELD_LINE = re.compile(r"^\s*(?:[-*+]\s+)?[A-Za-z][\w-]*::")
_TAG = re.compile(r"(?<![\w#&/\\])#([^\W\d][\w/-]*)")
_HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$")
_ATTRIBUTION = re.compile(
    r"^\s*(?:[—–―]|-{1,3}|~)\s*@([^\s,;]+?)[.,;]?(?:\s*,\s*(?:pp?\.?|pages?)\s*(\d+)"
    r"(?:\s*[-–]\s*\d+)?)?\s*\.?\s*$"
)
_CALLOUT = re.compile(r"^\[![\w-]+\][+-]?\s*")
_CODE_SPAN = re.compile(r"`[^`\n]*`")
# An inline tag with the spaces before it, for taking it out of a note's prose.
_TAG_IN_TEXT = re.compile(r"[ \t]*(?<![\w#&/\\])#[^\W\d][\w/-]*")
_MEDIA = re.compile(r"\.(?:png|jpe?g|gif|svg|webp|pdf|mp[34]|wav|canvas|excalidraw)$", re.I)


@dataclass(frozen=True)
class VaultFolder:
    """One mapped folder: its path in the workspace, the store and source it loads into."""

    path: str
    store: Store
    source: str


@dataclass(frozen=True)
class VaultNote:
    """One vault file parsed: the note (links unresolved), pending link targets, problems."""

    note: Note | None
    pending: tuple[tuple[str, str], ...] = ()
    names: tuple[str, ...] = ()
    problems: tuple[str, ...] = ()

    @classmethod
    def rejected(cls, problem: str) -> VaultNote:
        return cls(None, problems=(problem,))


def vault_folders(config: Mapping[str, Any]) -> tuple[tuple[VaultFolder, ...], tuple[str, ...]]:
    """The folders `[vault]` maps, and the problems with the section (reported, not raised)."""
    section = config.get("vault")
    if section is None:
        return (), ()
    if not isinstance(section, dict):
        return (), ("vault must be a table ([vault])",)
    folders: list[VaultFolder] = []
    problems: list[str] = []
    for key, store in (("canon", Store.CANON), ("practice", Store.PRACTICE)):
        names = section.get(key, [])
        if isinstance(names, str):
            names = [names]
        if not isinstance(names, list) or not all(isinstance(n, str) and n.strip() for n in names):
            problems.append(f"vault {key} must be a list of folder names")
            continue
        for name in names:
            path = name.strip().rstrip("/")
            source = PRACTICE_SOURCE if store is Store.PRACTICE else box_name(path)
            if any(f.path == path for f in folders):
                problems.append(f"vault folder {path!r} is mapped twice")
            elif store is Store.CANON and not is_address_safe(source):
                problems.append(f"vault folder {path!r} gives no usable box name")
            else:
                folders.append(VaultFolder(path, store, source))
    return tuple(folders), tuple(problems)


def box_name(folder: str) -> str:
    """The canon box a vault folder loads into: `Reading notes/2024` → `Reading-notes-2024`."""
    name = re.sub(r"[\s/\\:\x00-\x1f\x7f]+", "-", folder).strip("-.")
    name = re.sub(r"\.{2,}", ".", name)
    return "vault-" + name if name.startswith(FEDERATED_PREFIX) else name


def path_id(relative: str) -> str:
    """The id of a note without one: its path in the mapped folder, address-safe."""
    file_stem = relative[:-3] if relative.lower().endswith(".md") else relative
    parts = [
        re.sub(r"[\s:\\\x00-\x1f\x7f]+", "-", part).strip("-") for part in file_stem.split("/")
    ]
    return re.sub(r"\.{2,}", ".", "~".join(part for part in parts if part)) or "note"


def parse_vault_note(
    data: bytes, folder: VaultFolder, inner: str, *, rel: str, root: Path, stamp: FileStamp
) -> VaultNote:
    """Parse one vault file; `inner` is its path inside the folder, `rel` inside the workspace."""
    if b"\x00" in data:
        return VaultNote.rejected("binary file (contains NUL bytes), not a Markdown note")
    try:
        text = data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        return VaultNote.rejected(f"not UTF-8 (byte {exc.start})")
    meta, body = {}, text
    match = _FRONT.match(text)
    if match is not None:
        try:
            meta = yaml.load(match.group(1), Loader=_SafeLoader)
        except (yaml.YAMLError, ValueError, RecursionError) as exc:
            first = " ".join(str(exc).split())[:160]
            return VaultNote.rejected(f"bad YAML front matter: {first}")
        meta = meta if isinstance(meta, dict) else {}
        body = text[match.end() :]
    base = None
    problems: list[str] = []
    if meta.get("id") is not None and meta.get("type") is not None:
        # A note already in this project's format keeps everything that format can say.
        parsed = parse_note(
            data, store=folder.store, source=folder.source, path=rel, root=root, stamp=stamp
        )
        if parsed.note is None:
            return VaultNote.rejected(parsed.problems[0])
        base, problems = parsed.note, list(parsed.problems)
    reading = _Body(body)
    note_id = _text(meta.get("id")) or path_id(inner)
    if not is_address_safe(note_id):
        return VaultNote.rejected(f"id {note_id!r} is not address-safe")
    citekey = _text(meta.get("source")) or _text(meta.get("citekey"))
    if citekey is not None and not is_address_safe(citekey):
        problems.append(f"source {citekey!r} is not a usable citekey")
        citekey = None
    citekey = citekey or next((key for key, _, _ in reading.quotes), None)
    quotes = []
    for n, (key, quote_body, page) in enumerate(reading.quotes, start=1):
        if key != citekey:
            problems.append(
                f"quote {n} is attributed to @{key}, not this note's @{citekey}: not checked"
            )
        else:
            quotes.append(Quote(f"v{n}", quote_body, page))
    tags = tuple(dict.fromkeys([*_meta_tags(meta.get("tags")), *reading.tags]))
    title = _text(meta.get("title")) or reading.heading or Path(inner).name.removesuffix(".md")
    kind = base.type if base is not None else _kind(folder, meta, tags, quotes, citekey, problems)
    note = Note(
        address=note_address(folder.store, folder.source, note_id),
        store=folder.store,
        source=folder.source,
        id=note_id,
        type=kind,
        title=title,
        body=reading.plain,
        path=rel,
        citekey=citekey,
        quotes=tuple(quotes),
        stamp=stamp,
    )
    if base is not None:
        note = replace(base, citekey=base.citekey or citekey, quotes=base.quotes + tuple(quotes))
    names = [_file_stem(rel), _file_stem(inner), _file_stem(Path(inner).name), note_id, title]
    names += _meta_tags(meta.get("aliases"), strip_hash=False)
    note = replace(note, tags=tags)
    names = [unicodedata.normalize("NFC", name) for name in names]
    return VaultNote(note, tuple(reading.links), tuple(dict.fromkeys(names)), tuple(problems))


def resolve_links(
    parsed: Iterable[VaultNote],
    notes: Mapping[str, Note],
    labels: Callable[[str], Sequence[str]] | None = None,
) -> tuple[dict[str, Note], list[tuple[str, str]]]:
    """Vault notes with their wikilinks resolved to addresses, and (path, problem) for misses.

    A target is matched by the names each vault note answers to (path, file name, id,
    title, aliases; first in path order wins), then by the id of any other note.
    `labels(citekey)` gives a PDF source's printed page labels: an attribution's `p. 12`
    is the printed page, turned here into its position in the source text.
    """
    read = sorted(((p, p.note) for p in parsed if p.note is not None), key=lambda p: p[1].path)
    names = _Names()
    for item, note in read:
        for name in item.names:
            names.add(name, note.address)
    ids = _Names()
    for known, other in notes.items():
        ids.add(other.id, known)
    out: dict[str, Note] = {}
    problems: list[tuple[str, str]] = []
    for item, note in read:
        links = list(note.links)
        missing: list[str] = []
        inexact: list[str] = []
        ambiguous: list[str] = []
        for target, relation in item.pending:
            wanted = _file_stem(unicodedata.normalize("NFC", target.strip()))
            address = names.exact(wanted) or ids.exact(wanted)
            if address is None:
                folded = names.folded(wanted) or ids.folded(wanted)
                if len(folded) == 1:
                    address = folded[0]
                    inexact.append(target)
                elif folded:
                    ambiguous.append(target)
            if address is None:
                # Kept as the address the note would have in this folder: a claim resting
                # on a note not yet written is a missing hop, not a claim resting on nothing.
                missing.append(target)
                address = note_address(note.store, note.source, path_id(target))
            if address != note.address:
                links.append(Link(address, relation, target.strip()))
        for targets, words in (
            (ambiguous, "match several notes when letter case is ignored; not linked"),
            (inexact, "match a note only when letter case is ignored; linked, check them"),
        ):
            if targets:
                shown = ", ".join(f"[[{t}]]" for t in dict.fromkeys(targets))
                problems.append((note.path, f"links {shown} {words}"))
        missing = [t for t in missing if t not in ambiguous]
        if missing:
            shown = ", ".join(f"[[{t}]]" for t in dict.fromkeys(missing))
            problems.append((note.path, f"links to notes not in the vault: {shown}"))
        quotes = note.quotes
        printed = labels(note.citekey) if labels is not None and note.citekey else ()
        if printed:
            quotes = tuple(_positioned(quote, printed) for quote in quotes)
        # One link per target and relation, however many ways the note spelled it.
        unique: dict[tuple[str, str], Link] = {}
        for link in links:
            unique.setdefault((link.target_address, link.relation), link)
        out[note.address] = replace(note, links=tuple(unique.values()), quotes=quotes)
    return out, problems


class _Names:
    """Names → addresses, looked up exactly (after NFC) and with letter case ignored.

    The first address to claim a name keeps it, so a lookup is as deterministic as the
    order notes were added in.
    """

    def __init__(self) -> None:
        self._exact: dict[str, str] = {}
        self._folded: dict[str, list[str]] = {}

    def add(self, name: str, address: str) -> None:
        name = unicodedata.normalize("NFC", name)
        self._exact.setdefault(name, address)
        holders = self._folded.setdefault(name.casefold(), [])
        if address not in holders:
            holders.append(address)

    def exact(self, name: str) -> str | None:
        return self._exact.get(name)

    def folded(self, name: str) -> list[str]:
        return self._folded.get(name.casefold(), [])


def _file_stem(name: str) -> str:
    return name[:-3] if name.lower().endswith(".md") else name


def _positioned(quote: Quote, printed: Sequence[str]) -> Quote:
    if quote.page is None or not quote.id.startswith("v"):
        return quote
    position = next(
        (n for n, label in enumerate(printed, start=1) if label == str(quote.page)), None
    )
    return replace(quote, page=position) if position is not None else quote


class _Body:
    """One pass over a note's body: plain text, heading, links, tags and attributed quotes."""

    def __init__(self, body: str):
        self.heading: str | None = None
        self.links: list[tuple[str, str]] = []
        self.tags: list[str] = []
        self.quotes: list[tuple[str, str, int | None]] = []
        plain: list[str] = []
        block: list[str] = []
        fenced = False
        for line in body.splitlines():
            if line.lstrip().startswith(("```", "~~~")):
                fenced = not fenced
                self._end_block(block, plain, None)
                block = []
                plain.append(line)
                continue
            if fenced:
                plain.append(line)
                continue
            self._scan(line)
            stripped = line.strip()
            quoted = stripped.startswith(">")
            inner = stripped.lstrip(">").strip() if quoted else stripped
            attribution = _ATTRIBUTION.match(inner) if block else None
            if attribution:
                self._end_block(block, plain, attribution)
                block = []
            elif quoted:
                if block or not _CALLOUT.match(inner):
                    block.append(_CALLOUT.sub("", inner))
            else:
                self._end_block(block, plain, None)
                block = []
                self._plain_line(line, plain)
        self._end_block(block, plain, None)
        self.plain = re.sub(r"\n{3,}", "\n\n", "\n".join(plain)).strip()

    def _plain_line(self, line: str, plain: list[str]) -> None:
        if _FIELD_LINE.match(line):
            return  # a typed link line is metadata, not prose
        heading = _HEADING.match(line.strip())
        if heading:
            shown = _display(_TAG.sub("", heading.group(1))).strip()
            self.heading = self.heading or shown
            plain.append(shown)
        else:
            plain.append(_untagged(_display(line)))

    def _scan(self, line: str) -> None:
        visible = _CODE_SPAN.sub("", line)
        fields = [(m.end(), m.group(1).lower()) for m in _FIELD.finditer(visible)]
        for match in _WIKILINK.finditer(visible):
            embed, target = match.group(1), match.group(2).strip()
            if not target or (embed and _MEDIA.search(target)) or _MEDIA.search(target):
                continue
            relation = next((name for end, name in reversed(fields) if end <= match.start()), None)
            self.links.append((target, relation or LINKS_TO))
        self.tags.extend(m.group(1) for m in _TAG.finditer(_WIKILINK.sub("", visible)))

    def _end_block(
        self, block: list[str], plain: list[str], attribution: re.Match[str] | None
    ) -> None:
        if not block:
            return
        text = " ".join(" ".join(part for part in block if part).split())
        if attribution is not None and text:
            citekey, page = attribution.group(1), attribution.group(2)
            self.quotes.append((citekey, _display(text), int(page) if page else None))
        plain.append(_display(text))
        plain.append("")


def _untagged(line: str) -> str:
    """The line without its inline tags (`#claim`, `#tag/sub`): they say what a note is, not
    what it claims. Code spans keep theirs, and a URL's `#anchor` is no tag."""
    out, at = [], 0
    for code in _CODE_SPAN.finditer(line):
        out.append(_TAG_IN_TEXT.sub("", line[at : code.start()]))
        out.append(code.group(0))
        at = code.end()
    out.append(_TAG_IN_TEXT.sub("", line[at:]))
    text = "".join(out).lstrip()
    indent = line[: len(line) - len(line.lstrip())]
    return indent + text if text else ""


def _display(text: str) -> str:
    """Wikilinks shown as their text (`[[t|alias]]` → alias), embeds dropped."""

    def shown(match: re.Match[str]) -> str:
        if match.group(1):
            return ""
        return (match.group(3) or match.group(2)).strip()

    return _WIKILINK.sub(shown, text)


def _kind(
    folder: VaultFolder,
    meta: Mapping[str, Any],
    tags: tuple[str, ...],
    quotes: Sequence[Quote],
    citekey: str | None,
    problems: list[str],
) -> NoteKind:
    allowed = KINDS_BY_STORE[folder.store]
    declared = meta.get("type")
    if isinstance(declared, str) and declared in {kind.value for kind in allowed}:
        return NoteKind(declared)
    if declared is not None:
        problems.append(f"type {declared!r} is not a {folder.store.name.lower()} kind; inferred")
    lowered = {tag.lower() for tag in tags}
    for kind in sorted(allowed, key=lambda k: k.value):
        if kind.value in lowered:
            return kind
    if folder.store is Store.CANON:
        return NoteKind.FINDING if quotes else NoteKind.SOURCE if citekey else NoteKind.CONCEPT
    name = folder.path.lower()
    for kind in (NoteKind.DECISION, NoteKind.CHECKPOINT):
        if kind.value in name:
            return kind
    return NoteKind.EXPERIMENT


def _text(value: object) -> str | None:
    if isinstance(value, str) and value.strip():
        return value.strip()
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return None


def _meta_tags(value: object, *, strip_hash: bool = True) -> list[str]:
    items = [value] if isinstance(value, str) else value if isinstance(value, list) else []
    out = []
    for item in items:
        if isinstance(item, str) and item.strip():
            out.append(item.strip().lstrip("#") if strip_hash else item.strip())
    return out

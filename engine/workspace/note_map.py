"""A workspace's notes by address: the written ones beside the sources' passages.

Read-only, iterated in address order. The passages are made when first read
(`engine.workspace.passage_notes`), so a caller that needs only what people wrote (links,
tethers, the notes the vectors cover) reads `written`, and one that needs every note's stamp
(the index) reads `stamped()`; neither makes a passage.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping
from functools import cached_property

from engine.workspace.notes import FileStamp, Note, note_stamp
from engine.workspace.passage_notes import PassageNotes


class NoteMap(Mapping[str, Note]):
    """Every note of a workspace by address: `written` (note files) and `passages`."""

    def __init__(self, written: Mapping[str, Note], passages: PassageNotes | None = None):
        # A plain dict: one lookup per read, and mappingproxy lookups are noticeably slower.
        self._written = dict(written)
        self.passages = passages if passages is not None else PassageNotes()

    @property
    def written(self) -> Mapping[str, Note]:
        """The notes read from note files (canon, practice, vault), without the passages."""
        return self._written

    @cached_property
    def _order(self) -> list[str]:
        return sorted([*self._written, *self.passages])

    def __getitem__(self, address: str) -> Note:
        note = self._written.get(address)
        return note if note is not None else self.passages[address]

    def __contains__(self, address: object) -> bool:
        return address in self._written or address in self.passages

    def __iter__(self) -> Iterator[str]:
        return iter(self._order)

    def __len__(self) -> int:
        return len(self._written) + len(self.passages)

    @cached_property
    def digest(self) -> str:
        """A digest of every note's address, stamp and path: equal for two loads whose
        notes an index would hold alike (`Index.update` skips its table when they are)."""
        lines = []
        for address in sorted(self._written):
            note = self._written[address]
            stamp = note_stamp(note)
            lines.append(
                f"{address}\x1f{stamp.sha256}\x1f{stamp.size}\x1f{stamp.mtime_ns}\x1f{note.path}"
            )
        for laid in self.passages.laid():
            stamp = laid.source.stamp
            lines.append(
                f"{stamp.sha256}\x1f{stamp.size}\x1f{stamp.mtime_ns}\x1f{laid.source.key}\x1e"
                + "\x1e".join(laid.addresses)
            )
        return hashlib.sha256("\n".join(lines).encode("utf-8", "surrogatepass")).hexdigest()

    def stamped(self) -> Iterator[tuple[str, FileStamp, str]]:
        """Every note's address, stamp (`note_stamp`: one made from its text for a note made
        in memory) and path, in address order, without making a passage."""
        rows = {a: (a, note_stamp(n), n.path) for a, n in self._written.items()}
        rows.update((a, (a, stamp, path)) for a, stamp, path in self.passages.stamped())
        return map(rows.__getitem__, self._order)

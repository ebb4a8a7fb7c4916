"""A workspace's notes by address: the written ones beside the sources' passages.

Read-only, iterated in address order. The passages are made when first read
(`engine.workspace.passage_notes`), so a caller that needs only what people wrote (links,
tethers, the notes the vectors cover) reads `written`, and one that needs every note's stamp
(the index) reads `stamped()`; neither makes a passage.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import cached_property

from engine.workspace.notes import FileStamp, Note
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

    def stamped(self) -> Iterator[tuple[str, FileStamp | None, str]]:
        """Every note's address, file stamp (None for a note made in memory) and path, in
        address order, without making a passage."""
        rows = {a: (a, n.stamp, n.path) for a, n in self._written.items()}
        rows.update((a, (a, stamp, path)) for a, stamp, path in self.passages.stamped())
        return map(rows.__getitem__, self._order)

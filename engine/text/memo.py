"""A least-recently-used memo of a pure function of one text, bounded by entries and by size.

Sources are checked again and again (every claim citing one, every answer quoting it), so
their folded forms are kept by content: equal text, equal result, whatever object holds it.
`functools.lru_cache` bounds only the number of entries, and one cached book can weigh
megabytes; this memo also bounds the characters it keeps, and never keeps a text larger
than its whole budget.
"""

from __future__ import annotations

import contextlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class TextMemo(Generic[T]):
    """`memo(text)` is `function(text)`, computed once while `text` stays among the recent.

    At most `entries` texts and `chars` characters of text are kept; the least recently
    used go first. The function must be pure: its result may be shared between callers.
    """

    def __init__(self, function: Callable[[str], T], *, entries: int, chars: int) -> None:
        if entries < 1 or chars < 1:
            raise ValueError("a memo keeps at least one entry and one character")
        self._function = function
        self._entries = entries
        self._chars = chars
        self._kept: OrderedDict[str, T] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()

    def __call__(self, text: str) -> T:
        # A hit takes no lock: each OrderedDict call is atomic under the interpreter lock, and
        # an entry evicted between the two is still returned. Misses are written under the lock.
        found = self._kept.get(text, _MISSING)
        if found is not _MISSING:
            with contextlib.suppress(KeyError):
                self._kept.move_to_end(text)
            return found  # type: ignore[return-value]  # only results are stored
        value = self._function(text)
        if len(text) > self._chars:
            return value
        with self._lock:
            if text not in self._kept:
                self._kept[text] = value
                self._size += len(text)
                while len(self._kept) > self._entries or self._size > self._chars:
                    dropped, _ = self._kept.popitem(last=False)
                    self._size -= len(dropped)
        return value

    def __len__(self) -> int:
        return len(self._kept)

    @property
    def size(self) -> int:
        """The characters of text kept now."""
        return self._size

    def clear(self) -> None:
        """Forget every kept result."""
        with self._lock:
            self._kept.clear()
            self._size = 0


K = TypeVar("K", bound=Hashable)


class PairMemo(Generic[K, T]):
    """`memo(key, text)` is `function(key, text)`, kept per text while `text` stays recent.

    For a small key checked against a large text (a quote against its source): the texts
    are kept as `TextMemo` keeps them, by content and bounded by `entries` and `chars`, and
    each text holds the results of at most `per_text` keys (the oldest set forgotten at
    once when full). The function must be pure: its result may be shared between callers.
    """

    def __init__(
        self, function: Callable[[K, str], T], *, entries: int, chars: int, per_text: int
    ) -> None:
        if per_text < 1:
            raise ValueError("a memo keeps at least one result per text")
        self._function = function
        self._per_text = per_text
        self._tables: TextMemo[dict[K, T]] = TextMemo(_table, entries=entries, chars=chars)

    def __call__(self, key: K, text: str) -> T:
        table = self._tables(text)
        found = table.get(key, _MISSING)
        if found is not _MISSING:
            return found  # type: ignore[return-value]  # only results are stored
        value = self._function(key, text)
        if len(table) >= self._per_text:
            table.clear()
        table[key] = value
        return value

    def clear(self) -> None:
        """Forget every kept result."""
        self._tables.clear()


_MISSING = object()


def _table(_text: str) -> dict[Any, Any]:
    # A text's results start empty; they are filled as keys are asked of it.
    return {}

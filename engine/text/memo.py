"""A least-recently-used memo of a pure function of one text, bounded by entries and by size.

Sources are checked again and again (every claim citing one, every answer quoting it), so
their folded forms are kept by content: equal text, equal result, whatever object holds it.
`functools.lru_cache` bounds only the number of entries, and one cached book can weigh
megabytes; this memo also bounds the characters it keeps, and never keeps a text larger
than its whole budget.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

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
        with self._lock:
            if text in self._kept:
                self._kept.move_to_end(text)
                return self._kept[text]
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

"""Free memory given back to the system after a burst of temporaries.

glibc's malloc keeps the pages it freed for later use, in an arena per thread that allocated.
Loading the encoder folds its weights through tens of MB of temporaries, and opening a
workspace parses every note on the opener's thread; a long-lived process (the app's server)
would carry those pages for its whole life, on top of everything it allocates later.
`give_back()` returns them (`malloc_trim`, a few ms). Nothing an answer depends on changes.
"""

from __future__ import annotations

import ctypes
import functools
from collections.abc import Callable


def give_back() -> bool:
    """Return the C allocator's free pages to the system; False where it has no such call
    (a C library other than glibc), and then nothing is done."""
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    try:
        found = getattr(ctypes.CDLL(None), "malloc_trim", None)
    except (OSError, TypeError):  # no C library to load by name here (Windows)
        return None
    if found is None:
        return None
    found.argtypes = [ctypes.c_size_t]
    found.restype = ctypes.c_int
    trim: Callable[[int], int] = found
    return trim

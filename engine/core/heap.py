"""Free memory given back to the system after a burst of temporaries.

glibc's malloc keeps the pages it freed for later use, in an arena per thread that allocated.
Loading the encoder folds its weights through tens of MB of temporaries, and opening a
workspace parses every note on the opener's thread; a long-lived process (the app's server)
would carry those pages for its whole life, on top of everything it allocates later.
`give_back()` returns them (`malloc_trim`, a few ms). Nothing an answer depends on changes.

`collections_paused()` keeps Python's cycle collector out of such a burst: each full
collection walks every live object, and a process holding a large library (hundreds of
thousands of notes and passages) paid for several while reloading it.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import gc
from collections.abc import Callable, Iterator


def give_back() -> bool:
    """Return the C allocator's free pages to the system; False where it has no such call
    (a C library other than glibc), and then nothing is done."""
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True


@contextlib.contextmanager
def collections_paused() -> Iterator[None]:
    """No cyclic garbage collection while the block runs; reference counting frees as ever.

    For a bounded burst that allocates many long-lived objects and little cyclic garbage (a
    workspace's notes). Collection resumes at the end only if it was on at the start, so a
    caller that turned it off keeps it off; another thread in a block of its own at the same
    time may see it resume before its own block ends, which only costs it time.
    """
    was_on = gc.isenabled()
    if was_on:
        gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


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

"""Progress lines on stderr for long CLI jobs, shown only when stderr is a terminal."""

from __future__ import annotations

import sys
from typing import TextIO


class Progress:
    """One rewritten stderr line per job (`label: done/total (p%)`), silent in pipes and files.

    Call it with `(done, total)`; it redraws at each whole percent and ends the line when the
    job is done. `note` prints one finished line, such as a phase or a summary.
    """

    def __init__(self, label: str, *, stream: TextIO | None = None, enabled: bool | None = None):
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = _is_terminal(self.stream) if enabled is None else enabled
        self.shown = -1

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        percent = 100 if total <= 0 else min(100, done * 100 // total)
        finished = done >= total
        if percent == self.shown and not finished:
            return
        self.shown = percent
        end = "\n" if finished else ""
        self.stream.write(f"\r{self.label}: {done:,}/{total:,} ({percent}%){end}")
        self.stream.flush()

    def note(self, text: str) -> None:
        if self.enabled:
            self.stream.write(f"{text}\n")
            self.stream.flush()


def answers_redirected() -> bool:
    """Whether stderr is a terminal while stdout goes to a file or a pipe.

    A command that prints one result per line shows its progress through those lines on a
    terminal; only when they are redirected does a progress line tell how far it got.
    """
    return _is_terminal(sys.stderr) and not _is_terminal(sys.stdout)


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False

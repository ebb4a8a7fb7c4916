"""JSON-lines batch files for the CLI: each line parsed safely, malformed lines counted.

A malformed line (bad UTF-8, bad JSON, nesting past `jsonsafe.MAX_DEPTH`, a wrong shape)
becomes an `error` record in the output, the other lines still run, and the command then
ends with one `error: …` line on stderr and exit status 2.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from engine.core.errors import ConfigError

MALFORMED_EXIT = 2


@dataclass
class Tally:
    """The malformed lines seen so far in one batch file."""

    path: Path
    problems: list[str] = field(default_factory=list)

    def error(self, ident: object, number: int, problem: str) -> dict[str, object]:
        """The output record for a malformed line; the line is counted."""
        message = f"line {number}: {problem}"
        self.problems.append(message)
        shown = ident if isinstance(ident, str | int) else None
        return {"id": shown, "line": number, "error": message}

    def exit_status(self, otherwise: int) -> int:
        """`otherwise` when every line was well formed; else say so on stderr and give 2."""
        if not self.problems:
            return otherwise
        count = len(self.problems)
        print(
            f"error: {count} malformed line(s) in {self.path}; first {self.problems[0]}",
            file=sys.stderr,
        )
        return MALFORMED_EXIT


def count_lines(path: Path) -> int | None:
    """The non-blank lines of a regular batch file, or None when counting would consume it."""
    try:
        if not path.is_file():  # a pipe or a device can be read only once
            return None
        with path.open("rb") as stream:
            return sum(1 for raw in stream if raw.strip())
    except OSError:
        return None  # batch_lines reports the problem


def batch_lines(path: Path) -> Iterator[tuple[int, object, str]]:
    """(line number, parsed value, problem) for each non-blank line; value None on a problem.

    Raises ConfigError when the file cannot be read at all.
    """
    from engine.core import jsonsafe

    try:
        with path.open("rb") as stream:
            for number, raw in enumerate(stream, start=1):
                if not raw.strip():
                    continue
                try:
                    yield number, jsonsafe.loads(raw), ""
                except ValueError as exc:
                    yield number, None, f"not valid JSON ({exc})"
    except OSError as exc:
        raise ConfigError(f"cannot read batch file {path}: {exc.strerror or exc}") from None

"""A JSON-lines output file that holds only whole lines, in input order, and is resumed.

A batch's results go to `--out FILE` one whole line per write, appended, so a client
interrupted at any point (Ctrl-C, `kill -9`, a lost connection) leaves the lines it wrote
and nothing half-written: a trailing fragment without its newline (a full disk) is cut
off when the file is opened again. The next run with the same file keeps those lines,
checks they answer the batch's first items, and does only the rest.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from engine.core.errors import ConfigError

Identity = Callable[[dict[str, Any]], object]


class LinesOut:
    """An open `--out` file: `kept` lines from an earlier run, then `write` appends whole lines."""

    def __init__(self, path: Path, fd: int, kept: int, errors: list[str]) -> None:
        self.path = path
        self._fd = fd
        self.kept = kept
        # The problems an earlier run wrote as error records: they still count in this run.
        self.errors = errors
        self.written = 0

    @classmethod
    def resume(cls, path: Path, expected: Sequence[object], identity: Identity) -> LinesOut:
        """Open `path`, keeping the whole lines already there that match `expected` in order.

        `identity(record)` must equal `expected[k]` for the k-th line kept. Raises
        ConfigError when the file is not an earlier run of this batch (a line that does not
        parse or names another item, more lines than items), or is a link.
        """
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_APPEND, 0o644)
        except OSError as exc:
            raise ConfigError(f"cannot write --out {path}: {exc.strerror or exc}") from None
        try:
            data = _read_all(fd)
            whole = data[: data.rfind(b"\n") + 1]
            if len(whole) < len(data):
                os.ftruncate(fd, len(whole))  # the fragment a failed write left
            lines = whole.decode("utf-8", "replace").splitlines()
            errors = _check(path, lines, expected, identity)
        except BaseException:
            os.close(fd)
            raise
        return cls(path, fd, len(lines), errors)

    def write(self, line: str) -> None:
        """Append one line (a newline is added) in a single write."""
        data = (line + "\n").encode("utf-8")
        view = memoryview(data)
        while view:
            view = view[os.write(self._fd, view) :]
        self.written += 1

    def close(self) -> None:
        """Make the lines durable and close the file."""
        try:
            os.fsync(self._fd)
        finally:
            os.close(self._fd)

    def __enter__(self) -> LinesOut:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _read_all(fd: int) -> bytes:
    chunks = []
    os.lseek(fd, 0, os.SEEK_SET)
    while chunk := os.read(fd, 1 << 20):
        chunks.append(chunk)
    return b"".join(chunks)


def _check(
    path: Path, lines: list[str], expected: Sequence[object], identity: Identity
) -> list[str]:
    """The error records' messages among `lines`, once each line is known to fit the batch."""
    if len(lines) > len(expected):
        raise ConfigError(
            f"--out {path} holds {len(lines):,} lines, more than the batch's {len(expected):,} "
            "items; give a new file to start over"
        )
    errors = []
    for number, (line, wanted) in enumerate(zip(lines, expected, strict=False), start=1):
        try:
            record = json.loads(line)
        except ValueError:
            record = None
        if not isinstance(record, dict) or identity(record) != wanted:
            raise ConfigError(
                f"--out {path} line {number} is not this batch's result for item {wanted!r}; "
                "give a new file to start over"
            )
        if isinstance(record.get("error"), str):
            errors.append(record["error"])
    return errors

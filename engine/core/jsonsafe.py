"""JSON parsing that refuses what would crash a reader: bad UTF-8 and nesting past a bound.

`json.loads` raises `RecursionError` on deep nesting, which readers documented as never
raising would let through, and code walking a parsed value recursively could hit the same
wall later. `loads` turns both into a `ValueError` naming the problem.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Sequence
from enum import StrEnum
from typing import TypeGuard, TypeVar

MAX_DEPTH = 64
E = TypeVar("E", bound=StrEnum)


def loads(data: str | bytes, *, max_depth: int = MAX_DEPTH) -> object:
    """The JSON value in `data`; raises ValueError for bad UTF-8, bad JSON or deep nesting."""
    if isinstance(data, bytes | bytearray):
        try:
            data = bytes(data).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ValueError(f"not valid UTF-8 (byte {exc.start})") from None
    try:
        value = json.loads(data)
    except RecursionError:
        raise ValueError(f"JSON nested deeper than {max_depth} levels") from None
    if depth_exceeds(value, max_depth):
        raise ValueError(f"JSON nested deeper than {max_depth} levels")
    return value


def depth_exceeds(value: object, max_depth: int) -> bool:
    """True when `value` nests lists or objects more than `max_depth` levels (no recursion)."""
    stack: list[tuple[object, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children: Iterable[object]
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > max_depth:
            return True
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return False


def filled_strings(values: Sequence[object]) -> TypeGuard[Sequence[str]]:
    """Whether every value read from JSON is a non-empty string."""
    return all(isinstance(value, str) and value for value in values)


def member(kind: type[E], raw: object) -> E | None:
    """The member of the string enum `kind` whose value `raw` is, or None for any other value."""
    if not isinstance(raw, str):
        return None
    return _by_value(kind).get(raw)  # type: ignore[return-value]  # members of `kind`


@functools.cache
def _by_value(kind: type[StrEnum]) -> dict[str, StrEnum]:
    # Looked up in a dict: calling the enum builds and raises an error for every miss.
    return {item.value: item for item in kind}

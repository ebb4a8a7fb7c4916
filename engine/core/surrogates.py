"""Lone surrogates refused anywhere in a decoded payload: valid JSON escapes, not text.

No output can encode a lone surrogate, so a payload holding one in any key or value, at
any depth, is refused before it is read, naming the text that holds it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from engine.core.errors import PayloadError

# Values that hold no text.
_SCALARS = frozenset({int, float, bool, type(None)})
# The format's own keys (and a quote's), plain ASCII: a dict keyed by these alone needs no
# look at its keys.
_WIRE_KEYS = frozenset(
    {
        "asserted", "body", "cites", "claim", "claims", "conclusion", "coverage_report", "dag",
        "edges", "end", "fulltext", "groundings", "id", "kind", "node_bodies", "node_status",
        "paraphrased", "payload", "premises", "prose", "prose_citations", "start", "text",
        "tier", "type", "withheld", "withheld_no",
    }
)  # fmt: skip


def require_unicode(value: object) -> None:
    """Refuse lone surrogates (valid JSON escapes, not text), which no output can encode."""
    # Only non-ASCII text can hold a surrogate (isascii is O(1)), and each such text is
    # encoded once, however often the payload holds it (an abstract as body and as source).
    # A dict's keys and a list of texts are joined and checked in one call; a dict's text
    # values are looked at in place rather than pushed and popped.
    wide: dict[int, str] = {}
    stack: list[Any] = [value]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is dict:
            if not _WIRE_KEYS.issuperset(item):  # keys of the format itself are plain ASCII
                _texts_at_once(item, wide, stack)  # its keys
            for part in item.values():
                if type(part) is str:
                    if not part.isascii():
                        wide[id(part)] = part
                elif type(part) not in _SCALARS:
                    stack.append(part)
        elif kind is list:
            _texts_at_once(item, wide, stack)
        elif kind is str:
            if not item.isascii():
                wide[id(item)] = item
        elif kind in _SCALARS:
            continue
        elif isinstance(item, str):
            wide[id(item)] = item
        elif isinstance(item, Mapping):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    try:
        for text in wide.values():
            text.encode("utf-8")
    except UnicodeEncodeError:
        for text in _each_text(value):
            _encodable(text)  # names the text that holds it


def _texts_at_once(items: Iterable[Any], wide: dict[int, str], stack: list[Any]) -> None:
    """Check `items` joined when all are text; otherwise put them on `stack` one by one."""
    try:
        joined = "".join(items)
    except TypeError:
        stack.extend(items)
        return
    if not joined.isascii():
        wide[id(joined)] = joined


def _each_text(value: object) -> Iterator[str]:
    """Every text in `value`, one by one: keys, values and items, nested."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            yield item
        elif isinstance(item, Mapping):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def _encodable(text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise PayloadError(
            f"text {text[:40]!r} contains a lone surrogate, which is not valid Unicode"
        ) from None

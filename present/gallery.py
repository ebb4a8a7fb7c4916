"""Ready wire payloads, one per decision path, for demonstrating the router.

The payloads are JSON files in `examples/payloads/`, shared with the router tests.
"""

from __future__ import annotations

from engine import (
    PayloadExample as Example,
)
from engine import (
    payload_examples,
)

__all__ = ["Example", "example", "examples"]


def examples() -> tuple[Example, ...]:
    """Every gallery example, in demo order."""
    return payload_examples()


def example(key: str) -> Example:
    """The gallery example named `key`; raises KeyError for an unknown one."""
    for item in examples():
        if item.key == key:
            return item
    raise KeyError(key)

"""Rarity weights: a set of stems weighs the same whichever order it is walked in."""

from __future__ import annotations

from collections.abc import Iterator
from collections.abc import Set as AbstractSet

import pytest

from engine.reading.rarity import IdfTable


class Walked(AbstractSet[str]):
    """A set walked in a given order, as another process's string hashing may walk it."""

    def __init__(self, order: list[str]) -> None:
        self.order = order

    def __contains__(self, item: object) -> bool:
        return item in self.order

    def __iter__(self) -> Iterator[str]:
        return iter(self.order)

    def __len__(self) -> int:
        return len(self.order)


TABLE = IdfTable({"a": 0.1, "b": 0.2, "c": 0.3}, default=7.0)


@pytest.mark.parametrize(
    "order", [["a", "b", "c"], ["c", "b", "a"], ["b", "c", "a"]], ids=["abc", "cba", "bca"]
)
def test_a_sets_weight_does_not_depend_on_its_order(order: list[str]) -> None:
    # 0.1 + 0.2 + 0.3 and 0.3 + 0.2 + 0.1 differ in their last bit when summed in order.
    assert TABLE.weight(Walked(order)) == 0.6


def test_a_missing_stem_weighs_the_default() -> None:
    assert TABLE.weight(Walked(["a", "zz"])) == pytest.approx(7.1)
    assert TABLE({"zz"}) == {"zz": 7.0}

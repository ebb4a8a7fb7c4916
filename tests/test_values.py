import dataclasses
from dataclasses import KW_ONLY, dataclass, field
from typing import Any

import pytest

from engine.core.epistemics import Tier, Verdict
from engine.core.values import quick_init


def _declared() -> Any:
    # One declaration, built twice: as the dataclass builds it and with a quick init.
    @dataclass(frozen=True)
    class Value:
        name: str
        size: int = 3
        _: KW_ONLY
        note: str | None = None
        hidden: int = field(default=0, compare=False, repr=False)

    return Value


Plain = _declared()
Quick = quick_init(_declared())


CALLS = {
    "positional": (("a",), {}),
    "default-overridden": (("a", 5), {}),
    "keyword-only": (("a",), {"note": "n", "hidden": 2}),
    "all-by-keyword": ((), {"name": "a", "size": 1, "note": None}),
}


@pytest.mark.parametrize(("args", "kwargs"), CALLS.values(), ids=CALLS.keys())
def test_a_quick_init_builds_what_the_dataclass_builds(
    args: tuple[Any, ...], kwargs: dict[str, Any]
) -> None:
    quick, plain = Quick(*args, **kwargs), Plain(*args, **kwargs)
    assert dataclasses.astuple(quick) == dataclasses.astuple(plain)
    assert repr(quick) == repr(plain)
    assert quick == Quick(*args, **kwargs) and hash(quick) == hash(Quick(*args, **kwargs))
    assert dataclasses.replace(quick, size=9).size == 9


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [(("a", 1, 2), {}), ((), {}), (("a",), {"colour": "red"})],
    ids=["keyword-only-given-by-position", "missing", "unknown"],
)
def test_a_quick_init_refuses_the_calls_the_dataclass_refuses(
    args: tuple[Any, ...], kwargs: dict[str, Any]
) -> None:
    with pytest.raises(TypeError):
        Plain(*args, **kwargs)
    with pytest.raises(TypeError):
        Quick(*args, **kwargs)


def test_a_quickly_built_value_stays_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        Quick("a").size = 4  # type: ignore[misc]
    verdict = Verdict(Tier.GROUNDED, stale=True)
    assert verdict.wire() is Tier.INFERRED
    with pytest.raises(dataclasses.FrozenInstanceError):
        verdict.stale = False  # type: ignore[misc]


def test_post_init_still_runs() -> None:
    @quick_init
    @dataclass(frozen=True)
    class Checked:
        size: int

        def __post_init__(self) -> None:
            if self.size < 0:
                raise ValueError("negative")

    assert Checked(1).size == 1
    with pytest.raises(ValueError, match="negative"):
        Checked(-1)


def _factory() -> type:
    @dataclass(frozen=True)
    class Factory:
        items: list[int] = field(default_factory=list)

    return Factory


def _slots() -> type:
    @dataclass(frozen=True, slots=True)
    class Slotted:
        size: int

    return Slotted


def _mutable() -> type:
    @dataclass
    class Mutable:
        size: int

    return Mutable


@pytest.mark.parametrize("make", [_factory, _slots, _mutable], ids=["factory", "slots", "mutable"])
def test_a_class_it_cannot_build_alike_is_refused(make: object) -> None:
    with pytest.raises(TypeError):
        quick_init(make())  # type: ignore[operator]

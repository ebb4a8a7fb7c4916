"""Frozen value classes that are quick to build: a frozen dataclass's fields written at once.

A frozen dataclass sets each field through `object.__setattr__` in its `__init__`, three
times the cost of a plain one; a route builds a hundred and more verdicts, claims, matches
and results. `quick_init` gives a frozen dataclass an `__init__` of the same signature that
writes the fields straight into the instance's dict: the same object afterwards, still
frozen to every assignment. Only plain fields qualify (a default value, keyword-only or
not), and `__post_init__` is called as the dataclass would; a class with a default
factory, an init-only or excluded field, or slots is refused when decorated, so nothing is
silently built differently.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

T = TypeVar("T")


def quick_init(cls: type[T]) -> type[T]:
    """`cls` (a frozen dataclass of plain fields) with an `__init__` that sets them at once."""
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen:
        raise TypeError(f"{cls.__name__} is not a frozen dataclass")
    if "__slots__" in cls.__dict__:
        raise TypeError(f"{cls.__name__} has slots: keep its own __init__")
    declared = cls.__dict__["__dataclass_fields__"]
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]  # a dataclass, checked above
    if len(fields) != len(declared):
        raise TypeError(f"{cls.__name__} has an init-only or class variable field")
    positional: list[str] = []
    keyword: list[str] = []
    defaults: dict[str, Any] = {}
    for field in fields:
        if not field.init or field.default_factory is not dataclasses.MISSING:
            raise TypeError(f"{cls.__name__}.{field.name} is not a plain field")
        spelt = field.name
        if field.default is not dataclasses.MISSING:
            defaults[f"_default_{field.name}"] = field.default
            spelt += f"=_default_{field.name}"
        (keyword if field.kw_only else positional).append(spelt)
    signature = ", ".join(["self", *positional, *(["*", *keyword] if keyword else [])])
    body = "".join(f"\n    kept[{f.name!r}] = {f.name}" for f in fields)
    if hasattr(cls, "__post_init__"):
        body += "\n    self.__post_init__()"
    source = f"def __init__({signature}):\n    kept = self.__dict__{body}\n"
    namespace: dict[str, Any] = {}
    exec(source, dict(defaults), namespace)  # built from the class's own field names
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = cls.__init__.__doc__
    cls.__init__ = init  # type: ignore[misc,method-assign]
    return cls

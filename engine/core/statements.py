"""What a non-text verifier confirmed, as one sentence: the only text it may license.

A recomputation confirms a number over a file, a decision tree that one clause applies
under given parameters. Nothing else a note says about them was checked, so a restatement
is licensed by these sentences, never by the note's own words around them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any


def recompute_statement(payload: Mapping[str, Any], value: float) -> str:
    """The recomputed aggregate in words: "The mean of ret in data/returns.csv is 0.0105."."""
    where = _where(payload.get("where"))
    source = f" in {payload.get('file')}" if isinstance(payload.get("file"), str) else ""
    return f"The {payload.get('agg')} of {payload.get('column')}{source}{where} is {value:.12g}."


def tree_statement(payload: Mapping[str, Any], target: str, params: Mapping[str, Any]) -> str:
    """The clause a decision tree reached under its parameters, as one sentence."""
    given = " and ".join(f"{name} = {_value(value)}" for name, value in sorted(params.items()))
    tree = payload.get("file")
    rule = f"the rule in {tree}" if isinstance(tree, str) else "the decision tree"
    return f"With {given or 'no parameters'}, {rule} reaches {target}."


def _where(where: object) -> str:
    if isinstance(where, Mapping) and where:
        pairs = [f"{name} = {_value(value)}" for name, value in sorted(where.items())]
        return " where " + " and ".join(pairs)
    if isinstance(where, list) and where:
        rows = [
            " ".join(str(_value(part)) for part in row)
            for row in where
            if isinstance(row, list | tuple)
        ]
        return " where " + " and ".join(rows)
    return ""


def _value(value: object) -> str:
    return value if isinstance(value, str) else json.dumps(value)

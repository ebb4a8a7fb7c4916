"""Checks on workspace evidence: recomputed aggregates, LaTeX structure, images, decision trees.

These functions know nothing about payloads or the verifier registry; they take plain
values and paths that are already known to be inside the workspace. When the evidence
cannot be checked at all they raise `CannotCheck` with the reason.
"""

from __future__ import annotations

import io
import json
import math
import operator
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from engine.core import jsonsafe

if TYPE_CHECKING:
    import pandas as pd


class CannotCheck(Exception):
    """The evidence cannot be checked here; the message says why. Never a refutation."""


# --- recomputation over a CSV ---------------------------------------------------------

# Aggregate name -> the pandas Series method that computes it (pandas loads on first use).
AGGREGATES: dict[str, str] = {
    name: name for name in ("mean", "sum", "min", "max", "count", "median", "std", "nunique")
}
# These two make sense on text columns too; every other aggregate needs numbers.
_ANY_DTYPE = frozenset({"count", "nunique"})

COMPARISONS: dict[str, Callable[[Any, Any], Any]] = {
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}
OPERATORS = (*COMPARISONS, "in")
_SCALARS = (str, int, float, bool, type(None))


def recompute(csv: bytes, column: str, agg: str, *, where: object = None) -> float:
    """Recompute `agg` over `column` of the rows of the CSV bytes `csv` that pass `where`.

    `where` is `{column: value}` (equality on every pair) or a list of
    `[column, op, value]` with op one of `OPERATORS` (`in` takes a list). `std` is the
    sample standard deviation (ddof=1). Raises `CannotCheck` for an unreadable file, a
    missing column, an unknown aggregate, an empty selection or a non-numeric result.
    """
    if agg not in AGGREGATES:
        raise CannotCheck(f"unknown aggregate {agg!r}; expected one of {', '.join(AGGREGATES)}")
    import pandas as pd  # about a second to import; only this verifier needs it

    try:
        frame = pd.read_csv(io.BytesIO(csv))
    except (OSError, UnicodeDecodeError, ValueError, pd.errors.ParserError) as exc:
        raise CannotCheck(f"cannot read the CSV: {exc}") from exc
    _require_column(frame, column)
    selected = frame[_mask(frame, where)]
    if selected.empty:
        raise CannotCheck("no rows left after the where filter")
    series = selected[column]
    if agg not in _ANY_DTYPE and not pd.api.types.is_numeric_dtype(series):
        raise CannotCheck(f"column {column!r} is not numeric, so {agg} cannot be recomputed")
    try:
        value = float(getattr(series, AGGREGATES[agg])())
    except (TypeError, ValueError) as exc:
        raise CannotCheck(f"{agg} of {column!r} is not a number: {exc}") from exc
    if not math.isfinite(value):
        raise CannotCheck(f"{agg} of {column!r} is not a finite number (too few values?)")
    return value


def _require_column(frame: pd.DataFrame, column: object) -> None:
    if not isinstance(column, str) or column not in frame.columns:
        raise CannotCheck(f"column {column!r} is not in the CSV")


def _mask(frame: pd.DataFrame, where: object) -> pd.Series:
    import pandas as pd  # loaded by `recompute` already

    keep = pd.Series(True, index=frame.index)
    for column, op, value in _conditions(where):
        _require_column(frame, column)
        series = frame[column]
        try:
            keep &= series.isin(value) if op == "in" else COMPARISONS[op](series, value)
        except (TypeError, ValueError) as exc:
            raise CannotCheck(f"cannot compare column {column!r} {op} {value!r}") from exc
    return keep


def _conditions(where: object) -> Iterator[tuple[str, str, Any]]:
    if where is None:
        return
    if isinstance(where, Mapping):
        rows: list[Any] = [[column, "==", value] for column, value in where.items()]
    elif isinstance(where, list | tuple):
        rows = list(where)
    else:
        raise CannotCheck("where must be a {column: value} object or a list of conditions")
    for row in rows:
        yield _condition(row)


def _condition(row: object) -> tuple[str, str, Any]:
    """Validate one `[name, op, value]` triple; the value stays plain data."""
    if not isinstance(row, list | tuple) or len(row) != 3:
        raise CannotCheck(f"condition {row!r} is not [name, op, value]")
    name, op, value = row
    if not isinstance(name, str) or op not in OPERATORS:
        raise CannotCheck(f"condition {row!r} needs a name and one of {' '.join(OPERATORS)}")
    if op == "in":
        if not isinstance(value, list | tuple) or not all(isinstance(v, _SCALARS) for v in value):
            raise CannotCheck(f"'in' needs a list of plain values, got {value!r}")
        return name, op, list(value)
    if not isinstance(value, _SCALARS):
        raise CannotCheck(f"condition value {value!r} is not a plain value")
    return name, op, value


# --- LaTeX structure ------------------------------------------------------------------

_MOJIBAKE = ("Ã", "â€", "\ufffd")
_CLOSERS = {"}": "{"}
_COMMAND = re.compile(r"\\([A-Za-z]+|.)", re.DOTALL)
_ENV_NAME = re.compile(r"\s*\{([^{}]*)\}")
_DELIMITER = re.compile(r"\s*(\\[A-Za-z]+|\\.|.)", re.DOTALL)


def latex_problem(text: str) -> str | None:
    """The first structural problem in a LaTeX snippet, or None when it looks sound.

    Checks: not empty, no mojibake, `{}` balanced and properly nested with
    `\\begin`/`\\end` environments and `\\left`/`\\right` pairs. Escaped characters
    (`\\{`, `\\%`) and `%` comments are ignored. Round and square brackets are not
    structure in LaTeX, so half-open intervals (`[0, 1)`, `]0, 1[`) are sound.
    """
    if not text.strip():
        return "equation is empty"
    for marker in _MOJIBAKE:
        if marker in text:
            return f"mojibake {marker!r} in equation (text decoded with the wrong encoding)"
    stack: list[tuple[str, int]] = []  # (opener, position); environments as "\\begin{name}"
    pos = 0
    while pos < len(text):
        char = text[pos]
        if char == "%":
            newline = text.find("\n", pos)
            pos = len(text) if newline < 0 else newline + 1
            continue
        if char == "\\":
            match = _COMMAND.match(text, pos)
            if match is None:
                return f"stray backslash at the end (position {pos})"
            pos = match.end()
            problem, pos = _command(text, pos, match.group(1), stack)
            if problem:
                return problem
            continue
        if char == "{":
            stack.append((char, pos))
        elif char in _CLOSERS:
            if not stack or stack[-1][0] != _CLOSERS[char]:
                return f"unbalanced {char!r} at position {pos}{_inside(stack)}"
            stack.pop()
        pos += 1
    if stack:
        opener, at = stack[-1]
        return f"{opener!r} opened at position {at} is never closed"
    return None


def _command(text: str, pos: int, name: str, stack: list[tuple[str, int]]) -> tuple[str, int]:
    """Account for one command; returns (problem or "", position after it)."""
    start = pos - len(name) - 1
    if name in ("begin", "end"):
        env = _ENV_NAME.match(text, pos)
        if env is None:
            return f"\\{name} at position {start} has no {{name}}", pos
        opener = f"\\begin{{{env.group(1)}}}"
        if name == "begin":
            stack.append((opener, start))
        elif not stack or stack[-1][0] != opener:
            return f"\\end{{{env.group(1)}}} at position {start}{_inside(stack)}", env.end()
        else:
            stack.pop()
        return "", env.end()
    if name in ("left", "right"):
        # The delimiter after \left or \right is free: \left[ ... \right) is valid.
        delim = _DELIMITER.match(text, pos)
        end = delim.end() if delim else pos
        if name == "left":
            stack.append(("\\left", start))
        elif not stack or stack[-1][0] != "\\left":
            return f"\\right at position {start} without a matching \\left", end
        else:
            stack.pop()
        return "", end
    return "", pos


def _inside(stack: list[tuple[str, int]]) -> str:
    if not stack:
        return " with nothing open"
    opener, at = stack[-1]
    return f" while {opener!r} from position {at} is still open"


# --- images ---------------------------------------------------------------------------

_SIGNATURES = (
    (b"\x89PNG\r\n\x1a\n", "png"),
    (b"\xff\xd8\xff", "jpeg"),
    (b"GIF87a", "gif"),
    (b"GIF89a", "gif"),
    (b"II*\x00", "tiff"),
    (b"MM\x00*", "tiff"),
    (b"II+\x00", "tiff"),  # BigTIFF
    (b"MM\x00+", "tiff"),
)
_SVG_ROOT = re.compile(rb"<svg[\s>/]", re.IGNORECASE)


def image_kind(data: bytes) -> str | None:
    """The image format of `data` by magic bytes (png, jpeg, gif, tiff, webp, svg), else None."""
    head = data[:1024]
    for magic, kind in _SIGNATURES:
        if head.startswith(magic):
            return kind
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "webp"
    if _SVG_ROOT.search(head):
        return "svg"
    return None


# --- decision trees -------------------------------------------------------------------


class NodeState(StrEnum):
    """Where a tree node stands for a given set of parameters."""

    APPLIES = "applies"
    EXCLUDED = "excluded"
    UNRESOLVED = "unresolved"


@dataclass(frozen=True)
class Clause:
    """One node's state and, unless it applies, the condition that decided it."""

    state: NodeState
    reason: str = ""


def load_tree(data: bytes, name: str) -> Mapping[str, Any]:
    """A JSON decision tree from the bytes of the file `name`."""
    try:
        tree = jsonsafe.loads(data)
    except ValueError as exc:
        raise CannotCheck(f"cannot read tree {name}: {exc}") from exc
    if not isinstance(tree, Mapping):
        raise CannotCheck(f"tree {name} is not a JSON object")
    return tree


def walk_tree(tree: Mapping[str, Any], params: Mapping[str, Any]) -> dict[str, Clause]:
    """Classify every node of `tree` as applying, excluded or unresolved under `params`.

    A node is `{"id": str, "when": [[param, op, value], ...], "children": [node, ...]}`
    (`when` and `children` optional). Its path is its own conditions plus its
    ancestors'. A false condition anywhere on the path excludes it; otherwise a missing
    parameter or a type mismatch leaves it unresolved; otherwise it applies. Raises
    `CannotCheck` for a malformed tree or a repeated id.
    """
    out: dict[str, Clause] = {}
    pending: list[tuple[object, Clause]] = [(tree, Clause(NodeState.APPLIES))]
    while pending:
        node, inherited = pending.pop()
        if not isinstance(node, Mapping) or not isinstance(node.get("id"), str):
            raise CannotCheck(f"tree node {node!r:.80} needs a string id")
        if node["id"] in out:
            raise CannotCheck(f"tree node id {node['id']!r} appears twice")
        clause = inherited
        for condition in _tree_conditions(node):
            clause = _combine(clause, condition, params)
        out[node["id"]] = clause
        children = node.get("children", [])
        if not isinstance(children, list):
            raise CannotCheck(f"children of {node['id']!r} must be a list")
        pending.extend((child, clause) for child in reversed(children))
    return out


def _tree_conditions(node: Mapping[str, Any]) -> list[tuple[str, str, Any]]:
    when = node.get("when", [])
    if not isinstance(when, list):
        raise CannotCheck(f"when of {node['id']!r} must be a list of conditions")
    return [_condition(row) for row in when]


def _combine(so_far: Clause, condition: tuple[str, str, Any], params: Mapping[str, Any]) -> Clause:
    # An exclusion already found wins; a false condition beats an unresolved one.
    if so_far.state is NodeState.EXCLUDED:
        return so_far
    name, op, value = condition
    text = f"{name} {op} {json.dumps(value)}"
    if name not in params:
        outcome = None
        why = f"parameter {name!r} is missing ({text})"
    else:
        outcome = _holds(params[name], op, value)
        why = f"cannot compare {params[name]!r} with {text}"
    if outcome is False:
        return Clause(NodeState.EXCLUDED, text)
    if outcome is None and so_far.state is NodeState.APPLIES:
        return Clause(NodeState.UNRESOLVED, why)
    return so_far


def _holds(actual: object, op: str, value: object) -> bool | None:
    """Plain comparison of two values of the same kind; None when the kinds differ."""
    kind = _kind(actual)
    if kind is None:
        return None
    if op == "in":
        assert isinstance(value, list)  # _condition guarantees it
        if any(_kind(v) != kind for v in value):
            return None
        return actual in value
    if _kind(value) != kind:
        return None
    return bool(COMPARISONS[op](actual, value))


def _kind(value: object) -> str | None:
    # bool is an int in Python; keep it apart so True never equals 1 here.
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int | float):
        return "number" if not (isinstance(value, float) and math.isnan(value)) else None
    if isinstance(value, str):
        return "str"
    return None

"""The verifier registry: one normalised result per grounding type, and the five built-ins.

A verifier says `ok` (the ground holds), `failed` (a definitive refutation: a false
premise) or `unverifiable` (cannot decide here: it never grounds and never refutes).
Add a type with `register(name, fn)` (the built-ins register the same way into
`VERIFIERS`); `verify` dispatches and never raises. Tests build their own `Registry` and
pass it as `verify(..., registry=...)`.
"""

from __future__ import annotations

import contextlib
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from pathlib import Path
from typing import Any, Protocol

from engine.core import jsonsafe
from engine.core.epistemics import Tier, Verdict
from engine.core.errors import EngineError
from engine.core.evidence import (
    CannotCheck,
    NodeState,
    image_kind,
    latex_problem,
    load_tree,
    recompute,
    walk_tree,
)
from engine.core.licensing import Fit, licensable_part, quote_fit
from engine.core.paths import resolve_inside
from engine.core.quote import verify_quote
from engine.core.reads import FileRead, ReadLog
from engine.core.registry import PLUGIN_GROUPS, Registry
from engine.core.statements import recompute_statement, tree_statement
from engine.core.values import quick_init
from engine.text.memo import PairMemo

__all__ = [
    "VERIFIERS",
    "CannotCheck",
    "Verifier",
    "VerifierResult",
    "VerifierStatus",
    "VerifyContext",
    "register",
    "verify",
]


# The cap the workspace puts on tethered files: a 300 MB "source" is refused, not read whole.
MAX_VERIFIED_FILE_BYTES = 20 * 1024 * 1024


class VerifierStatus(StrEnum):
    """The three outcomes every verifier is normalised to."""

    OK = "ok"
    FAILED = "failed"
    UNVERIFIABLE = "unverifiable"


@quick_init
@dataclass(frozen=True)
class VerifierResult:
    """One verifier's outcome.

    Build with `VerifierResult.confirmed(detail, ...)`, `.refuted(detail, ...)` or
    `.undecided(detail, ...)`; test with `result.ok`, `result.failed`,
    `result.unverifiable`. `tier` is what an ok gives the node it grounds.
    `confirmed_source_text` is only ever text proven present in the source, and only
    on an ok result; for a quote, only its parts that are whole sentences or independent
    clauses of the source.
    """

    status: VerifierStatus
    detail: str = ""
    method: str | None = None
    tier: Tier = Tier.GROUNDED
    confirmed_source_text: str | None = None
    score: float | None = None
    page: int | None = None
    near_miss: str | None = None
    # For a quote found in its source: how it sits among the source's sentences, and the
    # longer sentence it sits inside when that is why it licenses nothing.
    fit: Fit | None = None
    sentence: str | None = None
    # The workspace files the check read, each with the hash of the bytes it read then.
    reads: tuple[FileRead, ...] = field(default=(), compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.confirmed_source_text is not None and self.status is not VerifierStatus.OK:
            raise EngineError("only an ok result may carry confirmed source text")

    @classmethod
    def confirmed(cls, detail: str = "", **fields: Any) -> VerifierResult:
        """The ground holds."""
        return cls(VerifierStatus.OK, str(detail), **fields)

    @classmethod
    def refuted(cls, detail: str = "", **fields: Any) -> VerifierResult:
        """The ground is definitively false: a false premise."""
        return cls(VerifierStatus.FAILED, str(detail), **fields)

    @classmethod
    def undecided(cls, detail: str = "", **fields: Any) -> VerifierResult:
        """The ground cannot be checked here; it neither grounds nor refutes."""
        return cls(VerifierStatus.UNVERIFIABLE, str(detail), **fields)

    @property
    def ok(self) -> bool:
        return self.status is VerifierStatus.OK

    @property
    def failed(self) -> bool:
        return self.status is VerifierStatus.FAILED

    @property
    def unverifiable(self) -> bool:
        return self.status is VerifierStatus.UNVERIFIABLE

    def verdict(self) -> Verdict:
        """The node verdict: ok gives `tier`, failed gives inferred, unverifiable unresolved."""
        if self.status is VerifierStatus.OK:
            return Verdict(self.tier)
        if self.status is VerifierStatus.FAILED:
            return Verdict(Tier.INFERRED)
        return Verdict.unresolved_inference()

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable view for the wire and the UI."""
        out: dict[str, Any] = {
            "status": self.status._value_,  # read directly: `.value` is a descriptor call
            "method": self.method,
            "detail": self.detail,
            "score": _finite_or_none(self.score),
            "page": int(self.page) if self.page is not None else None,
            "near_miss": self.near_miss,
        }
        if self.fit is not None:
            out["fit"] = self.fit._value_
        if self.sentence is not None:
            out["sentence"] = self.sentence
        if self.confirmed_source_text is not None:
            out["confirmed_source_text"] = self.confirmed_source_text
        return out


def _finite_or_none(value: float | None) -> float | None:
    # JSON has no NaN or infinity, so such a score is dropped rather than emitted.
    if value is None or not math.isfinite(float(value)):
        return None
    return float(value)


@quick_init
@dataclass(frozen=True)
class VerifyContext:
    """What a verifier may use besides its payload: the workspace folder, if any.

    A verifier reads workspace files through `read_bytes`: what it read, hashed as it read
    it, is what the answer resting on it is stamped with, so a later edit makes it stale.
    """

    workspace: Path | None = None
    log: ReadLog | None = field(default=None, compare=False, repr=False)

    def read_bytes(self, relative: object) -> bytes:
        """The bytes of the regular file `relative` names inside the workspace, recorded.

        Raises `CannotCheck` for a path outside the workspace, a file that is not there
        (recorded as missing, so its arrival is a change) or one over the size cap.
        """
        path = _workspace_file(self, relative)
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise CannotCheck(f"cannot read {relative!r}: {exc}") from exc
        if self.log is not None:
            self.log.record(str(relative), data)
        return data


class Verifier(Protocol):
    """A check of one kind of ground, registered under its grounding type name.

    Receives the grounding's `payload` (a decoded JSON object, untrusted: any key may be
    missing or of the wrong type) and a `VerifyContext` (the workspace folder, or None for
    a bare payload). Returns a `VerifierResult`: `confirmed` when the ground holds (with
    the tier it earns and, for text, only what it proved present in the source), `refuted`
    for a definitive refutation (a false premise), `undecided` when it cannot decide here.
    May raise `CannotCheck(reason)` to say "cannot decide"; any other exception, or a
    return value that is not a `VerifierResult`, becomes an undecided result in `verify`,
    so a verifier bug never crashes routing. Reads only inside the workspace; never writes
    and never reaches off the machine.
    """

    def __call__(self, payload: Mapping[str, Any], context: VerifyContext, /) -> VerifierResult: ...


# The built-in verifiers; a user's verifier registers here the same way.
VERIFIERS: Registry[Verifier] = Registry("verifier", plugins=PLUGIN_GROUPS["verifier"])


def register(name: str, fn: Verifier) -> None:
    """Register `fn` for grounding type `name` in `VERIFIERS`, replacing any earlier one."""
    VERIFIERS.register(name, fn)


def verify(
    kind: str,
    payload: object,
    *,
    workspace: str | os.PathLike[str] | None = None,
    registry: Registry[Verifier] | None = None,
) -> VerifierResult:
    """Run the verifier registered for `kind` on `payload`. Never raises.

    `registry` defaults to `VERIFIERS`. An unknown type, a payload that is not an object,
    a verifier raising `CannotCheck` or any other exception, or returning something other
    than a `VerifierResult`, all give an unverifiable result whose detail says why.
    """
    fn = (VERIFIERS if registry is None else registry).get(kind)
    if fn is None:
        return VerifierResult.undecided(f"no verifier registered for type {kind!r}")
    if type(payload) is not dict and not isinstance(payload, Mapping):
        return VerifierResult.undecided(
            f"{kind} payload must be an object, got {type(payload).__name__}"
        )
    log = ReadLog()
    context = VerifyContext(Path(workspace) if workspace is not None else None, log)
    try:
        result = fn(payload, context)
    except CannotCheck as exc:
        result = VerifierResult.undecided(str(exc))
    except Exception as exc:  # a verifier bug must not crash routing; it just fails to ground
        result = VerifierResult.undecided(f"{kind} verifier error: {type(exc).__name__}: {exc}")
    if not isinstance(result, VerifierResult):
        result = VerifierResult.undecided(
            f"{kind} verifier returned {type(result).__name__}, not a VerifierResult"
        )
    # Even a check that could not decide read what it read: its answer rests on that too.
    reads = log.reads()
    return replace(result, reads=(*result.reads, *reads)) if reads else result


# --- helpers shared by the built-ins ---------------------------------------------------


def _workspace_file(context: VerifyContext, relative: object) -> Path:
    """The existing regular file `relative` names inside the workspace."""
    safe = resolve_inside(context.workspace, relative)
    if safe.path is None:
        raise CannotCheck(safe.reason)
    if not safe.path.is_file():
        if context.log is not None and not safe.path.exists():
            context.log.record(str(relative), None)  # absent now: its arrival is a change
        raise CannotCheck(f"{relative!r} is not a file in the workspace")
    size = safe.path.stat().st_size
    if size > MAX_VERIFIED_FILE_BYTES:
        raise CannotCheck(
            f"{relative!r} is {size:,} bytes, over the {MAX_VERIFIED_FILE_BYTES:,}-byte cap"
            " on files a verifier reads"
        )
    return safe.path


def _text(payload: Mapping[str, Any], *keys: str) -> str:
    for key in keys:
        value = payload.get(key)
        if value is not None:
            if not isinstance(value, str):
                raise CannotCheck(f"{key} must be a string, got {type(value).__name__}")
            return value
    raise CannotCheck(f"payload has no {' or '.join(keys)}")


def _number(value: object, name: str) -> float:
    """A finite number from a JSON number or numeric string; never evaluated."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise CannotCheck(f"{name} must be a number, got {value!r}")
    try:
        number = float(value)
    except ValueError as exc:
        raise CannotCheck(f"{name} must be a number, got {value!r}") from exc
    if not math.isfinite(number):
        raise CannotCheck(f"{name} must be finite, got {value!r}")
    return number


# --- quote ----------------------------------------------------------------------------

# Only these methods prove the confirmed text is a span of the source itself (a fuzzy
# match confirms the source's own span at the match, in the source's spelling).
_PROVEN_METHODS = frozenset({"exact", "annotation", "fuzzy"})


def check_quote(payload: Mapping[str, Any], context: VerifyContext) -> VerifierResult:
    """Find `body` in `fulltext`, or in `sources/<source>.txt` of the workspace."""
    body = _text(payload, "body")
    if not body.strip():
        raise CannotCheck("quote body is empty")
    fulltext = payload.get("fulltext")
    annotations = payload.get("annotations")
    if fulltext is None and payload.get("source") is not None:
        try:
            fulltext, stored = _read_source(context, payload["source"])
        except CannotCheck as exc:
            return VerifierResult.undecided(f"source text unavailable: {exc}", method="unavailable")
        annotations = stored if annotations is None else annotations
    if fulltext is not None and not isinstance(fulltext, str):
        raise CannotCheck(f"fulltext must be a string, got {type(fulltext).__name__}")
    floor = payload.get("fuzzy_floor")
    floor = None if floor is None else _number(floor, "fuzzy_floor")
    if fulltext is not None and annotations is None:
        return _QUOTE_RESULTS((body, floor), fulltext)
    return _quote_result(body, fulltext, annotations, floor)


def _quote_in_text(key: tuple[str, float | None], fulltext: str) -> VerifierResult:
    body, floor = key
    return _quote_result(body, fulltext, None, floor)


# A source is quoted again and again (every answer citing the same sentence of it): the
# result of one quote against one text is kept by their content, as their folds are.
_QUOTE_RESULTS = PairMemo(_quote_in_text, entries=4096, chars=2_000_000, per_text=64)


def _quote_result(
    body: str, fulltext: str | None, annotations: Any, floor: float | None
) -> VerifierResult:
    """The quote check proper, on a validated body, source text and annotations."""
    match = verify_quote(body, fulltext, annotations, fuzzy_floor=floor)
    method = str(match.method)
    if match.verified:
        confirmed = match.confirmed_source_text if method in _PROVEN_METHODS else None
        fit, sentence = None, None
        if confirmed and fulltext is not None:
            found = confirmed
            # Only what of the quote is a whole sentence or clause of the source may license;
            # the quote as written is tried first (it is cheaper to find verbatim).
            confirmed = licensable_part(body, fulltext) or licensable_part(found, fulltext)
            fit, sentence = quote_fit(found, fulltext, confirmed)
        return VerifierResult.confirmed(
            f"quote found ({method})",
            method=method,
            score=match.score,
            page=match.page,
            confirmed_source_text=confirmed or None,
            fit=fit,
            sentence=sentence,
        )
    if method == "unavailable":
        return VerifierResult.undecided("source text unavailable", method=method)
    if method == "refused":
        return VerifierResult.undecided(f"quote refused: {match.reason}", method=method)
    return VerifierResult.refuted(
        f"quote not found in source ({match.reason})"
        if match.reason
        else "quote not found in source",
        method=method,
        score=match.score,
        page=match.page,
        near_miss=match.near_miss,
    )


def _read_source(context: VerifyContext, citekey: object) -> tuple[str, object]:
    """The stored full text of `citekey` and its annotations (None when there are none)."""
    if not isinstance(citekey, str):
        raise CannotCheck(f"source must be a citekey string, got {type(citekey).__name__}")
    if not citekey.strip():
        raise CannotCheck("the note names no usable source citekey")
    try:
        fulltext = context.read_bytes(f"sources/{citekey}.txt").decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CannotCheck(str(exc)) from exc
    annotations = None
    # Annotations only add a way to match; unreadable, oversized or deeply nested ones are
    # treated as absent.
    with contextlib.suppress(CannotCheck, OSError, ValueError):
        annotations = jsonsafe.loads(context.read_bytes(f"sources/{citekey}.annotations.json"))
    return fulltext, annotations


# --- recomputation, equations, figures, decision trees ---------------------------------


def check_recompute(payload: Mapping[str, Any], context: VerifyContext) -> VerifierResult:
    """Recompute a declared aggregate over a workspace CSV.

    Agrees when `abs(computed - value) <= tolerance`; the default tolerance is
    `1e-9 * max(1, abs(value))` (so declare a tolerance for rounded figures).
    """
    declared = _number(payload.get("value"), "value")
    tolerance = payload.get("tolerance")
    if tolerance is None:
        tolerance = 1e-9 * max(1.0, abs(declared))
    else:
        tolerance = _number(tolerance, "tolerance")
        if tolerance < 0:
            raise CannotCheck(f"tolerance must not be negative, got {tolerance!r}")
    column, agg = payload.get("column"), payload.get("agg")
    if not isinstance(column, str) or not isinstance(agg, str):
        raise CannotCheck("column and agg must be strings")
    file = payload.get("file")
    computed = recompute(context.read_bytes(file), column, agg, where=payload.get("where"))
    figure = f"{agg}({column}) = {computed:.12g}"
    if abs(computed - declared) <= tolerance:
        return VerifierResult.confirmed(
            f"recomputed {figure}, declared {declared:.12g}",
            method="recompute",
            tier=Tier.MEASURED,
            confirmed_source_text=recompute_statement(payload, declared),
        )
    return VerifierResult.refuted(
        f"recomputed {figure} but declared {declared:.12g} (tolerance {tolerance:g})",
        method="recompute",
    )


def check_equation(payload: Mapping[str, Any], context: VerifyContext) -> VerifierResult:
    """Check that a LaTeX snippet is structurally sound."""
    problem = latex_problem(_text(payload, "body", "latex"))
    body = _text(payload, "body", "latex")
    if problem:
        return VerifierResult.refuted(problem, method="latex")
    # The equation is what was checked; a sentence about it is its note's own words.
    return VerifierResult.confirmed(
        "LaTeX structure is sound", method="latex", confirmed_source_text=body.strip()
    )


def check_figure(payload: Mapping[str, Any], context: VerifyContext) -> VerifierResult:
    """Check that a figure snapshot is a real image inside the workspace."""
    relative = payload.get("path", payload.get("snapshot"))
    kind = image_kind(context.read_bytes(relative))
    if kind is None:
        # A bad snapshot lowers grounding but never refutes the figure it stands for.
        return VerifierResult.undecided(f"{relative!r} is not a known image", method="image")
    return VerifierResult.confirmed(f"{relative!r} is a {kind} image", method="image")


def check_decision_tree(payload: Mapping[str, Any], context: VerifyContext) -> VerifierResult:
    """Check whether the `target` clause of a decision tree applies under `params`."""
    target = _text(payload, "target")
    params = payload.get("params") or {}
    if not isinstance(params, Mapping):
        raise CannotCheck("params must be an object")
    tree = payload.get("tree")
    if tree is None:
        tree = load_tree(context.read_bytes(payload.get("file")), str(payload.get("file")))
    elif not isinstance(tree, Mapping):
        raise CannotCheck("tree must be an object")
    clause = walk_tree(tree, params).get(target)
    if clause is None:
        return VerifierResult.undecided(f"clause {target!r} is not in the tree", method="tree")
    if clause.state is NodeState.APPLIES:
        return VerifierResult.confirmed(
            f"clause {target!r} applies",
            method="tree",
            confirmed_source_text=tree_statement(payload, target, params),
        )
    if clause.state is NodeState.EXCLUDED:
        return VerifierResult.refuted(f"clause excluded: {clause.reason}", method="tree")
    return VerifierResult.undecided(f"clause unresolved: {clause.reason}", method="tree")


def check_tether(payload: Mapping[str, Any], context: VerifyContext) -> VerifierResult:
    """Read a tethered file: its current text is what a restatement of it may be licensed by.

    Whether the file still matches its pin is the tether's freshness, reported apart as
    flags; this check only proves what the file says now.
    """
    relative = payload.get("path")
    try:
        text = context.read_bytes(relative).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CannotCheck(f"cannot read {relative!r}: {exc}") from exc
    return VerifierResult.confirmed(
        f"{relative!r} read", method="file", confirmed_source_text=text if text.strip() else None
    )


register("quote", check_quote)
register("expr-recompute", check_recompute)
register("equation", check_equation)
register("figure", check_figure)
register("decision-tree", check_decision_tree)
register("tether", check_tether)
# Verifier types are named in kebab case; payloads saved with the older name still route.
VERIFIERS.alias("decision_tree", "decision-tree")

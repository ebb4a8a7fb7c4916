"""Grounds: how a cited node is checked, the check's result, and the one status-merge rule."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.core.epistemics import Verdict
from engine.core.registry import Registry
from engine.core.verifiers import Verifier, VerifierResult, verify


@dataclass(frozen=True)
class GroundingSpec:
    """How one cited node is checked: a verifier type and its payload."""

    type: str
    payload: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "payload": dict(self.payload)}


@dataclass(frozen=True)
class VerifiedGround:
    """A spec together with the result its verifier gave, so it is never checked twice."""

    spec: GroundingSpec
    result: VerifierResult


def check(
    spec: GroundingSpec,
    *,
    workspace: str | os.PathLike[str] | None = None,
    verifiers: Registry[Verifier] | None = None,
    known: VerifiedGround | None = None,
) -> VerifierResult:
    """The result for `spec`: `known`'s when it checked this very spec, else a fresh check."""
    if known is not None and known.spec == spec:
        return known.result
    return verify(spec.type, spec.payload, workspace=workspace, registry=verifiers)


def merge_status(result: VerifierResult | None, status: Verdict | None) -> Verdict | None:
    """A node's verdict from its verifier result and its explicit status; None if neither.

    An explicit status may lower but never raise a failed or unverifiable ground, so an
    unchecked ground cannot be laundered into a grounded one.
    """
    if result is not None and not result.ok:
        return result.verdict()
    if status is not None:
        return status
    return result.verdict() if result is not None else None

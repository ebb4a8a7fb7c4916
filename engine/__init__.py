"""Synapse Review engine: grounded navigation, routing and review, with no Streamlit import.

This is the engine's public face: pages, tools and users import from here. The names load
on first use, so `import engine` stays cheap; editors see them through the block below.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.api import ask, review_edges, route_json, route_payload
    from engine.core.errors import ConfigError, EngineError, PayloadError, WorkspaceError
    from engine.core.model import Edge, ReasoningDAG
    from engine.core.quote import QuoteMatch, verify_quote
    from engine.core.router import Decision, route
    from engine.core.traceability import Traceability
    from engine.core.verifiers import VerifierResult, VerifierStatus
    from engine.core.wire import Draft, parse_json, parse_payload
    from engine.navigation.navigator import NavResult, Policy
    from engine.navigation.reasoners.registry import ReasonerSpec
    from engine.navigation.substrate import Budget
    from engine.review.overlay import Overlay, build_overlay, load_overlay, read_overlay
    from engine.review.triage import read_log, record
    from engine.workspace.opened import OpenWorkspace, open_workspace

_EXPORTS = {
    # opening a workspace and asking
    "open_workspace": "engine.workspace.opened",
    "OpenWorkspace": "engine.workspace.opened",
    "ask": "engine.api",
    "Budget": "engine.navigation.substrate",
    "NavResult": "engine.navigation.navigator",
    "Policy": "engine.navigation.navigator",
    "ReasonerSpec": "engine.navigation.reasoners.registry",
    "Draft": "engine.core.wire",
    # routing and verifying
    "route": "engine.core.router",
    "route_json": "engine.api",
    "route_payload": "engine.api",
    "parse_json": "engine.core.wire",
    "parse_payload": "engine.core.wire",
    "Decision": "engine.core.router",
    "Traceability": "engine.core.traceability",
    "ReasoningDAG": "engine.core.model",
    "Edge": "engine.core.model",
    "verify_quote": "engine.core.quote",
    "QuoteMatch": "engine.core.quote",
    "VerifierResult": "engine.core.verifiers",
    "VerifierStatus": "engine.core.verifiers",
    # the claim overlay and triage
    "Overlay": "engine.review.overlay",
    "build_overlay": "engine.review.overlay",
    "load_overlay": "engine.review.overlay",
    "read_overlay": "engine.review.overlay",
    "record": "engine.review.triage",
    "read_log": "engine.review.triage",
    "review_edges": "engine.api",
    # errors
    "EngineError": "engine.core.errors",
    "PayloadError": "engine.core.errors",
    "WorkspaceError": "engine.core.errors",
    "ConfigError": "engine.core.errors",
}

__all__ = [
    "Budget",
    "ConfigError",
    "Decision",
    "Draft",
    "Edge",
    "EngineError",
    "NavResult",
    "OpenWorkspace",
    "Overlay",
    "PayloadError",
    "Policy",
    "QuoteMatch",
    "ReasonerSpec",
    "ReasoningDAG",
    "Traceability",
    "VerifierResult",
    "VerifierStatus",
    "WorkspaceError",
    "ask",
    "build_overlay",
    "load_overlay",
    "open_workspace",
    "parse_json",
    "parse_payload",
    "read_log",
    "read_overlay",
    "record",
    "review_edges",
    "route",
    "route_json",
    "route_payload",
    "verify_quote",
]


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'engine' has no attribute {name!r}")
    return getattr(import_module(module), name)


def __dir__() -> list[str]:
    return __all__

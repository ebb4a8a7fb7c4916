"""Synapse Review engine: grounded navigation, routing and review, with no Streamlit import.

This is the engine's public face: pages, tools and users import from here. The names load
on first use, so `import engine` stays cheap; editors see them through the block below.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.api import (
        MAX_QUESTION_CHARS,
        Answer,
        Freshness,
        answer,
        ask,
        contests_now,
        question_problem,
        quoted_in_context,
        review_edges,
        route_json,
        route_payload,
    )
    from engine.core.epistemics import Tier, Verdict
    from engine.core.errors import ConfigError, EngineError, PayloadError, WorkspaceError
    from engine.core.llm import (
        ENV_API_KEY,
        ENV_BASE_URL,
        ENV_MODEL,
        PLACEHOLDER_KEY,
        LLMConfig,
        OpenAIChat,
        check_connection,
    )
    from engine.core.model import Claim, Edge, ReasoningDAG
    from engine.core.quote import QuoteMatch, verify_quote
    from engine.core.router import REASON_EXPLANATIONS, Decision, Reason, route
    from engine.core.stance import Stance, StanceRelation
    from engine.core.text import reveal
    from engine.core.traceability import Traceability
    from engine.core.verifiers import VerifierResult, VerifierStatus
    from engine.core.wire import Draft, parse_json, parse_payload
    from engine.importers.zotero import import_zotero
    from engine.navigation.navigator import NavResult, Policy
    from engine.navigation.reasoners.model import ModelReasoner
    from engine.navigation.reasoners.registry import ReasonerSpec
    from engine.navigation.substrate import Budget
    from engine.review.contest import Disclosure, review_stamp
    from engine.review.matrix import (
        Page,
        QueueOrder,
        filter_frame,
        page_rows,
        relations_in,
        review_matrix,
        sort_queue,
        to_csv,
    )
    from engine.review.overlay import (
        OVERLAY_PATH,
        Overlay,
        build_overlay,
        load_overlay,
        read_overlay,
    )
    from engine.review.relations import EdgeKey
    from engine.review.triage import TriageDecision, confirmed_edges, read_log, record
    from engine.review.typers import Typer, model_typer
    from engine.workspace.examples import landing_examples, read_examples
    from engine.workspace.freshness import notes_changed
    from engine.workspace.in_context import InContext
    from engine.workspace.opened import OpenWorkspace, Worker, open_workspace
    from engine.workspace.references import citations, reference_problems

_EXPORTS = {
    # opening a workspace and asking
    "open_workspace": "engine.workspace.opened",
    "OpenWorkspace": "engine.workspace.opened",
    "ask": "engine.api",
    "Budget": "engine.navigation.substrate",
    "NavResult": "engine.navigation.navigator",
    "Policy": "engine.navigation.navigator",
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
    "reveal": "engine.core.text",
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
    # values the pages render
    "Answer": "engine.api",
    "Freshness": "engine.api",
    "REASON_EXPLANATIONS": "engine.core.router",
    "Reason": "engine.core.router",
    "Claim": "engine.core.model",
    "Tier": "engine.core.epistemics",
    "Verdict": "engine.core.epistemics",
    "StanceRelation": "engine.core.stance",
    "Stance": "engine.core.stance",
    "Disclosure": "engine.review.contest",
    # the app's services
    "Worker": "engine.workspace.opened",
    "answer": "engine.api",
    "add_pdf_folder": "engine.api",
    "import_zotero": "engine.importers.zotero",
    "quoted_in_context": "engine.api",
    "MAX_QUESTION_CHARS": "engine.api",
    "question_problem": "engine.api",
    "contests_now": "engine.api",
    "review_stamp": "engine.review.contest",
    "confirmed_edges": "engine.review.triage",
    "TriageDecision": "engine.review.triage",
    "LLMConfig": "engine.core.llm",
    "OpenAIChat": "engine.core.llm",
    "check_connection": "engine.core.llm",
    "ENV_API_KEY": "engine.core.llm",
    "ENV_BASE_URL": "engine.core.llm",
    "ENV_MODEL": "engine.core.llm",
    "PLACEHOLDER_KEY": "engine.core.llm",
    "ModelReasoner": "engine.navigation.reasoners.model",
    "ReasonerSpec": "engine.navigation.reasoners.registry",
    "Draft": "engine.core.wire",
    "Typer": "engine.review.typers",
    "model_typer": "engine.review.typers",
    "OVERLAY_PATH": "engine.review.overlay",
    # the claim matrix and the landing page
    "EdgeKey": "engine.review.relations",
    "QueueOrder": "engine.review.matrix",
    "Page": "engine.review.matrix",
    "review_matrix": "engine.review.matrix",
    "filter_frame": "engine.review.matrix",
    "relations_in": "engine.review.matrix",
    "sort_queue": "engine.review.matrix",
    "to_csv": "engine.review.matrix",
    "page_rows": "engine.review.matrix",
    "citations": "engine.workspace.references",
    "reference_problems": "engine.workspace.references",
    "landing_examples": "engine.workspace.examples",
    "read_examples": "engine.workspace.examples",
    "notes_changed": "engine.workspace.freshness",
    "InContext": "engine.workspace.in_context",
}

__all__ = [
    "ENV_API_KEY",
    "ENV_BASE_URL",
    "ENV_MODEL",
    "MAX_QUESTION_CHARS",
    "OVERLAY_PATH",
    "PLACEHOLDER_KEY",
    "REASON_EXPLANATIONS",
    "Answer",
    "Budget",
    "Claim",
    "ConfigError",
    "Decision",
    "Disclosure",
    "Draft",
    "Edge",
    "EdgeKey",
    "EngineError",
    "Freshness",
    "InContext",
    "LLMConfig",
    "ModelReasoner",
    "NavResult",
    "OpenAIChat",
    "OpenWorkspace",
    "Overlay",
    "Page",
    "PayloadError",
    "Policy",
    "QueueOrder",
    "QuoteMatch",
    "Reason",
    "ReasonerSpec",
    "ReasoningDAG",
    "Stance",
    "StanceRelation",
    "Tier",
    "Traceability",
    "TriageDecision",
    "Typer",
    "Verdict",
    "VerifierResult",
    "VerifierStatus",
    "Worker",
    "WorkspaceError",
    "add_pdf_folder",
    "answer",
    "ask",
    "build_overlay",
    "check_connection",
    "citations",
    "confirmed_edges",
    "contests_now",
    "filter_frame",
    "import_zotero",
    "landing_examples",
    "load_overlay",
    "model_typer",
    "notes_changed",
    "open_workspace",
    "page_rows",
    "parse_json",
    "parse_payload",
    "question_problem",
    "quoted_in_context",
    "read_examples",
    "read_log",
    "read_overlay",
    "record",
    "reference_problems",
    "relations_in",
    "reveal",
    "review_edges",
    "review_matrix",
    "review_stamp",
    "route",
    "route_json",
    "route_payload",
    "sort_queue",
    "to_csv",
    "verify_quote",
]


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'engine' has no attribute {name!r}")
    return getattr(import_module(module), name)


def __dir__() -> list[str]:
    return __all__

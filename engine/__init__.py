"""Synapse Review engine: grounded navigation, routing and review, with no Streamlit import.

This is the engine's public face: pages, renderers, tools and users import from here. The
names load on first use, so `import engine` stays cheap. The `TYPE_CHECKING` block below is
the one export list: editors and the type checker read it, and the lazy table is built from it.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.api import (
        MAX_QUESTION_CHARS,
        Answer,
        Freshness,
        add_pdf_folder,
        answer,
        ask,
        contests_now,
        question_problem,
        quoted_in_context,
        review_edges,
        route_json,
        route_payload,
    )
    from engine.core.epistemics import HonestyViolation, Tier, Verdict
    from engine.core.errors import ConfigError, EngineError, PayloadError, WorkspaceError
    from engine.core.licensing import Fit
    from engine.core.model import CONTRADICTS, Address, Claim, Edge, ReasoningDAG
    from engine.core.quote import MatchMethod, QuoteMatch, verify_quote
    from engine.core.router import REASON_EXPLANATIONS, Cause, Decision, Reason, route
    from engine.core.settings import (
        ENV_LLM_API_KEY,
        ENV_LLM_BASE_URL,
        ENV_LLM_MODEL,
        ENV_WORKSPACES_ROOT,
        VARIABLES,
        Environment,
        environment,
    )
    from engine.core.stance import ContradictionCue, Cue, CueShape, Stance, StanceRelation
    from engine.core.text import reveal, shorten
    from engine.core.traceability import Traceability
    from engine.core.verifiers import VerifierResult, VerifierStatus
    from engine.core.wire import Draft, parse_json, parse_payload
    from engine.evidence import answer_evidence, audit_answer, cite_labels
    from engine.importers.zotero import import_zotero
    from engine.models.llm import (
        PLACEHOLDER_KEY,
        LLMConfig,
        OpenAIChat,
        check_connection,
    )
    from engine.navigation.budget import Budget
    from engine.navigation.navigator import Policy
    from engine.navigation.outcomes import Failure, FailureKind, GiveUp, GiveUpReason, Match
    from engine.navigation.reasoners.model import ModelReasoner
    from engine.navigation.reasoners.registry import ReasonerSpec
    from engine.navigation.result import NavResult
    from engine.navigation.steps import ActionKind, Step
    from engine.navigation.substrate import Neighbourhood, Node
    from engine.report import ReportReason, ReportWords, report_html, report_markdown
    from engine.review.cell import CellDetail, cell_detail, edge_key, find_edge, triage_history
    from engine.review.contest import Disclosure, ReviewState
    from engine.review.matrix import (
        Page,
        QueueOrder,
        distinct_labels,
        filter_frame,
        is_high_value,
        next_open,
        page_rows,
        relations_in,
        review_matrix,
        sort_queue,
        to_csv,
    )
    from engine.review.overlay import (
        Overlay,
        OverlayEdge,
        build_overlay,
        load_overlay,
        read_overlay,
    )
    from engine.review.relations import EdgeKey
    from engine.review.snapshot import ReviewSnapshot, review_stamp
    from engine.review.triage import TriageDecision, confirmed_edges, read_log, record
    from engine.review.typers import Typer, model_typer
    from engine.workspace.evidence import Evidence, EvidenceKind, Piece
    from engine.workspace.examples import (
        PayloadExample,
        landing_examples,
        payload_examples,
        read_examples,
    )
    from engine.workspace.freshness import notes_changed
    from engine.workspace.in_context import InContext
    from engine.workspace.layout import OVERLAY_PATH
    from engine.workspace.notes import Quote
    from engine.workspace.opened import OpenWorkspace, Worker, open_workspace
    from engine.workspace.passages import PassagePlace, passage_place
    from engine.workspace.payloads import load_payload, payload_ref, save_payload
    from engine.workspace.references import citations, reference_problems
    from engine.workspace.stores import Workspace
    from engine.workspace.trusted import (
        link_may_open,
        remember_workspace,
        workspaces_roots,
    )


# The lazy table: each public name's defining module (`__getattr__` imports it on first use).
_EXPORTS: dict[str, str] = {
    "ENV_LLM_API_KEY": "engine.core.settings",
    "ENV_LLM_BASE_URL": "engine.core.settings",
    "ENV_LLM_MODEL": "engine.core.settings",
    "ENV_WORKSPACES_ROOT": "engine.core.settings",
    "VARIABLES": "engine.core.settings",
    "Environment": "engine.core.settings",
    "environment": "engine.core.settings",
    "MAX_QUESTION_CHARS": "engine.api",
    "Answer": "engine.api",
    "Freshness": "engine.api",
    "add_pdf_folder": "engine.api",
    "answer": "engine.api",
    "ask": "engine.api",
    "contests_now": "engine.api",
    "question_problem": "engine.api",
    "quoted_in_context": "engine.api",
    "review_edges": "engine.api",
    "route_json": "engine.api",
    "route_payload": "engine.api",
    "HonestyViolation": "engine.core.epistemics",
    "Tier": "engine.core.epistemics",
    "Verdict": "engine.core.epistemics",
    "ConfigError": "engine.core.errors",
    "EngineError": "engine.core.errors",
    "PayloadError": "engine.core.errors",
    "WorkspaceError": "engine.core.errors",
    "Fit": "engine.core.licensing",
    "CONTRADICTS": "engine.core.model",
    "Address": "engine.core.model",
    "Claim": "engine.core.model",
    "Edge": "engine.core.model",
    "ReasoningDAG": "engine.core.model",
    "MatchMethod": "engine.core.quote",
    "QuoteMatch": "engine.core.quote",
    "verify_quote": "engine.core.quote",
    "REASON_EXPLANATIONS": "engine.core.router",
    "Cause": "engine.core.router",
    "Decision": "engine.core.router",
    "Reason": "engine.core.router",
    "route": "engine.core.router",
    "ContradictionCue": "engine.core.stance",
    "Cue": "engine.core.stance",
    "CueShape": "engine.core.stance",
    "Stance": "engine.core.stance",
    "StanceRelation": "engine.core.stance",
    "reveal": "engine.core.text",
    "shorten": "engine.core.text",
    "Traceability": "engine.core.traceability",
    "VerifierResult": "engine.core.verifiers",
    "VerifierStatus": "engine.core.verifiers",
    "Draft": "engine.core.wire",
    "parse_json": "engine.core.wire",
    "parse_payload": "engine.core.wire",
    "answer_evidence": "engine.evidence",
    "audit_answer": "engine.evidence",
    "cite_labels": "engine.evidence",
    "import_zotero": "engine.importers.zotero",
    "PLACEHOLDER_KEY": "engine.models.llm",
    "LLMConfig": "engine.models.llm",
    "OpenAIChat": "engine.models.llm",
    "check_connection": "engine.models.llm",
    "Budget": "engine.navigation.budget",
    "Policy": "engine.navigation.navigator",
    "Failure": "engine.navigation.outcomes",
    "FailureKind": "engine.navigation.outcomes",
    "GiveUp": "engine.navigation.outcomes",
    "GiveUpReason": "engine.navigation.outcomes",
    "Match": "engine.navigation.outcomes",
    "ModelReasoner": "engine.navigation.reasoners.model",
    "ReasonerSpec": "engine.navigation.reasoners.registry",
    "NavResult": "engine.navigation.result",
    "ActionKind": "engine.navigation.steps",
    "Step": "engine.navigation.steps",
    "Neighbourhood": "engine.navigation.substrate",
    "Node": "engine.navigation.substrate",
    "ReportReason": "engine.report",
    "ReportWords": "engine.report",
    "report_html": "engine.report",
    "report_markdown": "engine.report",
    "CellDetail": "engine.review.cell",
    "cell_detail": "engine.review.cell",
    "edge_key": "engine.review.cell",
    "find_edge": "engine.review.cell",
    "triage_history": "engine.review.cell",
    "Disclosure": "engine.review.contest",
    "ReviewState": "engine.review.contest",
    "Page": "engine.review.matrix",
    "QueueOrder": "engine.review.matrix",
    "distinct_labels": "engine.review.matrix",
    "filter_frame": "engine.review.matrix",
    "is_high_value": "engine.review.matrix",
    "next_open": "engine.review.matrix",
    "page_rows": "engine.review.matrix",
    "relations_in": "engine.review.matrix",
    "review_matrix": "engine.review.matrix",
    "sort_queue": "engine.review.matrix",
    "to_csv": "engine.review.matrix",
    "Overlay": "engine.review.overlay",
    "OverlayEdge": "engine.review.overlay",
    "build_overlay": "engine.review.overlay",
    "load_overlay": "engine.review.overlay",
    "read_overlay": "engine.review.overlay",
    "EdgeKey": "engine.review.relations",
    "ReviewSnapshot": "engine.review.snapshot",
    "review_stamp": "engine.review.snapshot",
    "TriageDecision": "engine.review.triage",
    "confirmed_edges": "engine.review.triage",
    "read_log": "engine.review.triage",
    "record": "engine.review.triage",
    "Typer": "engine.review.typers",
    "model_typer": "engine.review.typers",
    "Evidence": "engine.workspace.evidence",
    "EvidenceKind": "engine.workspace.evidence",
    "Piece": "engine.workspace.evidence",
    "PayloadExample": "engine.workspace.examples",
    "landing_examples": "engine.workspace.examples",
    "payload_examples": "engine.workspace.examples",
    "read_examples": "engine.workspace.examples",
    "notes_changed": "engine.workspace.freshness",
    "InContext": "engine.workspace.in_context",
    "OVERLAY_PATH": "engine.workspace.layout",
    "Quote": "engine.workspace.notes",
    "OpenWorkspace": "engine.workspace.opened",
    "Worker": "engine.workspace.opened",
    "open_workspace": "engine.workspace.opened",
    "PassagePlace": "engine.workspace.passages",
    "passage_place": "engine.workspace.passages",
    "load_payload": "engine.workspace.payloads",
    "payload_ref": "engine.workspace.payloads",
    "save_payload": "engine.workspace.payloads",
    "citations": "engine.workspace.references",
    "reference_problems": "engine.workspace.references",
    "Workspace": "engine.workspace.stores",
    "link_may_open": "engine.workspace.trusted",
    "remember_workspace": "engine.workspace.trusted",
    "workspaces_roots": "engine.workspace.trusted",
}

__all__ = [
    "CONTRADICTS",
    "ENV_LLM_API_KEY",
    "ENV_LLM_BASE_URL",
    "ENV_LLM_MODEL",
    "ENV_WORKSPACES_ROOT",
    "MAX_QUESTION_CHARS",
    "OVERLAY_PATH",
    "PLACEHOLDER_KEY",
    "REASON_EXPLANATIONS",
    "VARIABLES",
    "ActionKind",
    "Address",
    "Answer",
    "Budget",
    "Cause",
    "CellDetail",
    "Claim",
    "ConfigError",
    "ContradictionCue",
    "Cue",
    "CueShape",
    "Decision",
    "Disclosure",
    "Draft",
    "Edge",
    "EdgeKey",
    "EngineError",
    "Environment",
    "Evidence",
    "EvidenceKind",
    "Failure",
    "FailureKind",
    "Fit",
    "Freshness",
    "GiveUp",
    "GiveUpReason",
    "HonestyViolation",
    "InContext",
    "LLMConfig",
    "Match",
    "MatchMethod",
    "ModelReasoner",
    "NavResult",
    "Neighbourhood",
    "Node",
    "OpenAIChat",
    "OpenWorkspace",
    "Overlay",
    "OverlayEdge",
    "Page",
    "PassagePlace",
    "PayloadError",
    "PayloadExample",
    "Piece",
    "Policy",
    "QueueOrder",
    "Quote",
    "QuoteMatch",
    "Reason",
    "ReasonerSpec",
    "ReasoningDAG",
    "ReportReason",
    "ReportWords",
    "ReviewSnapshot",
    "ReviewState",
    "Stance",
    "StanceRelation",
    "Step",
    "Tier",
    "Traceability",
    "TriageDecision",
    "Typer",
    "Verdict",
    "VerifierResult",
    "VerifierStatus",
    "Worker",
    "Workspace",
    "WorkspaceError",
    "add_pdf_folder",
    "answer",
    "answer_evidence",
    "ask",
    "audit_answer",
    "build_overlay",
    "cell_detail",
    "check_connection",
    "citations",
    "cite_labels",
    "confirmed_edges",
    "contests_now",
    "distinct_labels",
    "edge_key",
    "environment",
    "filter_frame",
    "find_edge",
    "import_zotero",
    "is_high_value",
    "landing_examples",
    "link_may_open",
    "load_overlay",
    "load_payload",
    "model_typer",
    "next_open",
    "notes_changed",
    "open_workspace",
    "page_rows",
    "parse_json",
    "parse_payload",
    "passage_place",
    "payload_examples",
    "payload_ref",
    "question_problem",
    "quoted_in_context",
    "read_examples",
    "read_log",
    "read_overlay",
    "record",
    "reference_problems",
    "relations_in",
    "remember_workspace",
    "report_html",
    "report_markdown",
    "reveal",
    "review_edges",
    "review_matrix",
    "review_stamp",
    "route",
    "route_json",
    "route_payload",
    "save_payload",
    "shorten",
    "sort_queue",
    "to_csv",
    "triage_history",
    "verify_quote",
    "workspaces_roots",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'engine' has no attribute {name!r}")
    return getattr(import_module(module), name)


def __dir__() -> list[str]:
    return __all__

"""Synapse Review engine: grounded navigation, routing and review, with no Streamlit import.

This is the engine's public face: pages, renderers, tools and users import from here. The
names load on first use, so `import engine` stays cheap. The `TYPE_CHECKING` block below is
the one export list: editors and the type checker read it, and the lazy table is built from it.
"""

from __future__ import annotations

import ast
from importlib import import_module
from pathlib import Path
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
    from engine.core.stance import ContradictionCue, Cue, CueShape, Stance, StanceRelation
    from engine.core.text import reveal, shorten
    from engine.core.traceability import Traceability
    from engine.core.verifiers import VerifierResult, VerifierStatus
    from engine.core.wire import Draft, parse_json, parse_payload
    from engine.evidence import answer_evidence, audit_answer, cite_labels, cited_refs
    from engine.importers.zotero import import_zotero
    from engine.models.llm import (
        ENV_API_KEY,
        ENV_BASE_URL,
        ENV_MODEL,
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
    from engine.review.export import review_export
    from engine.review.matrix import (
        Page,
        QueueOrder,
        distinct_labels,
        filter_frame,
        is_high_value,
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
        practice_entries,
        read_overlay,
    )
    from engine.review.relations import EdgeKey
    from engine.review.snapshot import ReviewSnapshot, review_stamp
    from engine.review.triage import TriageDecision, confirmed_edges, read_log, record
    from engine.review.typers import Typer, model_typer
    from engine.review.walk import next_open, previous_pair
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
        ENV_WORKSPACES_ROOT,
        link_may_open,
        remember_workspace,
        workspaces_roots,
    )


def _exports() -> dict[str, str]:
    """Public name -> defining module, read from the one list above (the `TYPE_CHECKING` block)."""
    tree = ast.parse(Path(__file__).read_text(encoding="utf-8"))
    block = next(n for n in tree.body if isinstance(n, ast.If))
    return {
        alias.asname or alias.name: node.module
        for node in block.body
        if isinstance(node, ast.ImportFrom) and node.module
        for alias in node.names
    }


_EXPORTS = _exports()
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'engine' has no attribute {name!r}")
    return getattr(import_module(module), name)


def __dir__() -> list[str]:
    return __all__

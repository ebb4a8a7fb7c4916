"""A result's verdict for the reader: its banner, why it abstained, its downloads, and audits."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from engine.api import route_json
from engine.core.router import REASON_EXPLANATIONS, Reason


@dataclass(frozen=True)
class Banner:
    """The verdict line: its tone (success, warning or error) and text starting with the label."""

    tone: str
    label: str
    text: str


def banner(result: Mapping) -> Banner:
    """The verdict banner of an answer or audited payload."""
    label = result.get("label") or "ABSTAIN"
    status = result.get("status")
    reasons = list(result.get("reasons") or [])
    detail = result.get("detail") or ""
    if result.get("failure") and result.get("failure") not in detail:
        detail = f"{detail}; {result['failure']}" if detail else result["failure"]
    if label == "ANSWER":
        head, tone = f"ANSWER — {status}", "success"
    elif label == "HEDGED ANSWER":
        head, tone = "HEDGED ANSWER — inferred, not verified", "warning"
    else:
        head, tone = f"ABSTAIN — {', '.join(reasons) or 'low-coverage'}", "error"
    decision = result.get("decision") or {}
    if decision.get("outdated") and label != "ABSTAIN":
        head += " (outdated: built on a superseded pin)"
    return Banner(tone, label, f"{head}. {detail}" if detail else head)


@dataclass(frozen=True)
class Explanation:
    """One abstain reason in plain words with what triggered it here."""

    reason: str
    explanation: str
    specifics: tuple[str, ...]


def explanations(result: Mapping) -> tuple[Explanation, ...]:
    """Each abstain reason of the result explained, with the specifics of this decision."""
    if result.get("label") != "ABSTAIN":
        return ()
    decision = result.get("decision") or {}
    out = []
    for name in result.get("reasons") or []:
        try:
            text = REASON_EXPLANATIONS[Reason(name)]
        except ValueError:
            text = "A reason this app does not know how to explain."
        out.append(Explanation(name, text, tuple(_specifics(name, result, decision))))
    return tuple(out)


def _specifics(name: str, result: Mapping, decision: Mapping) -> Iterable[str]:
    checks = decision.get("verifiers") or {}
    nodes = decision.get("nodes") or {}
    if name == "missing-hop":
        for ref in decision.get("missing_refs") or []:
            yield f"{ref} is cited, but no verifier or status says whether it holds."
    elif name == "stale":
        for ref, node in nodes.items():
            if "stale" in (node.get("flags") or []):
                yield f"{ref} is tethered to a file whose anchored text is gone."
    elif name == "false-premise":
        for ref, check in checks.items():
            if check.get("status") == "failed":
                line = f"{ref}: {check.get('detail') or 'refuted'}"
                if check.get("near_miss"):
                    line += f"; the nearest source text is “{check['near_miss']}”"
                yield line + "."
    elif name == "low-coverage":
        yield from _coverage_specifics(result, decision)


def _coverage_specifics(result: Mapping, decision: Mapping) -> Iterable[str]:
    if result.get("failure"):
        yield f"The run produced no usable answer: {result['failure']}."
    claims = decision.get("claims") or {}
    conclusion = decision.get("conclusion")
    final = claims.get(conclusion) or {}
    if final and final.get("status") not in ("measured", "grounded"):
        flags = ", ".join(final.get("flags") or [])
        yield (
            f"The conclusion {conclusion} is only {final.get('status')}"
            + (f" ({flags})" if flags else "")
            + "."
        )
    for cid in decision.get("floored") or []:
        yield f"Restatement {cid} is not found in the text of the nodes it cites."
    trace = decision.get("traceability") or {}
    if trace and not trace.get("ok", True):
        yield f"Prose: {trace.get('detail') or 'not licensed'}."
    for v in decision.get("honesty_violations") or []:
        yield f"Claim {v['claim']} is asserted {v['asserted']} but only {v['derived']} was derived."
    if (decision.get("confabulation") or {}).get("closed_book"):
        yield "Nothing verified that was retrieved anchors the answer (closed book)."


def decision_json(result: Mapping) -> str:
    """The whole result as indented JSON, for download."""
    return json.dumps(result, indent=2, sort_keys=True, ensure_ascii=False)


def payload_json(result: Mapping) -> str:
    """The wire payload behind the result as indented JSON, or "" when it has none."""
    payload = result.get("payload")
    return json.dumps(payload, indent=2, ensure_ascii=False) if payload else ""


def audit_result(text: str | bytes, *, workspace: str | Path | None = None) -> dict:
    """Route a pasted or uploaded wire payload to an answer-shaped result; raises PayloadError."""
    routed = route_json(text, workspace=workspace)
    decision, dag = routed.to_dict(), routed.dag
    # The payload parsed, so it is an object whose prose, if any, is a string.
    payload = json.loads(text)
    return {
        "question": None,
        "origin": "audit",
        **{k: decision[k] for k in ("verdict", "label", "status", "reasons", "detail")},
        "cited": list(routed.cited),
        "prose": payload.get("prose", ""),
        "dag": dag.to_dict(),
        "decision": decision,
        "payload": payload,
        "failure": None,
        "trace": [],
        "neighbourhood": None,
    }

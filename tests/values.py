"""Hand-built values for renderer tests: a router decision with only the named fields set."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine import Decision, ReasoningDAG, Tier, Traceability, Verdict
from engine.core.router import Confabulation, Outcome


def decision(dag: ReasoningDAG, **fields: Any) -> Decision:
    """A grounded ANSWER on `dag` with no checks behind it; `fields` replace any of its fields."""
    bare = Decision(
        outcome=Outcome.ANSWER,
        status=Tier.GROUNDED,
        reasons=(),
        conclusion=dag.conclusion,
        outdated=False,
        dag=dag,
        node_verdicts={},
        claim_verdicts={dag.conclusion: Verdict(Tier.GROUNDED)},
        verifier_results={},
        traceability=Traceability.empty(),
        confabulation=Confabulation(False, ""),
        honesty_violations=(),
    )
    return replace(bare, **fields)


def restating(claim: str, ref: str, ground: dict[str, Any], **fields: object) -> dict[str, Any]:
    """A wire payload whose one claim restates `claim`, citing `ref` grounded by `ground`;
    `fields` add top-level payload keys (node bodies, statuses)."""
    return {
        "dag": {
            "claims": [{"id": "c1", "text": claim, "kind": "restatement", "cites": [ref]}],
            "conclusion": "c1",
            "prose_citations": [{"start": 0, "end": len(claim), "claim": "c1"}],
        },
        "prose": claim,
        "groundings": {ref: ground},
        **fields,
    }

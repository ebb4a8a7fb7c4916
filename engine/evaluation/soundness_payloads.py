"""The payloads a mutant is routed as, by its shape, and the files non-text grounds check."""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from engine.core.statements import recompute_statement, tree_statement
from engine.datasets.scifact_text import TrainSentence, restatement_payload
from engine.evaluation.mutations import Mutant, Shape

REF = "zk:scifact:0-s0"
# What a note's own words look like beside the quote in an unmutated note.
REMARK = "The authors add a remark of their own."
TETHERED = "Rank stocks by their past twelve-month return."
_TREE = {"id": "root", "children": [{"id": "reduce", "when": [["regime", "==", "high"]]}]}
_PARAMS = {"regime": "high"}
_VALUE = 2.0
_DATA = {"file": "data/values.csv", "column": "x", "agg": "mean", "value": _VALUE}


def write_ground_files(root: Path) -> Path:
    """The files the non-text grounds check: a real PNG, a CSV, a tree and a tethered file."""
    (root / "figures").mkdir(parents=True, exist_ok=True)
    (root / "figures" / "plot.png").write_bytes(_png())
    (root / "data").mkdir(exist_ok=True)
    (root / "data" / "values.csv").write_text("x\n1\n2\n3\n", encoding="utf-8")
    (root / "trees").mkdir(exist_ok=True)
    (root / "trees" / "rule.json").write_text(json.dumps(_TREE), encoding="utf-8")
    (root / "src").mkdir(exist_ok=True)
    (root / "src" / "signal.py").write_text(f'"""{TETHERED}"""\n', encoding="utf-8")
    return root


def mutant_payloads(mutant: Mutant) -> Iterator[dict[str, Any]]:
    """The payloads a mutant is routed as; a leak is any of them answering grounded."""
    item = TrainSentence("0", 0, mutant.source, mutant.abstract)
    if mutant.shape is Shape.RESTATEMENT:
        for quoted in (mutant.source, mutant.claim):
            yield restatement_payload([replace(item, text=quoted)], texts=[mutant.claim])
    elif mutant.shape is Shape.DEDUCTION:
        yield from _deduction(mutant, item)
    elif mutant.shape is Shape.OFF_QUOTE:
        own = REMARK if mutant.claim == mutant.source else mutant.claim
        yield _restating(
            mutant.claim,
            {"type": "quote", "payload": {"body": mutant.source, "fulltext": mutant.abstract}},
            body=f"{mutant.source} {own}",
        )
    else:
        spec, confirmed = non_text_ground(mutant.ground or "")
        claim = mutant.claim or confirmed
        yield _restating(claim, spec, body=f"{mutant.source} {claim}")


def non_text_ground(kind: str) -> tuple[dict[str, Any], str]:
    """The grounding of one non-text kind over `write_ground_files`, and what it confirms."""
    if kind == "figure":
        return {"type": "figure", "payload": {"path": "figures/plot.png"}}, ""
    if kind == "equation":
        body = r"r_{t} = \frac{P_{t}}{P_{t-1}} - 1"
        return {"type": "equation", "payload": {"body": body}}, body
    if kind == "expr-recompute":
        return {"type": kind, "payload": _DATA}, recompute_statement(_DATA, _VALUE)
    if kind == "decision-tree":
        payload = {"file": "trees/rule.json", "params": _PARAMS, "target": "reduce"}
        return {"type": kind, "payload": payload}, tree_statement(payload, "reduce", _PARAMS)
    if kind == "tether":
        return {"type": "tether", "payload": {"path": "src/signal.py"}}, TETHERED
    raise ValueError(f"unknown non-text ground {kind!r}")


def _restating(claim: str, spec: dict[str, Any], *, body: str) -> dict[str, Any]:
    span = {"start": 0, "end": len(claim), "claim": "c1"}
    return {
        "dag": {
            "claims": [{"id": "c1", "text": claim, "kind": "restatement", "cites": [REF]}],
            "conclusion": "c1",
            "prose_citations": [span],
        },
        "prose": claim,
        "groundings": {REF: spec},
        "node_bodies": {REF: body},
    }


def _deduction(mutant: Mutant, item: TrainSentence) -> Iterator[dict[str, Any]]:
    premise = mutant.premise or mutant.source
    base = restatement_payload([replace(item, text=premise)])
    claims = base["dag"]["claims"]
    claims.append(
        {"id": "d", "text": mutant.claim, "kind": "deduction", "premises": [claims[0]["id"]]}
    )
    base["dag"]["conclusion"] = "d"
    base["prose"] = mutant.claim
    base["dag"]["prose_citations"] = [{"start": 0, "end": len(mutant.claim), "claim": "d"}]
    yield base
    hedge = dict(base, prose=premise)
    hedge["dag"] = dict(
        base["dag"],
        prose_citations=[{"start": 0, "end": len(premise), "claim": claims[0]["id"]}],
    )
    yield hedge


def _png() -> bytes:
    """A real 1×1 PNG, built here so no binary file ships with the evaluation."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return len(data).to_bytes(4, "big") + body + zlib.crc32(body).to_bytes(4, "big")

    header = (1).to_bytes(4, "big") * 2 + bytes([8, 2, 0, 0, 0])
    pixels = zlib.compress(b"\x00\xff\x00\x00")
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")
    )

"""`python -m engine eval reader --pairs FILE`: the shipped reader on labelled pairs you have.

The reader's figures in `bands.json` were measured out of fold on SciFact train and
Climate-FEVER. This command measures it again on any other labelled pairs (SciFact dev, a
lab's own claims, pairs exported from triage) without training anything: one JSON object a
line, `{"claim": …, "sentence": …, "label": …}`, the label SUPPORT(S), CONTRADICT / REFUTES
or NONE / NOT_ENOUGH_INFO. It prints one JSON object: how well P(SUPPORT) + P(CONTRADICT)
separates evidence from the rest and P(CONTRADICT) contradictions from the rest (AUC), and
per shipped band of P(CONTRADICT) how many pairs fell in it, how many were contradictions,
and the precision shipped for it, so a band that does not hold on your data shows.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import numpy as np

from engine.commands.command_registry import Command, register
from engine.core.errors import ConfigError

NAMES = (("none", 0), ("support", 1), ("contradict", 2))
MAX_PAIRS = 50_000
MAX_BYTES = 64 * 1024 * 1024
MAX_TEXT = 4_000  # characters of a claim or a sentence; the reader reads 128 tokens anyway
LABELS = {
    "SUPPORT": 1,
    "SUPPORTS": 1,
    "CONTRADICT": 2,
    "REFUTES": 2,
    "NONE": 0,
    "NOT_ENOUGH_INFO": 0,
}


def read_pairs(path: Path) -> list[tuple[str, str, int]]:
    """(claim, sentence, label) from the file; ConfigError naming the first bad line."""
    try:
        if path.stat().st_size > MAX_BYTES:
            raise ConfigError(f"--pairs {path} is over {MAX_BYTES:,} bytes")
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise ConfigError(f"cannot read --pairs {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"--pairs {path} is not UTF-8 text") from None
    pairs: list[tuple[str, str, int]] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        if len(pairs) == MAX_PAIRS:
            raise ConfigError(f"--pairs {path} holds more than {MAX_PAIRS:,} pairs")
        pairs.append(_pair(line, number))
    if not pairs:
        raise ConfigError(f"--pairs {path} holds no pairs")
    return pairs


def _pair(line: str, number: int) -> tuple[str, str, int]:
    try:
        row = json.loads(line)
    except ValueError:
        raise ConfigError(f"--pairs line {number} is not JSON") from None
    if not isinstance(row, dict):
        raise ConfigError(f"--pairs line {number} is not an object")
    claim, sentence, label = row.get("claim"), row.get("sentence"), row.get("label")
    if not isinstance(claim, str) or not isinstance(sentence, str):
        raise ConfigError(f"--pairs line {number} needs a claim and a sentence, both text")
    if not claim.strip() or not sentence.strip():
        raise ConfigError(f"--pairs line {number} has an empty claim or sentence")
    if not isinstance(label, str) or label.upper() not in LABELS:
        raise ConfigError(f"--pairs line {number}: label must be one of {', '.join(LABELS)}")
    return claim[:MAX_TEXT], sentence[:MAX_TEXT], LABELS[label.upper()]


def auc(scores: np.ndarray, positive: np.ndarray) -> float | None:
    """The chance a positive scores above a negative (ties count half); None without both."""
    pos, neg = scores[positive], scores[~positive]
    if not len(pos) or not len(neg):
        return None
    # Each distinct score's rank is the mean of the ranks its ties would take: one sort,
    # linear in the pairs however many distinct scores there are.
    _, where, counts = np.unique(
        np.concatenate([pos, neg]), return_inverse=True, return_counts=True
    )
    last = np.cumsum(counts)
    ranks = ((last - counts + 1 + last) / 2)[where]
    wins = ranks[: len(pos)].sum() - len(pos) * (len(pos) + 1) / 2
    return round(float(wins / (len(pos) * len(neg))), 4)


def measure(readings: np.ndarray, labels: np.ndarray) -> dict[str, Any]:
    """The figures for readings (rows of P(NONE), P(SUPPORT), P(CONTRADICT)) and labels."""
    from engine.review.reader_typer import called, reader_bands

    contradict = readings[:, 2]
    bands: list[dict[str, Any]] = []
    for band in reader_bands():
        inside = (contradict >= band.low) & (contradict < band.high)
        right = int((inside & (labels == 2)).sum())
        flagged = int(inside.sum())
        bands.append(
            {
                "low": band.low,
                "high": min(band.high, 1.0),
                "called": called(band).value,
                "flagged": flagged,
                "right": right,
                "precision": round(right / flagged, 4) if flagged else None,
                "shipped_precision": round(band.precision, 4),
            }
        )
    return {
        "pairs": len(labels),
        "labels": {
            name: int((labels == v).sum())
            for name, v in (("none", 0), ("support", 1), ("contradict", 2))
        },
        "evidence_auc": auc(readings[:, 1] + contradict, labels > 0),
        "contradict_auc": auc(contradict, labels == 2),
        "bands": bands,
    }


def _configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--pairs", type=Path, required=True, help="labelled pairs, JSON lines")


def _run(args: argparse.Namespace) -> int:
    from engine.models.reader import load_reader, reader_notice

    pairs = read_pairs(args.pairs)
    choice = load_reader()
    if choice.reader is None:
        raise ConfigError(f"the reader is not available: {reader_notice(choice)}")
    reader = choice.reader
    readings = np.array(
        [
            [r.none, r.support, r.contradict]
            for claim, sentence, _ in pairs
            for r in reader.read(claim, [sentence])
        ]
    )
    report = measure(readings, np.array([label for _, _, label in pairs]))
    report["reader"] = reader.fingerprint
    print(json.dumps(report, sort_keys=True))
    return 0


register("eval reader", Command("Measure the shipped reader on labelled pairs", _configure, _run))

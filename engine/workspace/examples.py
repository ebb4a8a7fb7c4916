"""Example questions a workspace offers on the landing page, read from its `questions.jsonl`."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

EXAMPLES_FILE = "questions.jsonl"
LABELS = ("ANSWER", "HEDGED ANSWER", "ABSTAIN")
MAX_EXAMPLE_BYTES = 256 * 1024


@dataclass(frozen=True)
class Example:
    """A question with the verdict it is known to reach and, optionally, its sources' stance."""

    question: str
    label: str
    stance: str = ""
    summary: str = ""


def read_examples(root: str | os.PathLike[str]) -> tuple[Example, ...]:
    """Every well-formed line of the workspace's questions file; a bad line or file is skipped."""
    path = Path(root) / EXAMPLES_FILE
    try:
        if path.is_symlink() or path.stat().st_size > MAX_EXAMPLE_BYTES:
            return ()
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return ()
    out = []
    for line in lines:
        try:
            item = json.loads(line)
        except ValueError:
            continue
        if not isinstance(item, dict):
            continue
        question, label = item.get("question"), item.get("label")
        if isinstance(question, str) and question.strip() and label in LABELS:
            stance = item.get("stance") if isinstance(item.get("stance"), str) else ""
            summary = item.get("summary") if isinstance(item.get("summary"), str) else ""
            out.append(Example(question.strip(), label, stance, summary))
    return tuple(out)


def landing_examples(examples: tuple[Example, ...]) -> tuple[Example, ...]:
    """One example per verdict, then one per stance not already shown, in file order."""
    picked: list[Example] = []
    for label in LABELS:
        first = next((e for e in examples if e.label == label), None)
        if first is not None:
            picked.append(first)
    stances = {e.stance for e in picked if e.stance}
    for example in examples:
        if example.stance and example.stance not in stances and example not in picked:
            picked.append(example)
            stances.add(example.stance)
    return tuple(picked)

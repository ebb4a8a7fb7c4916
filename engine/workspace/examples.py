"""Examples: the questions a workspace offers on its landing page (its `questions.jsonl`),
and the bundled wire payloads, one per decision path, that demonstrate the router."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.core.jsonsafe import filled_strings
from engine.core.stance import Stance, StanceRelation

EXAMPLES_FILE = "questions.jsonl"
# The bundled payload gallery, shared by the Audit page and the router tests.
PAYLOADS = Path(__file__).resolve().parents[2] / "examples" / "payloads"
LABELS = ("ANSWER", "HEDGED ANSWER", "ABSTAIN")
# The stances an example may promise, as the answer shows them: a possible tension (a
# contradiction from a band measured too rarely right) is "may contradict", never "contradicts".
STANCES = ("supports", "contradicts", "may contradict", "neither")
MAX_EXAMPLE_BYTES = 256 * 1024


@dataclass(frozen=True)
class Example:
    """A question with the verdict it is known to reach and, optionally, its sources' stance."""

    question: str
    label: str
    stance: str = ""
    summary: str = ""

    def kept_by(self, label: str, stance: Stance | None) -> bool:
        """Whether an answer with this verdict and stance keeps the example's promise.

        The verdict must be the promised one; a promised stance must be the one shown,
        and an example that promises none is kept whatever stance is shown.
        """
        if label != self.label:
            return False
        return not self.stance or self.stance == stance_shown(stance)


def stance_shown(stance: Stance | None) -> str:
    """The stance an answer shows, in the words an example promises it ("" for none)."""
    if stance is None:
        return ""
    if stance.relation is StanceRelation.CONTRADICTS:
        return "may contradict" if stance.tension else "contradicts"
    if stance.relation is StanceRelation.SUPPORTS:
        return "supports"
    return "neither"


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
            stance, summary = item.get("stance"), item.get("summary")
            stance = stance if stance in STANCES else ""
            summary = summary if isinstance(summary, str) else ""
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


@dataclass(frozen=True, kw_only=True)
class PayloadExample:
    """A named wire payload, the decision it should get (or `invalid`) and why it matters.

    `reasons` are the abstain reasons it should get, in order; `text` is the payload as
    indented JSON, ready to paste into the Audit page.
    """

    key: str
    title: str
    expect: str
    summary: str
    text: str
    reasons: tuple[str, ...] = ()

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.text)  # the object read in `payload_examples`
        return data


def payload_examples(folder: str | os.PathLike[str] = PAYLOADS) -> tuple[PayloadExample, ...]:
    """Every `*.json` payload example in `folder`, in file-name order.

    A file that is unreadable, lacks a key, title, expect, summary or payload object, or
    whose reasons are not a list of strings, is skipped; a missing folder gives none.
    """
    out = []
    for path in sorted(Path(folder).glob("*.json")):
        try:
            item = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError):
            continue
        if not isinstance(item, dict) or not isinstance(item.get("payload"), dict):
            continue
        fields = [item.get(name) for name in ("key", "title", "expect", "summary")]
        if not filled_strings(fields):
            continue
        reasons = item.get("reasons", [])
        if not isinstance(reasons, list) or not all(isinstance(r, str) for r in reasons):
            continue
        text = json.dumps(item["payload"], indent=2, ensure_ascii=False)
        key, title, expect, summary = fields
        out.append(
            PayloadExample(
                key=key,
                title=title,
                expect=expect,
                summary=summary,
                text=text,
                reasons=tuple(reasons),
            )
        )
    return tuple(out)

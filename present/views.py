"""A result's verdict for the reader: its banner, why it abstained, its downloads, and audits."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from engine import (
    REASON_EXPLANATIONS,
    Answer,
    NavResult,
    Reason,
    ReportReason,
    ReportWords,
    route_json,
)
from present import answer, causes


@dataclass(frozen=True)
class Banner:
    """The verdict line: its tone (success, warning or error) and text starting with the label."""

    tone: str
    label: str
    text: str


def banner(result: NavResult, *, confirmed: Iterable[tuple[str, str]] = ()) -> Banner:
    """The verdict banner: the label, then why in plain words (no internal claim ids)."""
    label = result.label
    status = result.decision.status if result.decision else None
    broken = answer.failure(result)
    hedge = answer.hedge_of(result)
    if label == "ANSWER":
        head, tone = f"ANSWER — {status}", "success"
    elif hedge is answer.Hedge.PARAPHRASE:
        head, tone = "HEDGED ANSWER — verified text, read as a paraphrase by the reader", "warning"
    elif hedge is answer.Hedge.UNSAID:
        head, tone = "HEDGED ANSWER — verified text, not all of the question", "warning"
    elif hedge is answer.Hedge.NOT_A_YES:
        held = answer.held_back(result, clause=False)
        head, tone = f"HEDGED ANSWER — verified text, {held} to the question", "warning"
    elif label == "HEDGED ANSWER":
        head, tone = "HEDGED ANSWER — inferred, not verified", "warning"
    elif broken is not None:
        head, tone = f"ABSTAIN — {broken.head}", "error"
    else:
        head, tone = f"ABSTAIN — {causes.headline(result)}", "error"
    if result.decision is not None and result.decision.outdated and label != "ABSTAIN":
        head += " (outdated: built on a superseded pin)"
    detail = causes.summary(result, confirmed=confirmed)
    return Banner(tone, label, f"{head}. {detail}" if detail else head)


@dataclass(frozen=True)
class Explanation:
    """One reason for the verdict in plain words with what triggered it here."""

    reason: str
    explanation: str
    specifics: tuple[str, ...]


_VERDICT_EXPLANATIONS = {
    "ANSWER": (
        "grounded",
        "Every sentence of the answer is licensed by a verified claim, each cited node passed "
        "its check, and the answer, with the papers it cites, says every topic word of the "
        "question.",
    ),
    "HEDGED ANSWER": (
        "inferred",
        "The conclusion is an honest inference: it goes beyond its sources, but rests on "
        "verified premises and says so.",
    ),
}

# A hedged answer of verified text explained by what keeps it from green.
_HEDGE_EXPLANATIONS = {
    answer.Hedge.PARAPHRASE: (
        "verified, read as a paraphrase",
        "Every sentence is quoted from verified text, but words alone do not show that it "
        "answers the question. The trained reader reads it as an answer in other words; the "
        "reader is sometimes wrong, so the answer is never green, and how often it was right "
        "at this confidence is shown.",
    ),
    answer.Hedge.UNSAID: (
        "verified, not all of the question",
        "Every sentence is quoted from verified text, but the text never says some of what the "
        "question asks: it may answer a neighbouring question.",
    ),
    answer.Hedge.NOT_A_YES: (
        "verified, not a firm yes or no",
        "Every sentence is quoted from verified text, but the text says less than the yes or "
        "no it seems to give to what was asked: read it for what it does say.",
    ),
}


def explanations(
    result: NavResult, *, confirmed: Iterable[tuple[str, str]] = ()
) -> tuple[Explanation, ...]:
    """Every verdict explained: each abstain reason, a failure, or why it answered."""
    label = result.label
    if label in _VERDICT_EXPLANATIONS:
        hedge = answer.hedge_of(result)
        name, text = _VERDICT_EXPLANATIONS[label]
        if hedge is not None and hedge in _HEDGE_EXPLANATIONS:
            name, text = _HEDGE_EXPLANATIONS[hedge]
        return (Explanation(name, text, tuple(answer.answered_lines(result))),)
    broken = answer.failure(result)
    if broken is not None:
        return (Explanation(broken.head, broken.text, ()),)
    out = []
    for cause in causes.causes(result):
        words = causes.CAUSE_WORDS[cause]
        specifics = causes.lines(result, cause, confirmed=confirmed)
        out.append(Explanation(words, causes.CAUSE_EXPLANATIONS[cause], tuple(specifics)))
    if not out:
        # A run with no router decision to read causes from: its reasons, as the wire says.
        for name in answer.reasons(result):
            try:
                text = REASON_EXPLANATIONS[Reason(name)]
            except ValueError:
                text = "A reason this app does not know how to explain."
            out.append(Explanation(name.replace("-", " "), text, ()))
    return tuple(out)


def decision_json(result: Answer) -> str:
    """The whole result as indented JSON, for download."""
    return json.dumps(result.to_dict(), indent=2, sort_keys=True, ensure_ascii=False)


def payload_json(result: NavResult) -> str:
    """The wire payload behind the result as indented JSON, or "" when it has none."""
    payload = result.payload
    return json.dumps(payload, indent=2, ensure_ascii=False) if payload else ""


def audit_result(text: str | bytes, *, workspace: str | Path | None = None) -> Answer:
    """Route a pasted or uploaded wire payload to an answer; raises PayloadError."""
    routed = route_json(text, workspace=workspace)
    # The payload parsed, so it is an object.
    return Answer.from_route(routed, json.loads(text))


def report_words(
    result: Answer,
    *,
    confirmed: Iterable[tuple[str, str]] = (),
    names: Mapping[str, str] | None = None,
    citations: Mapping[str, str] | None = None,
) -> ReportWords:
    """The words the pages show for `result` (banner, reasons, stance), for its report."""
    run = result.run
    stance = answer.stance_line(run)
    reasons = tuple(
        ReportReason(item.reason, item.explanation, item.specifics)
        for item in explanations(run, confirmed=confirmed)
    )
    return ReportWords(
        banner(run, confirmed=confirmed).text,
        reasons,
        stance.text if stance is not None else "",
        dict(names or {}),
        dict(citations or {}),
    )


# What each bound of a navigation's budget does, for the sidebar's settings.
BUDGET_HELP = {
    "hops": (
        "How many links the walk may follow out from the notes that match the question best. "
        "More hops reach more distant notes; 0 keeps to the matches themselves."
    ),
    "max_nodes": (
        "The most notes the walk may gather before it must answer. More can find a source "
        "further away, but each answer takes longer."
    ),
    "max_steps": (
        "The most moves (expand a note, check a source, answer) the reasoner may make. When "
        "they run out the walk stops; too few steps can end in an abstention."
    ),
}

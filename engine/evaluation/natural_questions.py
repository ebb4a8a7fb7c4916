"""Natural questions on SciFact: each train claim asked as a researcher would type it.

Every claim is rewritten into a yes/no question (`as_question`: "X reduces Y." -> "Does X
reduce Y?") and asked twice: once in the whole workspace, where its gold abstracts are,
and once in a workspace its gold abstracts were taken out of. With the evidence present
the figures are recall, citation precision and the yes/no reading's accuracy per gold
label; with it removed every green ANSWER is an answer to another question (an
*off-question green*). The removed runs go fold by fold (claims grouped by the abstracts
they cite, `folds.claim_folds`), so a claim's evidence is never left in by a sibling claim.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from engine.api import ask, open_workspace
from engine.datasets.scifact import import_scifact
from engine.evaluation.folds import FOLDS, claim_folds
from engine.evaluation.navigation_scores import ClaimOutcome, GoldClaim, run_claims
from engine.reading.questions import as_question
from engine.workspace.opened import OpenWorkspace, words_alone

_READING_OF_LABEL = {"SUPPORT": "yes", "CONTRADICT": "no"}


def as_questions(claims: Iterable[GoldClaim]) -> list[GoldClaim]:
    """The claims with their text rewritten as the yes/no questions a researcher would ask."""
    return [replace(claim, claim=as_question(claim.claim)) for claim in claims]


@dataclass(frozen=True)
class OffQuestion:
    """One green answer given with the question's evidence removed: what it cited and said."""

    id: str
    question: str
    cited: tuple[str, ...]
    fold: int

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "question": self.question, "cited": list(self.cited)}


def present_figures(outcomes: list[ClaimOutcome]) -> dict[str, Any]:
    """Green recall, hedged answers and the yes/no reading per gold label, evidence present."""
    with_evidence = [o for o in outcomes if o.gold]
    green = [o for o in with_evidence if o.label == "ANSWER" and set(o.cited) & o.gold]
    hedged = [o for o in with_evidence if o.label == "HEDGED ANSWER" and set(o.cited) & o.gold]
    out: dict[str, Any] = {
        "questions": len(outcomes),
        "questions_with_evidence": len(with_evidence),
        "green_recall": _ratio(len(green), len(with_evidence)),
        "hedged_recall": _ratio(len(hedged), len(with_evidence)),
    }
    for label, reading in _READING_OF_LABEL.items():
        judged = [o for o in green + hedged if _gold_label(o) == label]
        right = sum(o.stance == _STANCE_OF_READING[reading] for o in judged)
        out[f"reading_{reading}_on_{label.lower()}"] = {
            "answered": len(judged),
            "right": right,
            "accuracy": _ratio(right, len(judged)),
            "said_mixed": sum(o.stance in (None, "neither") for o in judged),
        }
    return out


_STANCE_OF_READING = {"yes": "supports", "no": "contradicts"}


def removed_run(
    corpus: Path,
    claims_path: Path,
    claims: list[GoldClaim],
    *,
    folds: int = FOLDS,
    work: Path | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[int, list[OffQuestion]]:
    """Ask each fold's questions in a workspace without that fold's gold abstracts.

    Returns how many questions were asked and every green answer given (each one an
    off-question green). The workspaces are built on words alone under `work` (a
    temporary folder when None) and removed with it.
    """
    asked = [c for c in claims if c.evidence]
    fold = claim_folds({c.id: c.evidence for c in asked}, folds)
    greens: list[OffQuestion] = []
    done = 0
    with tempfile.TemporaryDirectory(dir=work) as tmp:
        for k in range(folds):
            mine = [c for c in asked if fold[c.id] == k]
            if not mine:
                continue
            removed = frozenset(doc for c in mine for doc in c.evidence)
            root = Path(tmp) / f"fold-{k}"
            import_scifact(corpus, claims_path, root, exclude=removed)
            opened = words_alone(open_workspace(root))
            try:
                for claim in mine:
                    result = ask(opened, claim.claim)
                    if result.label == "ANSWER":
                        cited = result.decision.cited if result.decision is not None else ()
                        greens.append(OffQuestion(claim.id, claim.claim, cited, k))
                    done += 1
                    if progress is not None:
                        progress(done, len(asked))
            finally:
                opened.close()
    return len(asked), greens


def present_run(
    opened: OpenWorkspace, claims: list[GoldClaim], progress: Callable[[int], None] | None = None
) -> list[ClaimOutcome]:
    """Ask the questions in the whole workspace (their evidence present)."""
    return run_claims(opened, claims, progress=progress)


def _gold_label(outcome: ClaimOutcome) -> str | None:
    for doc in outcome.cited:
        label = outcome.labels.get(doc)
        if label in _READING_OF_LABEL:
            return label
    return None


def _ratio(num: int, den: int) -> float | None:
    return round(num / den, 4) if den else None

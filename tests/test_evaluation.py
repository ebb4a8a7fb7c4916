import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine import OpenWorkspace
from engine.api import ask, open_workspace
from engine.datasets.scifact import labels_path
from engine.evaluation.navigation_scores import (
    ClaimOutcome,
    GoldClaim,
    load_gold,
    run_claims,
    score,
)
from engine.review.relations import EdgeKey
from engine.review.triage import record
from tests.workspaces import words_alone


@pytest.fixture(scope="module")
def opened(scifact_slice: Path) -> Iterator[OpenWorkspace]:
    # A module fixture is set up before the autouse one that puts SciFact tests on words
    # alone, so it says so itself (or it would encode the slice's 3,000 sentences).
    with words_alone():
        handle = open_workspace(scifact_slice)
        yield handle
        handle.close()


@pytest.fixture(scope="module")
def gold(scifact_slice: Path) -> list[GoldClaim]:
    return load_gold(labels_path(scifact_slice))


def outcome(label: str, cited: list[str], gold: list[str]) -> ClaimOutcome:
    return ClaimOutcome("x", label, tuple(cited), frozenset(gold), 1.0)


def test_score_counts_each_figure() -> None:
    figures = score(
        [
            outcome("ANSWER", ["1"], ["1"]),
            outcome("ANSWER", ["2"], ["3"]),
            outcome("ABSTAIN", [], ["4"]),
            outcome("ABSTAIN", [], []),
            outcome("HEDGED ANSWER", ["5"], []),
        ]
    )
    assert figures["answer_rate"] == 0.6
    assert figures["evidence_recall"] == round(1 / 3, 4)
    assert figures["citation_precision"] == round(1 / 3, 4)
    assert figures["abstain_rate_no_evidence"] == 0.5
    assert figures["hedged"] == 1


def test_the_rationale_rate_counts_answers_restating_an_annotated_sentence() -> None:
    def answered(restated: set[int]) -> ClaimOutcome:
        return ClaimOutcome(
            "x", "ANSWER", ("1",), frozenset({"1"}), 1.0,
            restated={"1": frozenset(restated)}, rationales={"1": frozenset({2, 3})},
        )  # fmt: skip

    figures = score([answered({3}), answered({0}), answered(set())])
    assert figures["rationale_restated"] == 1
    assert figures["rationale_rate"] == round(1 / 3, 4)


def test_gold_rationales_are_read_and_answers_record_the_sentences_they_restate(
    opened: OpenWorkspace, gold: list[GoldClaim]
) -> None:
    with_rows = [g for g in gold if any(g.rationales.values())]
    assert with_rows and all(
        isinstance(n, int) for g in with_rows for n in g.rationales[next(iter(g.rationales))]
    )
    outcomes = [o for o in run_claims(opened, with_rows[:40]) if o.answered]
    assert outcomes and all(o.restated for o in outcomes if o.cited)
    assert any(o.restates_rationale for o in outcomes)


def test_a_train_claim_gets_a_grounded_cited_answer(
    opened: OpenWorkspace, gold: list[GoldClaim]
) -> None:
    answered = [g for g in gold if g.evidence][:20]
    results = [ask(opened, g.claim) for g in answered]
    grounded = [r for g, r in zip(answered, results, strict=True) if r.label == "ANSWER"]
    assert grounded, "no train claim was answered"
    first = grounded[0].to_dict()
    assert first["decision"]["status"] == "grounded" and first["cited"][0].startswith("zk:scifact:")


def test_an_unanswerable_question_abstains_with_reasons(opened: OpenWorkspace) -> None:
    out = ask(opened, "Which football club won the 1998 league title?").to_dict()
    assert out["decision"]["verdict"] == "abstain" and out["decision"]["reasons"]


def test_evaluation_on_a_slice_reports_all_figures(
    opened: OpenWorkspace, gold: list[GoldClaim]
) -> None:
    figures = score(run_claims(opened, gold[:40]))
    assert figures["claims"] == 40
    assert 0.0 < figures["answer_rate"] <= 1.0
    assert figures["evidence_recall"] is not None and figures["median_latency_ms"] > 0


def test_labels_never_enter_the_workspace(scifact_slice: Path) -> None:
    for path in scifact_slice.rglob("*.md"):
        text = path.read_text(encoding="utf-8")
        assert "CONTRADICT" not in text and "SUPPORT" not in text
    assert json.loads((labels_path(scifact_slice)).open().readline())["evidence"] is not None


def test_confirmed_triage_contests_the_cited_abstract(
    scifact_slice: Path, gold: list[GoldClaim], tmp_path: Path
) -> None:
    workspace = tmp_path / "sf"
    shutil.copytree(scifact_slice, workspace)
    opened = open_workspace(workspace)
    claim = next(g for g in gold if g.evidence and ask(opened, g.claim).label == "ANSWER")
    before = ask(opened, claim.claim).to_dict()
    doc = before["cited"][0].split(":", 2)[2]
    record(workspace, EdgeKey(f"claim-{claim.id}", "scifact", doc), "confirmed", note="checked")
    after = ask(opened, claim.claim).to_dict()
    opened.close()
    assert before["decision"]["label"] == "ANSWER" and after["decision"]["label"] == "ABSTAIN"
    assert after["decision"]["nodes"][before["cited"][0]]["flags"] == ["contested"]

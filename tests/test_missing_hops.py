"""A vault claim resting on a note not written yet: the missing hop is shown, named and decisive."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import answer, open_workspace
from engine.core.model import Claim, ClaimKind
from engine.core.wire import Draft
from engine.navigation.premises import with_missing_premises
from engine.workspace.stores import load_workspace
from present import dag_graph, graphs, views
from present.markup import missing_mark
from tests.builders.vaults import CLAIM_QUESTION, MISSING_ADDRESS, claim_vault

QUESTION, MISSING = CLAIM_QUESTION, MISSING_ADDRESS


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    return claim_vault(tmp_path)


def test_inline_tags_leave_the_prose_but_not_code_or_anchors(vault: Path) -> None:
    note = load_workspace(vault).notes["zk:Concepts:Neurogenesis-therapy"]
    assert "#claim" not in note.body and "#topic" not in note.body
    assert "in humans." in note.body
    assert "`#keep-in-code`" in note.body and "https://example.org/trial#results" in note.body
    assert {"claim", "topic/stroke"} <= set(note.tags)


def test_a_premise_not_written_yet_is_a_named_missing_hop_and_blocks(vault: Path) -> None:
    run = answer(open_workspace(vault), QUESTION).run
    decision = run.decision
    assert decision is not None
    assert run.label == "ABSTAIN" and [r.value for r in decision.reasons] == ["missing-hop"]
    assert decision.missing_refs == (MISSING,)
    cites = [ref for claim in decision.dag.claims for ref in claim.cites]
    assert MISSING in cites, "the missing hop is in the DAG, never dropped"
    premises = decision.dag.claim(decision.conclusion).premises
    assert len(premises) == 3
    assert "#claim" not in decision.dag.claim(decision.conclusion).text
    node = run.neighbourhood.nodes[MISSING]
    assert run.neighbourhood.unwritten(MISSING) and node.title == "Human trial of neurogenesis"
    banner = views.banner(run).text
    assert banner.startswith("ABSTAIN — missing hop.")
    assert "“Neurogenesis therapy” rests on “Human trial of neurogenesis”" in banner
    assert "not written yet" in banner
    assert "Human trial of neurogenesis" not in run.prose, "no words are put in its mouth"


def test_the_dag_and_the_walk_draw_the_missing_hop_in_red(vault: Path) -> None:
    run = answer(open_workspace(vault), QUESTION).run
    dag = dag_graph.dag_html(run)
    assert "Human trial of neurogenesis" in dag and "missing: not written yet" in dag
    assert missing_mark.colour in dag
    walk = graphs.neighbourhood_html(run, graphs.step_count(run) - 1)
    assert "Human trial of neurogenesis" in walk and missing_mark.colour in walk


def test_writing_the_missing_note_lets_the_claim_stand_as_an_inference(vault: Path) -> None:
    (vault / "Literature" / "Human trial of neurogenesis.md").write_text(
        "# Human trial of neurogenesis\n\n"
        "> Here we show that stroke, caused by transient middle cerebral artery occlusion in "
        "adult rats, leads to a marked increase of cell proliferation in the subventricular "
        "zone.\n> — @scifact-7157436, p. 2\n",
        encoding="utf-8",
    )
    run = answer(open_workspace(vault), QUESTION).run
    assert run.label == "HEDGED ANSWER"
    assert run.decision is not None
    assert not run.decision.missing_refs
    assert not any(run.neighbourhood.unwritten(a) for a in run.neighbourhood.nodes)


def test_any_reasoner_that_leaves_the_missing_premise_out_gets_it_back(vault: Path) -> None:
    workspace = load_workspace(vault)
    claim = "zk:Concepts:Neurogenesis-therapy"
    premise = "zk:Literature:Stroke-and-new-neurons"
    draft = Draft.build(
        [
            Claim("p1", "A sentence of the paper.", ClaimKind.RESTATEMENT, (premise,)),
            Claim("c1", "A conclusion.", ClaimKind.INFERENCE, (claim,), ("p1",)),
        ],
        "c1",
    )
    completed = with_missing_premises(draft, workspace)
    added = completed.dag.claim("missing-1")
    assert added.cites == (MISSING,) and added.text == "Human trial of neurogenesis"
    assert completed.dag.claim("c1").premises == ("p1", "missing-1")
    assert with_missing_premises(completed, workspace) == completed
    assert with_missing_premises(Draft.build([draft.dag.claim("p1")], "p1"), workspace).dag == (
        Draft.build([draft.dag.claim("p1")], "p1").dag
    )

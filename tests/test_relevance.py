"""Meaning in the walk: fused retrieval, the relevance gate, and what a cosine may never do."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.api import OpenWorkspace, ask
from engine.navigation.reasoners.candidates import OfflineConfig
from engine.navigation.reasoners.offline import OfflineReasoner
from engine.navigation.relevance import Relevance, RelevanceGate, shipped_gate
from engine.navigation.retrieval import fuse, retrieve
from engine.workspace.semantic import Meaning

CLAIM = "Momentum profits survive transaction costs."


def test_fusion_puts_what_both_lists_find_first_and_breaks_ties_by_address() -> None:
    found = fuse(["a", "b", "c"], ["c", "d", "a"], k=4)
    assert [f.address for f in found[:2]] == ["a", "c"]
    tied = fuse(["y"], ["x"], k=2)
    assert [f.address for f in tied] == ["x", "y"]


def test_without_meaning_retrieval_is_bm25_alone(lab: OpenWorkspace) -> None:
    lexical = [h.address for h in lab.index.search(CLAIM, k=5)]
    assert retrieve(lab.index, None, CLAIM, 5) == lexical


def test_with_meaning_retrieval_still_returns_what_bm25_ranks_first(lab: OpenWorkspace) -> None:
    best = lab.index.search(CLAIM, k=1, store="zk")[0].address
    found = retrieve(lab.index, lab.meaning.semantic, CLAIM, 6, store="zk")
    assert best in found and len(found) == len(set(found))


def _relevance(cosine: float, *, salient: int = 1) -> Relevance:
    return Relevance(0.8, 0.5, 0.1, cosine, cosine, 0.05, title_cosine=cosine, salient=salient)


def test_the_shipped_gate_is_fitted_for_the_shipped_encoder(lab: OpenWorkspace) -> None:
    gate = shipped_gate()
    assert gate is not None
    assert lab.meaning.semantic is not None
    assert gate.applies_to(lab.meaning.semantic.encoder.fingerprint)
    assert RelevanceGate.from_json(gate.to_json()) == gate


def test_a_note_nearer_in_meaning_makes_the_gate_more_willing_not_less() -> None:
    gate = shipped_gate()
    assert gate is not None
    assert gate.probability(_relevance(0.9)) > gate.probability(_relevance(0.3))


def test_the_gate_reads_the_title_and_the_claims_salient_terms() -> None:
    gate = shipped_gate()
    assert gate is not None
    assert {"title_cosine", "salient"} <= set(gate.features)
    near = replace(_relevance(0.6), title_cosine=0.9)
    assert gate.probability(near) > gate.probability(replace(near, title_cosine=0.3))
    assert gate.probability(_relevance(0.6, salient=1)) != gate.probability(
        _relevance(0.6, salient=3)
    )


def _refusing() -> RelevanceGate:
    gate = shipped_gate()
    assert gate is not None
    return replace(gate, threshold=1.01)


def _admitting() -> RelevanceGate:
    gate = shipped_gate()
    assert gate is not None
    return replace(gate, threshold=0.0)


@pytest.mark.parametrize(
    "question",
    [CLAIM, "Short-term reversal offsets momentum at one month."],
    ids=["covered-claim", "other-claim"],
)
def test_a_gate_that_refuses_everything_only_ever_abstains(
    lab: OpenWorkspace, question: str
) -> None:
    refusing = OfflineReasoner(OfflineConfig(ground_practice=False, gate=_refusing()))
    result = ask(lab, question, reasoner=refusing)
    assert result.label == "ABSTAIN"


@pytest.mark.parametrize(
    "question",
    [
        CLAIM,
        "Short-term reversal offsets momentum at one month.",
        "The momentum signal was never backtested.",
        "Crash risk is lower for momentum in calm markets.",
    ],
    ids=["covered", "reversal", "negated", "unrelated"],
)
def test_a_gate_that_admits_everything_never_turns_an_unlicensed_sentence_green(
    lab: OpenWorkspace, question: str
) -> None:
    # The gate chooses whether to restate; the router alone decides what is green.
    admitting = OfflineReasoner(OfflineConfig(ground_practice=False, gate=_admitting()))
    result = ask(lab, question, reasoner=admitting)
    decision = result.decision
    if decision is not None and decision.label == "ANSWER":
        for cid, verdict in decision.claim_verdicts.items():
            claim = decision.dag.claim(cid)
            if verdict.verified and claim.kind.value == "restatement":
                note = lab.workspace.note(claim.cites[0])
                confirmed = [q.body.strip() for q in note.quotes] if note else []
                assert note is not None
                assert claim.text in confirmed or not note.quotes


def test_the_same_question_gives_the_same_answer_with_meaning(lab: OpenWorkspace) -> None:
    first = ask(lab, CLAIM).to_json(timings=False)
    assert ask(lab, CLAIM).to_json(timings=False) == first


def test_words_alone_answers_as_before_meaning(lab: OpenWorkspace) -> None:
    words = replace(lab, meaning=Meaning(None, "words alone"))
    lexical = ask(words, CLAIM, reasoner=OfflineReasoner(OfflineConfig(ground_practice=False)))
    plain = ask(
        words,
        CLAIM,
        reasoner=OfflineReasoner(OfflineConfig(ground_practice=False, relevance=False)),
    )
    assert lexical.to_json(timings=False) == plain.to_json(timings=False)


def test_a_claim_naming_many_salient_terms_counts_as_naming_three() -> None:
    # SciFact claims name one to three; a pasted quote naming eleven must not sink the gate.
    gate = shipped_gate()
    assert gate is not None
    many = gate.probability(_relevance(0.9, salient=11))
    assert many == gate.probability(_relevance(0.9, salient=3))

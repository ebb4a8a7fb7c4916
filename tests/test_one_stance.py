"""One stance for a pair everywhere: the matrix's relation and the answer's stance agree.

The claim matrix types a (practice, canon) pair with the offline typer; the answer's stance
reads the same typing. A direct negation of the same proposition is a contradiction
candidate (a contradiction or a possible tension), never a support.
"""

import pytest

from engine.core.stance import StanceRelation
from engine.review.claim_stance import STANCE_OF, pair_stance, stance_toward
from engine.review.offline_stance import OfflineTyper
from engine.review.relations import Relation

NEGATIONS = [
    (
        "In our pipeline, coreference resolution cannot be formulated as a clustering task, "
        "because mentions are linked one pair at a time.",
        "We show that coreference resolution can be formulated as a clustering task.",
    ),
    (
        "Entity resolution cannot be formulated as a clustering task.",
        "Entity resolution can be formulated as a clustering task.",
    ),
    (
        "Aspirin does not reduce the risk of heart attack in adults.",
        "Aspirin reduces the risk of heart attack in adults.",
    ),
    (
        "Momentum returns do not persist over 3 to 12 month holding periods.",
        "Momentum returns persist over 3 to 12 month holding periods.",
    ),
]
NEGATION_IDS = ["cannot-with-a-reason", "cannot-bare", "does-not-reduce", "do-not-persist"]

PAIRS = [
    *NEGATIONS,
    (
        "Antiretroviral therapy reduces tuberculosis incidence.",
        "Antiretroviral therapy was associated with a reduction in tuberculosis incidence.",
    ),
    (
        "Antiretroviral therapy increases tuberculosis incidence.",
        "Antiretroviral therapy was associated with a reduction in tuberculosis incidence.",
    ),
    (
        "Antiretroviral therapy increases tuberculosis incidence.",
        "We reviewed studies of antiretroviral therapy and tuberculosis in adults.",
    ),
    (
        "Past winners keep beating past losers over 3 to 12 month holding periods.",
        "Stocks that performed well over the past year continue to outperform over the next "
        "3 to 12 months.",
    ),
    ("Vitamin D prevents fractures.", "The weather in Oslo was cold in March."),
]
PAIR_IDS = [*NEGATION_IDS, "same-direction", "opposite-direction", "no-direction", "restated",
            "unrelated"]  # fmt: skip


@pytest.mark.parametrize(("practice", "canon"), NEGATIONS, ids=NEGATION_IDS)
def test_a_negated_restatement_is_a_contradiction_candidate_never_support(
    practice: str, canon: str
) -> None:
    typing = OfflineTyper()(practice, canon)
    assert typing.relation in (Relation.CONTRADICTS, Relation.TENSION), typing.rationale
    stance = stance_toward(practice, [canon])
    assert stance is not None and stance.relation is StanceRelation.CONTRADICTS
    assert stance.tension is (typing.relation is Relation.TENSION)
    assert stance.cue  # a cue a reader can check names it


@pytest.mark.parametrize(("practice", "canon"), PAIRS, ids=PAIR_IDS)
def test_the_matrix_relation_and_the_answer_stance_agree(practice: str, canon: str) -> None:
    typing = OfflineTyper()(practice, canon)
    stance = pair_stance(practice, canon)
    assert stance.relation is STANCE_OF.get(typing.relation, StanceRelation.NEITHER)
    if stance.relation is not StanceRelation.NEITHER:
        assert stance.confidence == pytest.approx(typing.confidence)


@pytest.mark.parametrize(
    ("practice", "canon", "expected"),
    [
        (*PAIRS[4], StanceRelation.SUPPORTS),
        (*PAIRS[5], StanceRelation.CONTRADICTS),
        (*PAIRS[6], StanceRelation.NEITHER),
        (*PAIRS[8], StanceRelation.NEITHER),
    ],
    ids=["same-direction", "opposite-direction", "direction-unsaid", "unrelated"],
)
def test_the_stance_of_a_pair(practice: str, canon: str, expected: StanceRelation) -> None:
    assert pair_stance(practice, canon).relation is expected

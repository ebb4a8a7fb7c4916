import pytest

from engine.core.stance import StanceRelation
from engine.review.claim_stance import stance_toward

ART = "Antiretroviral therapy is associated with a reduction in tuberculosis incidence."


@pytest.mark.parametrize(
    ("claim", "evidence", "relation", "cue_words"),
    [
        (
            "Antiretroviral therapy increases tuberculosis incidence.",
            [ART],
            StanceRelation.CONTRADICTS,
            ("reduction", "increases"),
        ),
        (
            "Antiretroviral therapy reduces tuberculosis incidence.",
            [ART],
            StanceRelation.SUPPORTS,
            ("reduc",),
        ),
        (
            "Antiretroviral therapy increases tuberculosis incidence.",
            ["We reviewed studies of antiretroviral therapy and tuberculosis in adults."],
            StanceRelation.NEITHER,
            (),
        ),
    ],
    ids=["opposite-direction", "same-direction", "no-cue"],
)
def test_a_stance_needs_an_explicit_cue(claim, evidence, relation, cue_words):
    stance = stance_toward(claim, evidence)
    assert stance.relation is relation
    assert all(word in stance.phrase for word in cue_words)
    assert stance.evidence == evidence[0]


def test_a_contradicting_sentence_outranks_a_neutral_one():
    neutral = "We reviewed studies of antiretroviral therapy and tuberculosis in adults."
    claim = "Antiretroviral therapy increases tuberculosis incidence."
    stance = stance_toward(claim, [neutral, ART])
    assert stance.relation is StanceRelation.CONTRADICTS and stance.evidence == ART


def test_no_evidence_no_stance():
    assert stance_toward("Antiretroviral therapy increases tuberculosis.", ["", "  "]) is None

import pytest

from engine.core.stance import NO_CUE, Cue, CueShape, Stance, StanceRelation
from engine.review.claim_stance import read_by, stance_toward

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
def test_a_stance_needs_an_explicit_cue(
    claim: str, evidence: list[str], relation: StanceRelation, cue_words: tuple[str, ...]
) -> None:
    stance = stance_toward(claim, evidence)
    assert stance is not None
    assert stance.relation is relation
    assert all(word in stance.phrase for word in cue_words)
    assert stance.evidence == evidence[0]


def test_a_contradicting_sentence_outranks_a_neutral_one() -> None:
    neutral = "We reviewed studies of antiretroviral therapy and tuberculosis in adults."
    claim = "Antiretroviral therapy increases tuberculosis incidence."
    stance = stance_toward(claim, [neutral, ART])
    assert stance is not None
    assert stance.relation is StanceRelation.CONTRADICTS and stance.evidence == ART


def test_no_evidence_no_stance() -> None:
    assert stance_toward("Antiretroviral therapy increases tuberculosis.", ["", "  "]) is None


AGREE = Cue(CueShape.AGREEMENT, "fewer", "reduced")
FLIP = Cue(CueShape.DIRECTION, "effectiveness", "impairment")


@pytest.mark.parametrize(
    ("relation", "cue", "words", "read"),
    [
        (StanceRelation.SUPPORTS, AGREE, ("reduced",), ("reduced",)),
        (StanceRelation.SUPPORTS, AGREE, ("associated", "reduced"), ("associated", "reduced")),
        (StanceRelation.CONTRADICTS, FLIP, ("correlated", "impairment"), ("impairment",)),
        (StanceRelation.SUPPORTS, NO_CUE, ("associated",), ()),
        (StanceRelation.NEITHER, NO_CUE, ("promote",), ()),
    ],
    ids=[
        "cue-on-the-word",
        "agreement-states-the-link",
        "a-flip-states-no-link",
        "no-cue",
        "neither",
    ],
)
def test_a_stance_reads_the_relation_words_its_cue_is_on(
    relation: StanceRelation, cue: Cue, words: tuple[str, ...], read: tuple[str, ...]
) -> None:
    assert read_by(Stance(relation, cue, 0.9), words) == read

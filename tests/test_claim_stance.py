import pytest

from engine.core.stance import NO_CUE, Cue, CueShape, Stance, StanceRelation
from engine.review.claim_stance import read_by, stance_toward

ART = "Antiretroviral therapy led to a reduction in tuberculosis incidence."


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


HPBM = "An average of 5.05 +/- 1.50 X 10(8) HPBM were recovered with a purity of 95% +/- 3%."
PBS = "Lymphocytes were separated in Ca++- and Mg++-free PBS without EDTA."
IONS = "Li+, Cs+, Rb+, K+, and Na+ were effective in inducing competence."
RNAS = "We identify unique fingerprint non-coding RNAs in granulocytes."
CNS = (
    "Disease development is correlated with the increase in the activation of encephalitogenic"
    " T cells in the periphery and enhanced infiltration into the CNS."
)
JARID = "JARID1B-positive cells can become negative and single melanoma cells are tumorigenic."
BRAIN = (
    "Tauopathy may begin possibly in the lower brainstem rather than in the transentorhinal region."
)
UPTAKE = "Overexpression of DeltaE-torsinA in neuroblastoma cells increases FM1-43 uptake."
TRUVADA = "A two-dose regimen initiated 2 hours before or after virus exposure was effective."
UCP = "Augmented expression of UCPs may provide defense against high-fat induced obesity."
SOME = (
    "Abnormal gene expression in some cells differentiated from iPSCs can induce T-cell responses."
)
SUGGEST = (
    "These findings suggest that quinolinic acid lesioning stimulates adult neural stem cells."
)


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        (HPBM.replace("10(8)", "10(-8)"), HPBM),
        (HPBM.replace("10(8)", "10-10(8)"), HPBM),
        (HPBM.replace("HPBM were", "HPBM- were"), HPBM),
        (PBS.replace("without ", ""), PBS),
        (IONS.replace("Cs+", "Cs"), IONS),
        (RNAS.replace("non-coding", "coding"), RNAS),
        (CNS.replace("enhanced", "impaired"), CNS),
        (JARID.replace("positive", "negative", 1), JARID),
        (BRAIN.replace("lower brainstem", "@").replace("transentorhinal region", "lower "
         "brainstem").replace("@", "transentorhinal region"), BRAIN),
        (UPTAKE.replace("cells increases FM1-43", "FM1-43 increases cells"), UPTAKE),
        (TRUVADA.replace("2 hours", "2 days"), TRUVADA),
        (UCP.replace("may provide", "provides"), UCP),
        (SOME.replace("some", "all"), SOME),
        (SUGGEST.replace("suggest", "show"), SUGGEST),
    ],
    ids=["exponent-sign", "exponent-doubled", "marker-added", "negation-dropped",
         "marker-dropped", "prefix-dropped", "direction-flipped-beside-another",
         "direction-flipped-to-a-twin", "comparison-sides-swapped", "roles-swapped",
         "unit-changed", "hedge-dropped", "quantifier-widened", "suggest-as-shown"],
)  # fmt: skip
def test_a_yes_keeps_every_number_sign_mark_negation_direction_and_side(
    claim: str, evidence: str
) -> None:
    stance = stance_toward(claim, [evidence])
    assert stance is not None and stance.relation is not StanceRelation.SUPPORTS
    if stance.relation is StanceRelation.NEITHER:
        assert stance.overstated is not None, "a yes withheld names how the claim says more"
    assert stance_toward(evidence, [evidence]).relation is StanceRelation.SUPPORTS  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("Inhibition of HDAC6 increased the survival of mice.",
         "Inhibition of HDAC6 activity significantly increased the survival of mice bearing"
         " ARID1A-mutated tumours."),
        ("Cell proliferation was higher in treated mice than in controls.",
         "Cell proliferation was markedly higher in treated mice than in controls (P < 0.01)."),
    ],
    ids=["same-direction-fewer-words", "same-comparison-fewer-words"],
)  # fmt: skip
def test_a_yes_survives_a_claim_that_keeps_directions_sides_and_order(
    claim: str, evidence: str
) -> None:
    stance = stance_toward(claim, [evidence])
    assert stance is not None and stance.relation is StanceRelation.SUPPORTS


def test_a_yes_may_rest_on_a_sentence_split_in_two() -> None:
    # A PDF line break split the sentence; together the pieces state every number.
    first, second = "An average of 5.05 +/-", "1.50 X 10(8) HPBM were recovered."
    stance = stance_toward(f"{first} {second}", [first, second])
    assert stance is not None and stance.relation is StanceRelation.SUPPORTS


def test_a_no_said_in_a_clause_about_another_subject_is_no_no() -> None:
    sentence = "Ribavirin alone did not clear hepatitis C, but ribavirin plus interferon did."
    stance = stance_toward("Ribavirin plus interferon clears hepatitis C.", [sentence])
    assert stance is not None and stance.relation is StanceRelation.NEITHER
    assert stance.overstated is not None and stance.overstated.value == "other-clause"
    alone = stance_toward("Ribavirin alone clears hepatitis C.", [sentence])
    assert alone is not None and alone.relation is StanceRelation.CONTRADICTS


def test_a_no_hedged_in_the_sentence_alone_is_no_firm_no() -> None:
    stance = stance_toward(
        "Vitamin E prevents cataracts.", ["Vitamin E may not prevent cataracts."]
    )
    assert stance is not None and stance.relation is StanceRelation.NEITHER
    assert stance.overstated is not None and stance.overstated.value == "hedge"
    firm = stance_toward("Vitamin E prevents cataracts.", ["Vitamin E did not prevent cataracts."])
    assert firm is not None and firm.relation is StanceRelation.CONTRADICTS

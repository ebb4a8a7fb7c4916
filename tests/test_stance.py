import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from engine import Typer
from engine.core.stance import ContradictionCue
from engine.review.alignment import denial
from engine.review.calibration import Calibration
from engine.review.offline_stance import OfflineTyper, model, offline_stance
from engine.review.relations import Relation
from engine.review.sentence_reading import passage, sentences_of
from engine.review.typers import make_typer

FIXTURE = Path(__file__).parent / "fixtures" / "stance_scifact.jsonl"
STATINS = (
    "Statin therapy and cardiovascular outcomes in older adults.\n\n"
    "We followed 4,000 patients for five years. Statin therapy reduced the incidence of major "
    "cardiovascular events by 25% compared with placebo. Adverse events were rare."
)
VITAMIN_D_NULL = (
    "Vitamin D trial.\n\nVitamin D supplementation did not affect bone density in "
    "postmenopausal women. Calcium levels rose."
)
VITAMIN_D_EFFECT = (
    "Vitamin D trial.\n\nVitamin D supplementation increased bone density in postmenopausal "
    "women. Calcium levels rose."
)
ONLY_ELDERLY = (
    "Statins in the elderly.\n\nStatin therapy reduced the incidence of major cardiovascular "
    "events only in patients older than 75 years."
)
REDUCES = "Statin therapy reduces the incidence of major cardiovascular events."


@pytest.fixture(scope="module")
def typer() -> Typer:
    return make_typer("offline")


@pytest.mark.parametrize(
    ("practice", "canon", "expected", "named"),
    [
        ("Statin therapy increases the incidence of major cardiovascular events.", STATINS,
         Relation.CONTRADICTS, '"reduced"'),
        ("Statin therapy does not reduce the incidence of major cardiovascular events.", STATINS,
         Relation.CONTRADICTS, "negates"),
        ("Vitamin D supplementation affects bone density in postmenopausal women.",
         VITAMIN_D_NULL, Relation.CONTRADICTS, "no effect"),
        ("Vitamin D supplementation does not affect bone density in postmenopausal women.",
         VITAMIN_D_EFFECT, Relation.CONTRADICTS, "an effect"),
        ("Statin therapy reduced the incidence of major cardiovascular events by 50%.", STATINS,
         Relation.TENSION, "25%"),
        (REDUCES, STATINS, Relation.SUPPORTS, '"reduced"'),
        ("Statin therapy reduced major cardiovascular events by about 25%.", STATINS,
         Relation.SUPPORTS, "agrees"),
        (REDUCES, ONLY_ELDERLY, Relation.EXTENDS, '"only"'),
        ("Our lab switched to a new pipetting protocol for buffers.", STATINS,
         Relation.UNRELATED, "shares only"),
    ],
    ids=[
        "direction-flip",
        "negation",
        "no-effect-against-affects",
        "effect-against-does-not-affect",
        "number-disagrees",
        "same-direction",
        "same-number-roughly",
        "added-population",
        "unrelated-text",
    ],
)  # fmt: skip
def test_decision_table(
    typer: Typer, practice: str, canon: str, expected: Relation, named: str
) -> None:
    typing = typer(practice, canon)
    assert typing.relation is expected
    assert named in typing.rationale
    assert typing.evidence in canon
    assert 0.0 <= typing.confidence <= 1.0


def test_a_hedge_lowers_confidence_without_changing_the_relation(typer: Typer) -> None:
    plain = typer(REDUCES, STATINS)
    hedged = typer(REDUCES.replace("reduces", "may reduce"), STATINS)
    assert hedged.relation is plain.relation is Relation.SUPPORTS
    assert hedged.confidence < plain.confidence
    assert '"may"' in hedged.rationale


def test_typing_is_deterministic() -> None:
    first = OfflineTyper()(REDUCES, STATINS)
    passage.cache_clear()
    sentences_of.cache_clear()
    assert OfflineTyper()(REDUCES, STATINS) == first


@pytest.mark.parametrize(
    ("practice", "canon"),
    [("", STATINS), ("the of and", STATINS), (REDUCES, ""), (REDUCES, "   \n\n ")],
    ids=["empty-practice", "stop-words-only", "empty-note", "blank-note"],
)
def test_nothing_to_align_is_unrelated(typer: Typer, practice: str, canon: str) -> None:
    typing = typer(practice, canon)
    assert typing.relation is Relation.UNRELATED
    assert typing.confidence == 0.0


def test_stance_is_directional_and_reads_the_best_aligned_sentence() -> None:
    flipped = "Statin therapy increases the incidence of major cardiovascular events."
    assert offline_stance(flipped, STATINS) > 0.8
    assert offline_stance(REDUCES, STATINS) < 0.2
    assert offline_stance("", STATINS) == 0.0


SHRINKING = "Satellite records show Arctic sea ice shrinking since 1979."


@pytest.mark.parametrize(
    ("claim", "sentence", "denied"),
    [
        ("Arctic sea ice is not shrinking.", SHRINKING, True),
        ("Melting ice isn't warming the Arctic.",
         "The effects of warming in the Arctic include melting of sea ice.", True),
        ("Arctic sea ice is shrinking.", SHRINKING, False),
        ("Arctic sea ice is not shrinking.", "Arctic sea ice is not shrinking, records show.",
         False),
        ("Arctic sea ice is not shrinking.", "Ocean heat content rose in the tropics.", False),
        ("We had no warming during the Industrial Revolution.",
         "There was little net warming during the Industrial Revolution.", False),
        ("The Sun is not driving global warming.", '"Is the Sun driving global warming?".',
         False),
        ("There has been no increase in the frequency of coastal floods.",
         "Small storms can lead to an increase in the frequency of coastal floods.", False),
        ("Warming is not making river floods worse.",
         "Warming has the potential to make river floods worse.", False),
        ("Wind farms cannot supply baseload power.",
         "Wind farms can supply baseload power through the night.", True),
    ],
    ids=["claim-denies", "claim-denies-cause", "both-state", "both-deny", "unaligned",
         "other-says-little", "other-asks-in-quotes", "other-says-can", "other-says-potential",
         "denies-what-can-be"],
)  # fmt: skip
def test_a_denial_of_an_aligned_statement_contradicts_in_both_directions(
    typer: Typer, claim: str, sentence: str, denied: bool
) -> None:
    rarity = model().rarity
    a, b = passage(claim), passage(sentence)
    assert denial(a, b, rarity) == denial(b, a, rarity)
    assert (denial(a, b, rarity) >= 0.7) is denied
    if denied:
        assert min(offline_stance(claim, sentence), offline_stance(sentence, claim)) > 0.5
        typing = typer(claim, sentence)
        assert typing.relation is Relation.CONTRADICTS
        assert typing.cue is ContradictionCue.NEGATION


@pytest.mark.parametrize(
    ("claim", "sentence"),
    [
        ("There has been no rise in ocean acidity over the last century.",
         "Seawater absorbed carbon dioxide, raising ocean acidity over the last century."),
        ("Ocean acidity has not risen over the last century.",
         "Ocean acidity rose over the last century as seawater absorbed carbon dioxide."),
    ],
    ids=["denial-well-aligned", "denial-less-aligned"],
)  # fmt: skip
def test_a_denial_in_a_band_right_too_rarely_stays_a_possible_tension(
    typer: Typer, claim: str, sentence: str
) -> None:
    calibration = model().calibration
    typing = typer(claim, sentence)
    assert calibration is not None
    band = calibration.band(typing.confidence)
    assert band is not None and not band.contradicts
    assert typing.relation is Relation.TENSION
    assert typing.cue is ContradictionCue.NEGATION
    assert f"about {band.in_ten} in 10 at this confidence were right" in typing.rationale


@pytest.mark.parametrize(
    ("precision", "relation"),
    [(0.85, Relation.CONTRADICTS), (0.70, Relation.CONTRADICTS), (0.69, Relation.TENSION)],
    ids=["well-above", "at-the-bar", "just-below"],
)
def test_only_a_band_measured_right_seven_times_in_ten_is_called_contradicts(
    precision: float, relation: Relation
) -> None:
    shipped = model()
    assert shipped.calibration is not None
    bands = tuple(replace(b, precision=precision) for b in shipped.calibration.bands)
    banded = OfflineTyper(replace(shipped, calibration=replace(shipped.calibration, bands=bands)))
    typing = banded(
        "Statins increased the incidence of major cardiovascular events.",
        "Statin therapy reduced the incidence of major cardiovascular events by 25%.",
    )
    assert typing.relation is relation


def test_a_calibration_family_survives_its_json_form() -> None:
    calibration = model().calibration
    assert calibration is not None
    again = Calibration.from_json(calibration.to_json())
    assert again.families == calibration.families and again.families
    plain = replace(calibration, families=())
    assert plain is not None
    assert "families" not in plain.to_json()
    assert Calibration.from_json(plain.to_json()).families == ()


def test_a_contradiction_without_a_named_cue_is_refused(typer: Typer) -> None:
    # With the bar at zero every candidate passes the calibration; the cue still decides.
    shipped = model()
    assert shipped.calibration is not None
    permissive = OfflineTyper(
        replace(shipped, calibration=replace(shipped.calibration, threshold=0.0))
    )
    cued = permissive("Arctic sea ice is not shrinking.", SHRINKING)
    plain = permissive(
        "Sympathetic nerve activity is elevated throughout normal pregnancy.",
        "Muscle sympathetic nerve activity is increased during normotensive pregnancy while "
        "mean arterial pressure is maintained or reduced, suggesting baroreflex resetting.",
    )
    assert cued.relation is Relation.CONTRADICTS
    assert plain.relation is not Relation.CONTRADICTS
    assert "no specific cue" in plain.rationale


@pytest.mark.parametrize(
    ("text", "negated", "direction"),
    [
        ("Aspirin does not reduce pain.", {"reduc"}, [("reduce", -1, True)]),
        ("Aspirin not only reduces pain.", set(), [("reduces", -1, False)]),
        ("Aspirin, but not placebo, reduces pain.", set(), [("reduces", -1, False)]),
        ("Diet-induced obesity raises risk.", set(), [("raises", 1, False)]),
        ("An HDAC inhibitor increases survival.", set(), [("increases", 1, False)]),
    ],
    ids=["negated-verb", "not-only", "but-not", "hyphen-modifier", "agent-noun"],
)
def test_reading_negation_scope_and_direction_words(
    text: str, negated: set[str], direction: list[tuple[str, int, bool]]
) -> None:
    read = passage(text)
    assert set(read.negated) >= negated and (negated or not read.negated)
    cues = [(c.word, c.sign, c.negated) for c in read.cues if c.axis == "quantity"]
    assert cues == direction


def test_a_title_line_is_its_own_sentence() -> None:
    assert sentences_of("A title without a stop\nThe body starts here. It goes on.") == (
        "A title without a stop",
        "The body starts here.",
        "It goes on.",
    )


def scifact_pairs() -> list[dict[str, Any]]:
    return [json.loads(line) for line in FIXTURE.read_text("utf-8").splitlines()]


def test_real_scifact_pairs_are_typed_mostly_right(typer: Typer) -> None:
    # 18 held-half pairs, six per gold label, sampled by position rather than chosen.
    as_gold = {"supports": "supports", "contradicts": "contradicts"}
    typed = [(p["gold"], as_gold.get(str(typer(p["claim"], p["canon"]).relation), "none"))
             for p in scifact_pairs()]  # fmt: skip
    # 9, not 10: "patients receiving methadone" no longer supports "required patients to
    # discontinue methadone" (a word swapped in the same slot is never a support), though
    # SciFact labels the abstract as a whole SUPPORT.
    assert sum(gold == got for gold, got in typed) >= 9
    # Precision first: the calibrated gate flags few contradictions, and none of them wrong
    # here (its recall is measured over whole splits by lab.tune_stance).
    assert sum(got == "contradicts" for gold, got in typed if gold != "contradicts") == 0


def test_the_shipped_model_names_its_features_and_thresholds() -> None:
    shipped = model()
    assert shipped.weights.shape == (3, len(shipped.features))
    assert set(shipped.thresholds) == {"contradicts", "supports", "related", "floor"}

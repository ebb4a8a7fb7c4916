"""Offline stance: type how a practice claim relates to a canon note; the gate's classifier.

The typer reads the claim and each sentence of the note (`engine.review.sentence_reading`),
compares them (`engine.review.alignment`), and a small logistic model trained on the SciFact
train split turns the comparison into probabilities of support, contradiction or neither. The
weights, the word rarities and the decision thresholds live in `engine/data/stance_model.json`;
`python -m lab.train_stance` rebuilds that file and
`python -m lab.tune_stance` reports how well it does.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from engine.core.stance import ContradictionCue
from engine.reading.rarity import IdfTable
from engine.review.alignment import (
    agreement_cue,
    contradiction_cue,
    denial,
    overlap,
    pair_features,
    restrictions,
    swapped,
)
from engine.review.calibration import Calibration, Evidence
from engine.review.relations import Relation, Typing
from engine.review.sentence_reading import Passage, passage, sentences_of
from engine.text.said_of import moved_alike

MODEL_PATH = Path(__file__).parent / "data" / "stance_model.json"
CLASSES = ("supports", "contradicts", "none")
_SHORTLIST = 4  # sentences scored by the model per note, best aligned first
_AGAINST = 2  # of those, how many may carry a contradiction
_HEDGE_DISCOUNT = 0.8
_NUMBER_ALIGNED = 0.6  # alignment above which a differing number alone contradicts
_DENIAL_ALIGNED = 0.7  # coverage of a denied statement above which the denial contradicts
# Share of a stated proposition the other text repeats under a negation, above which the two
# say opposite things of the same proposition: never `supports`, at least a possible tension.
_STATED_DENIED = 0.8
# Rarity-weighted share of the claim a sentence must restate for an explicit cue alone (a
# direction flip or another number) to make the pair a contradiction candidate.
_ALIGNED_FOR_CUE = 0.6


@dataclass(frozen=True)
class StanceModel:
    """Multinomial logistic weights over named alignment features, with rarities and thresholds."""

    features: tuple[str, ...]
    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray  # one row per class in CLASSES
    bias: np.ndarray
    rarity: IdfTable
    thresholds: dict[str, float]
    calibration: Calibration | None = None

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> StanceModel:
        """Build from the JSON form; the trainer builds one with rarities only, then fits it."""
        return cls(
            features=tuple(raw.get("features", ())),
            mean=np.asarray(raw.get("mean", ()), dtype=float),
            scale=np.asarray(raw.get("scale", ()), dtype=float),
            weights=np.asarray(raw.get("weights", ()), dtype=float),
            bias=np.asarray(raw.get("bias", ()), dtype=float),
            rarity=IdfTable(raw["idf"], float(raw["default_idf"])),
            thresholds=dict(raw.get("thresholds", {})),
            calibration=Calibration.from_json(raw["calibration"]) if "calibration" in raw else None,
        )

    def probabilities(self, features: dict[str, float]) -> np.ndarray:
        """Probabilities of supports, contradicts and none for one feature dict.

        A well-aligned sentence that gives the same quantity a different number, or that
        states what the other text denies (`alignment.denial`), contradicts however the
        weights read it: SciFact has too few such pairs to teach the model that.
        """
        x = (np.array([features[name] for name in self.features]) - self.mean) / self.scale
        z = self.weights @ x + self.bias
        z = np.exp(z - z.max())
        p: np.ndarray = z / z.sum()
        aligned = max(features["cov_c"], features["cov_s"])
        clash = 0.0
        if features["num_conflict"] and not features["num_match"] and aligned >= _NUMBER_ALIGNED:
            clash = 0.5 + 0.4 * aligned
        if features.get("denial", 0.0) >= _DENIAL_ALIGNED:
            # The weights read "X isn't rising" against "rising X" as agreement, since the
            # words match; SciFact has too few such pairs to teach them otherwise.
            clash = max(clash, 0.5 + 0.4 * features["denial"])
        if clash > p[1]:
            rest = p[[0, 2]] / max(p[0] + p[2], 1e-12) * (1.0 - clash)
            p = np.array([rest[0], clash, rest[1]])
        return p


@lru_cache(maxsize=1)
def _shipped() -> StanceModel:
    return StanceModel.from_json(json.loads(MODEL_PATH.read_text(encoding="utf-8")))


def model() -> StanceModel:
    """The model shipped in the repo; a trainer or a test passes its own model instead."""
    return _shipped()


@dataclass(frozen=True, slots=True)
class Scored:
    """One canon sentence scored against a claim."""

    sentence: Passage
    overlap: float
    features: dict[str, float]
    supports: float
    contradicts: float


def score(practice: str, canon: str, m: StanceModel | None = None) -> tuple[Scored, ...]:
    """The note's best-aligned sentences scored against the practice, best aligned first."""
    m = m or model()
    claim = passage(practice)
    pool = [passage(s) for s in sentences_of(canon)] or [passage(canon)]
    ranked = sorted(pool, key=lambda s: -overlap(claim, s, m.rarity))[:_SHORTLIST]
    out = []
    for sentence in ranked:
        features = pair_features(claim, sentence, m.rarity)
        p = m.probabilities(features)
        out.append(Scored(sentence, features["cov_c"], features, float(p[0]), float(p[1])))
    return tuple(out)


def best_sentence(practice: str, canon: str) -> str:
    """The canon sentence that shares the most of the practice's content, verbatim."""
    return _best(passage(practice), canon, model().rarity).text


def _best(claim: Passage, text: str, rarity: IdfTable) -> Passage:
    pool = [passage(s) for s in sentences_of(text)] or [passage(text)]
    return max(pool, key=lambda s: overlap(claim, s, rarity))


def offline_stance(a: str, b: str, m: StanceModel | None = None) -> float:
    """Probability that text `a` contradicts the sentence of `b` it aligns with best."""
    m = m or model()
    claim = passage(a)
    sentence = _best(claim, b, m.rarity)
    if not claim.content or not sentence.content:
        return 0.0
    return float(m.probabilities(pair_features(claim, sentence, m.rarity))[1])


def related(practice: str, evidence: str, m: StanceModel | None = None) -> bool:
    """Whether `evidence` shares enough of the practice's content to count as related."""
    m = m or model()
    claim = passage(practice)
    return overlap(claim, _best(claim, evidence, m.rarity), m.rarity) >= m.thresholds["related"]


def decide(
    claim: Passage, scored: tuple[Scored, ...], thresholds: dict[str, float]
) -> tuple[Relation, Scored]:
    """The relation the scores call for, and the sentence that carries it.

    Only the best-aligned sentences may contradict: a disagreement found further down an
    abstract is usually about something else.
    """
    top = scored[0]
    against = max(scored[:_AGAINST], key=lambda s: s.contradicts)
    backing = max(scored, key=lambda s: s.supports)
    if against.contradicts >= thresholds["contradicts"] and against.contradicts >= backing.supports:
        return Relation.CONTRADICTS, against
    if backing.supports >= thresholds["supports"]:
        if restrictions(claim, backing.sentence):
            return Relation.EXTENDS, backing
        return Relation.SUPPORTS, backing
    if top.overlap >= thresholds["related"]:
        return Relation.EXTENDS, top
    return Relation.UNRELATED, top


@dataclass(frozen=True)
class Candidate:
    """The likeliest contradiction of a note against a practice, as the calibration reads it."""

    against: Scored
    evidence: Evidence
    phrase: str


def contradiction_candidate(
    claim: Passage, practice: str, scored: tuple[Scored, ...], m: StanceModel | None = None
) -> Candidate:
    """The best-aligned sentence most against the practice, read in both directions."""
    m = m or model()
    against = max(scored[:_AGAINST], key=lambda s: s.contradicts)
    backing = max(scored, key=lambda s: s.supports)
    cue = contradiction_cue(claim, against.sentence, m.rarity)
    evidence = Evidence(
        forward=against.contradicts,
        backward=offline_stance(against.sentence.text, practice, m),
        supports=backing.supports,
        features=against.features,
        cue=cue.kind,
        hedged=bool(claim.hedges or against.sentence.hedges),
    )
    return Candidate(against, evidence, cue.words())


class OfflineTyper:
    """The deterministic typer: the trained model over the claim's best-aligned sentences.

    With a calibration in the model, a contradiction stands only when its calibrated
    probability of being right reaches the calibration's threshold and a named cue (a
    number, a direction, a negation or a null result) says what disagrees; its confidence
    is that probability. A calibration family (a denial of an aligned statement) may admit
    one the probability refuses, at the family's rate. A refused one is shown as related
    (`extends`) with what was refused.
    """

    name = "offline"

    def __init__(self, model: StanceModel | None = None) -> None:
        self.model = model  # None: the shipped model, read when first needed

    def __call__(self, practice: str, canon: str) -> Typing:
        claim = passage(practice)
        if not claim.content:
            return Typing.unrelated("The practice text has no content words to align.")
        m = self.model or model()
        scored = score(practice, canon, m)
        if not scored[0].sentence.content:
            return Typing.unrelated("The note has no sentence to align the practice with.")
        refused = ""
        if m.calibration is not None:
            candidate = contradiction_candidate(claim, practice, scored, m)
            calibrated = (
                m.calibration.probability(candidate.evidence)
                if m.calibration.is_candidate(candidate.evidence)
                else 0.0
            )
            cued = candidate.evidence.cue is not ContradictionCue.NONE
            if calibrated >= m.calibration.threshold and cued:
                return _contradiction(candidate, calibrated, m.calibration)
            family = m.calibration.family(candidate.evidence)
            if family is not None:
                return _contradiction(candidate, family.rate, m.calibration, family=family.name)
            if calibrated > 0.0 and not cued:
                refused = (
                    " A contradiction was considered and refused: no specific cue "
                    f"(calibrated {calibrated:.2f})."
                )
            elif calibrated > 0.0:
                refused = (
                    f" A contradiction ({candidate.evidence.cue.label}) was considered and "
                    f"refused: calibrated {calibrated:.2f}, below {m.calibration.threshold:.2f}."
                )
        relation, chosen = decide(claim, scored, m.thresholds)
        if relation not in (Relation.CONTRADICTS, Relation.TENSION):
            opposite = _opposite(claim, scored, m)
            if opposite is not None:
                return opposite
        if relation is Relation.CONTRADICTS and m.calibration is not None:
            # The calibration refused it: a reviewer may still see the pair as related,
            # with confidence in the relatedness (the share of the claim it covers).
            if chosen.overlap < m.thresholds["related"]:
                return _typing(claim, Relation.UNRELATED, chosen, refused, m.rarity)
            typing = _typing(claim, Relation.EXTENDS, chosen, refused, m.rarity)
            return replace(typing, confidence=round(chosen.overlap, 4))
        if relation is Relation.SUPPORTS and _direction_unsaid(claim, chosen.sentence, m.rarity):
            # The claim says which way something goes and the sentence never says it: related,
            # not a support ("we reviewed studies of X and Y" against "X increases Y").
            relation = Relation.EXTENDS
        if relation is Relation.SUPPORTS and swapped(claim, chosen.sentence) is not None:
            # The sentence says it of another thing ("machine effort" for "human effort").
            relation = Relation.EXTENDS
        return _typing(claim, relation, chosen, refused, m.rarity)


def _direction_unsaid(claim: Passage, sentence: Passage, rarity: IdfTable) -> bool:
    """Whether the claim has a direction word and the sentence says none of what it moves.

    A sentence with no direction on any axis of the claim's says none; one with a direction
    said of something else ("compliance to supplementation is lower" against
    "supplementation reduces fractures") says none either.
    """
    axes = {c.axis for c in claim.cues if c.axis != "presence"}
    if not axes:
        return False
    if not agreement_cue(claim, sentence, rarity) and not any(
        c.axis in axes for c in sentence.cues
    ):
        return True
    return moved_alike(claim.text, sentence.text) is False


def _opposite(claim: Passage, scored: tuple[Scored, ...], m: StanceModel) -> Typing | None:
    """A possible tension where a best-aligned sentence says the opposite of the claim.

    Two cases the model's weights read as agreement or as merely related, since the words
    match: one text negates what the other states, nearly word for word ("cannot be
    formulated as a clustering task" against "can be formulated as a clustering task"); or
    a sentence restating most of the claim gives the opposite direction word or another
    number. Either is a candidate for review, never support; its confidence is the measured
    rate of the denial family when the calibration has one.
    """
    for scored_one in scored[:_AGAINST]:
        sentence = scored_one.sentence
        cue = contradiction_cue(claim, sentence, m.rarity)
        stated = denial(claim, sentence, m.rarity, of_stated=True) >= _STATED_DENIED
        explicit = cue.explicit and overlap(claim, sentence, m.rarity) >= _ALIGNED_FOR_CUE
        if not cue or not (stated or explicit):
            continue
        family = next((f for f in (m.calibration.families if m.calibration else ())), None)
        confidence = family.rate if family is not None else max(0.5, scored_one.contradicts)
        why = cue.words() or "says the opposite of the claim"
        text = (
            f"Possible tension: it {why} ({cue.kind.label}; the same proposition, "
            f'one side negated or reversed): "{_clip(sentence.text)}"'
        )
        return Typing(Relation.TENSION, round(confidence, 4), text, sentence.text, cue.kind)
    return None


def _contradiction(
    candidate: Candidate, calibrated: float, calibration: Calibration, *, family: str = ""
) -> Typing:
    """A contradiction, or a possible tension when its band was right too rarely out of fold."""
    sentence = candidate.against.sentence
    cue = candidate.evidence.cue
    why = candidate.phrase or "disagrees with the claim"
    basis = (
        f"{family} family, right {calibrated:.0%} of the time on train folds"
        if family
        else f"calibrated {calibrated:.2f}"
    )
    band = calibration.band(calibrated)
    relation = Relation.CONTRADICTS
    if band is not None:
        basis += f"; {band.phrase()}"
        if not band.contradicts:
            relation = Relation.TENSION
    elif calibration.bands:
        relation = Relation.TENSION  # below every measured band: never called a contradiction
    lead = "The aligned sentence" if relation is Relation.CONTRADICTS else "Possible tension: it"
    text = f'{lead} {why} ({cue.label}; {basis}): "{_clip(sentence.text)}"'
    return Typing(relation, round(calibrated, 4), text, sentence.text, cue)


def _typing(
    claim: Passage, relation: Relation, chosen: Scored, refused: str, rarity: IdfTable
) -> Typing:
    quoted = _clip(chosen.sentence.text)
    shared = f"{chosen.overlap:.0%} of the claim's weighted content words"
    if relation is Relation.UNRELATED:
        text = f'The closest sentence shares only {shared}: "{quoted}"'
        return Typing.unrelated(text + refused, chosen.sentence.text)
    cue = ContradictionCue.NONE
    if relation is Relation.CONTRADICTS:
        found = contradiction_cue(claim, chosen.sentence, rarity)
        cue, why = found.kind, found.words()
        text = f'The aligned sentence {why or "disagrees with the claim"}: "{quoted}"'
        confidence = chosen.contradicts
    elif relation is Relation.SUPPORTS:
        why = agreement_cue(claim, chosen.sentence, rarity).words() or f"shares {shared}"
        text = f'The aligned sentence agrees with the claim; it {why}: "{quoted}"'
        confidence = chosen.supports
    else:
        narrowing = restrictions(claim, chosen.sentence)
        why = (
            f'narrows it with "{narrowing[0]}"'
            if narrowing
            else f"shares {shared} but neither confirms nor denies it"
        )
        text = f'The aligned sentence is related to the claim and {why}: "{quoted}"'
        confidence = chosen.overlap * (1.0 - chosen.contradicts)
    hedges = claim.hedges + chosen.sentence.hedges
    if hedges:
        # A hedged statement asserts less, so the same alignment deserves less trust.
        confidence *= _HEDGE_DISCOUNT
        text += f' (hedged by "{hedges[0]}", so confidence is lowered)'
    text += refused
    return Typing(relation, round(min(1.0, confidence), 4), text, chosen.sentence.text, cue)


def _clip(text: str, limit: int = 160) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"

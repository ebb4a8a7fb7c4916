"""How verbatim evidence sentences stand toward a stated claim, on explicit cues only.

Precision first: `contradicts` or `supports` only on a cue a reader can check (opposite or
shared direction words, a changed or repeated number, a negation, a null result), otherwise
`neither`. It never changes a verdict; the answer shows it beside the router's.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.core.stance import NO_CUE, Cue, Stance, StanceRelation
from engine.review.alignment import agreement_cue, contradiction_cue, overlap
from engine.review.measured import measured
from engine.review.passages import passage
from engine.review.relations import Relation, Typing
from engine.review.stance import OfflineTyper, StanceModel
from engine.review.stance import model as shipped_model

# Rarity-weighted share of the claim a sentence must restate for a direction flip alone to
# contradict (SciFact train; on Climate-FEVER it keeps the flip from firing on loose matches).
_ALIGNED_FOR_CUE = 0.6


def stance_toward(
    claim_text: str, evidence: Iterable[str], model: StanceModel | None = None
) -> Stance | None:
    """The stance of verbatim evidence sentences toward a claim; None without evidence.

    Contradiction wins over support, support over neither; within a relation, the most
    confident sentence decides.
    """
    evidence = [s for s in evidence if s.strip()]
    if not evidence:
        return None
    typer = OfflineTyper(model)
    rarity = (model or shipped_model()).rarity
    claim = passage(claim_text)
    found: list[Stance] = []
    for sentence in evidence:
        typing = typer(claim_text, sentence)
        said = passage(typing.evidence or sentence)
        cue = contradiction_cue(claim, said, rarity)
        # Opposite direction words over the same things, or a changed number, in a sentence
        # that says most of what the claim says, is an explicit cue even when the model's
        # probabilities stay below its contradiction threshold.
        explicit = cue.explicit and overlap(claim, said, rarity) >= _ALIGNED_FOR_CUE
        against = typing.relation is Relation.CONTRADICTS or (
            explicit and typing.relation is not Relation.SUPPORTS
        )
        if cue and against:
            found.append(_stance(StanceRelation.CONTRADICTS, cue, typing, sentence))
            continue
        if typing.relation is Relation.SUPPORTS:
            cue = agreement_cue(claim, said, rarity)
            if cue:
                found.append(_stance(StanceRelation.SUPPORTS, cue, typing, sentence))
                continue
        found.append(Stance(StanceRelation.NEITHER, NO_CUE, 0.0, sentence))
    order = (StanceRelation.CONTRADICTS, StanceRelation.SUPPORTS, StanceRelation.NEITHER)
    return min(found, key=lambda s: (order.index(s.relation), -s.confidence))


def _stance(relation: StanceRelation, cue: Cue, typing: Typing, sentence: str) -> Stance:
    said = ""
    if relation is StanceRelation.CONTRADICTS:
        said = measured(typing.relation, typing.confidence) or (
            "a cue in the words, not a calibrated contradiction: its precision is not measured"
        )
    tension = relation is StanceRelation.CONTRADICTS and typing.relation is Relation.TENSION
    return Stance(relation, cue, float(typing.confidence), sentence, said, tension)

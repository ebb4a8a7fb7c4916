"""How verbatim evidence sentences stand toward a stated claim, on explicit cues only.

The stance of a pair is the overlay typer's relation for it (`pair_stance`), so the answer
and the claim matrix never disagree on the same pair: a contradiction or possible tension is
`contradicts`, a support `supports`, anything else `neither`; the cue names what a reader
can check. It never changes a verdict; the answer shows it beside the router's.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from itertools import pairwise

from engine.core.stance import NO_CUE, Cue, CueShape, Overstated, Stance, StanceRelation
from engine.review.alignment import agreement_cue, contradiction_cue
from engine.review.band_precision import measured
from engine.review.next_withdrawal import withdrawn_after
from engine.review.no_rules import overstated_no
from engine.review.offline_stance import OfflineTyper, StanceModel
from engine.review.offline_stance import model as shipped_model
from engine.review.relations import Relation, Typing
from engine.review.sentence_reading import passage
from engine.review.yes_rules import overstates
from engine.text.lexicon import link_strength
from engine.text.sentences import sentence_texts
from engine.text.stems import mention_stem, mentions

# The stance a typed relation gives: the matrix's relation and the answer's stance on the same
# pair are one reading. A possible tension is a contradiction candidate (flagged `tension`).
STANCE_OF = {
    Relation.CONTRADICTS: StanceRelation.CONTRADICTS,
    Relation.TENSION: StanceRelation.CONTRADICTS,
    Relation.SUPPORTS: StanceRelation.SUPPORTS,
}


def pair_stance(claim_text: str, text: str, model: StanceModel | None = None) -> Stance:
    """The stance of `text` toward a claim: the overlay typer's relation for the same pair.

    The claim matrix types (practice, canon) with `OfflineTyper`; this reads the same typing
    as a stance, so a pair the matrix calls a contradiction is never "neither" beside an
    answer, and a pair it calls supporting is never a contradiction there.
    """
    typing = OfflineTyper(model)(claim_text, text)
    relation = STANCE_OF.get(typing.relation, StanceRelation.NEITHER)
    if relation is StanceRelation.NEITHER:
        return Stance(relation, NO_CUE, 0.0, typing.evidence or text)
    rarity = (model or shipped_model()).rarity
    claim, said = passage(claim_text), passage(typing.evidence or text)
    if relation is StanceRelation.CONTRADICTS:
        cue = contradiction_cue(claim, said, rarity)
    else:
        cue = agreement_cue(claim, said, rarity)
    return _stance(relation, cue, typing, typing.evidence or text)


def stance_toward(
    claim_text: str,
    evidence: Iterable[str],
    model: StanceModel | None = None,
    *,
    after: Mapping[str, str] | None = None,
) -> Stance | None:
    """The stance of verbatim evidence sentences toward a claim; None without evidence.

    Each sentence is read by `pair_stance`. Contradiction wins over support, support over
    neither; within a relation, the most confident sentence decides, and among contradictions
    the most confident firm one. A support whose claim says more than the evidence
    (`overstates`) is read as neither, and so is a contradiction that no sentence makes a
    firm no (`overstated_no`: read off a clause about something else, or hedged there
    alone). `after` maps an evidence sentence to the sentence after it in its source:
    a support that sentence takes back (`withdrawn_after`) is read as neither too.
    """
    evidence = [s for s in evidence if s.strip()]
    if not evidence:
        return None
    found = [pair_stance(claim_text, sentence, model) for sentence in evidence]
    order = (StanceRelation.CONTRADICTS, StanceRelation.SUPPORTS, StanceRelation.NEITHER)
    found.sort(key=lambda s: (order.index(s.relation), -s.confidence))
    # A firm no from any sentence stands: the most confident whose no no rule withholds;
    # where none is firm, the most confident is read as neither, naming its rule.
    withheld: tuple[Stance, Overstated] | None = None
    for reading in found:
        if reading.relation is not StanceRelation.CONTRADICTS:
            break
        rule = overstated_no(claim_text, reading.evidence)
        if rule is None:
            return reading
        withheld = withheld or (reading, rule)
    if withheld is not None:
        return Stance(
            StanceRelation.NEITHER,
            NO_CUE,
            0.0,
            withheld[0].evidence,
            overstated=withheld[1],
            withheld_no=True,
        )
    best = found[0]
    if best.relation is StanceRelation.SUPPORTS:
        broken = overstates(claim_text, evidence)
        if broken is None and _taken_back_after(evidence, after or {}):
            broken = Overstated.NEXT_SENTENCE
        if broken is not None:
            return Stance(StanceRelation.NEITHER, NO_CUE, 0.0, best.evidence, overstated=broken)
    return best


def _taken_back_after(evidence: list[str], after: Mapping[str, str]) -> bool:
    """Whether the sentence after an evidence sentence in its source takes it back, or a
    sentence of a quote that holds two takes back the one before it."""
    if any(withdrawn_after(s, after[s]) for s in evidence if s in after):
        return True
    return any(withdrawn_after(*pair) for s in evidence for pair in pairwise(sentence_texts(s)))


def read_by(stance: Stance, words: Iterable[str]) -> tuple[str, ...]:
    """The question's relation words (as typed) that `stance` reads as a yes or a no.

    A word the stance's cue is on is read ("reduce" against "fewer"); a link word
    ("associated") is read where the text agrees with the question on a direction, since a
    shared direction states the link ("users had fewer fractures" for "associated with
    reduced fractures"). A `neither` stance reads none.
    """
    if stance.relation is StanceRelation.NEITHER:
        return ()
    cue = stance.cue
    agrees = stance.relation is StanceRelation.SUPPORTS and cue.shape is CueShape.AGREEMENT
    out = []
    for word in words:
        low = word.lower()
        on_cue = bool(cue.mine) and mentions(mention_stem(low), {mention_stem(cue.mine.lower())})
        if on_cue or (agrees and link_strength(low) is not None):
            out.append(word)
    return tuple(out)


def _stance(relation: StanceRelation, cue: Cue, typing: Typing, sentence: str) -> Stance:
    said = ""
    if relation is StanceRelation.CONTRADICTS:
        said = measured(typing.relation, typing.confidence) or (
            "a cue in the words, not a calibrated contradiction: its precision is not measured"
        )
    tension = relation is StanceRelation.CONTRADICTS and typing.relation is Relation.TENSION
    return Stance(relation, cue, float(typing.confidence), sentence, said, tension)

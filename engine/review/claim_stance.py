"""How verbatim evidence sentences stand toward a stated claim, on explicit cues only.

The stance of a pair is the overlay typer's relation for it (`pair_stance`), so the answer
and the claim matrix never disagree on the same pair: a contradiction or possible tension is
`contradicts`, a support `supports`, anything else `neither`; the cue names what a reader
can check. It never changes a verdict; the answer shows it beside the router's.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from itertools import pairwise

from engine.core.licensing import find_run
from engine.core.stance import NO_CUE, Cue, CueShape, Stance, StanceRelation
from engine.review.alignment import agreement_cue, contradiction_cue
from engine.review.band_precision import measured
from engine.review.offline_stance import OfflineTyper, StanceModel
from engine.review.offline_stance import model as shipped_model
from engine.review.relations import Relation, Typing
from engine.review.sentence_reading import passage
from engine.text.lexicon import CONDITION_WORDS, NEGATIONS, STOP_WORDS, cue_of, link_strength
from engine.text.stems import mention_stem, mentions
from engine.text.tokens import word_sequence

# The prefix that negates a word ("nonadhesive"), or stands alone where a hyphen was.
_NON = "non"
# Words that set one thing against another: what follows each is the other side.
_COMPARING = frozenset({"than", "versus", "vs"})
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
    claim_text: str, evidence: Iterable[str], model: StanceModel | None = None
) -> Stance | None:
    """The stance of verbatim evidence sentences toward a claim; None without evidence.

    Each sentence is read by `pair_stance`. Contradiction wins over support, support over
    neither; within a relation, the most confident sentence decides.
    """
    evidence = [s for s in evidence if s.strip()]
    if not evidence:
        return None
    found = [pair_stance(claim_text, sentence, model) for sentence in evidence]
    order = (StanceRelation.CONTRADICTS, StanceRelation.SUPPORTS, StanceRelation.NEITHER)
    best = min(found, key=lambda s: (order.index(s.relation), -s.confidence))
    joined = " ".join(evidence)
    if best.relation is StanceRelation.SUPPORTS and (
        _exact(claim_text) - _exact(joined)
        or any(_unmarked(claim_text, sentence) for sentence in evidence)
        or _negations(claim_text) - _negations(joined)
        or any(_dropped(claim_text, sentence) for sentence in [*evidence, joined])
        or _directions(claim_text) - _directions(joined)
        or _sides_moved(claim_text, joined)
        or _reordered(claim_text, evidence)
    ):
        # A yes needs every number, sign and mark the claim states to stand in the evidence
        # ("10(-8)" is not "10(8)", however alike the rest reads), no mark of the evidence
        # dropped ("Li" is not "Li+"), no negation the evidence lacks, and none of the
        # evidence's negations or conditions cut out of its words ("free PBS EDTA" is not
        # "PBS without EDTA"; "We saw no protection" is not "… no protection if …"), every
        # direction the claim states stated as often ("impaired infiltration" is not the
        # "enhanced infiltration" beside an "increase"), and what a comparison sets against
        # what kept on its side ("in men than in women" is not "in women than in men"), and
        # a claim made of the evidence's own words in their order ("cells increase FM1-43
        # uptake" is not "FM1-43 increases cells uptake").
        return Stance(StanceRelation.NEITHER, NO_CUE, 0.0, best.evidence)
    return best


def _unmarked(claim_text: str, sentence: str) -> bool:
    """Whether the claim names bare a word the sentence marks with a sign ("Li" for "Li+")
    or negates with a prefix ("adhesive" for "nonadhesive")."""
    claim = set(word_sequence(claim_text))
    for token in word_sequence(sentence):
        if token in claim:
            continue
        if token[-1] in "+-" and token[:-1] in claim:
            return True
        if token.startswith(_NON) and token[len(_NON) :] in claim:
            return True
    return False


def _dropped(claim_text: str, sentence: str) -> bool:
    """Whether the claim is the sentence's words with a negation or a condition cut out:
    the words on either side of a negation stand side by side in the claim, or the claim
    runs unbroken in the sentence while a condition word stands outside it."""
    claim, said = word_sequence(claim_text), word_sequence(sentence)
    # Both ends marked, so a negation that opens or closes the sentence has two neighbours.
    pairs = set(pairwise(("\x02", *claim, "\x03")))
    ends = ("\x02", *said, "\x03")
    for at, token in enumerate(ends[1:-1], start=1):
        if _negates(token) and (ends[at - 1], ends[at + 1]) in pairs:
            return True
    run = find_run(claim, said) if claim else -1
    return run >= 0 and any(
        token in CONDITION_WORDS
        for at, token in enumerate(said)
        if not run <= at < run + len(claim)
    )


def _directions(text: str) -> Counter[tuple[str, int]]:
    """The directions a text states (axis and sign, `cue_of`), each as often as it says it."""
    words = word_sequence(text)
    found = (cue_of(word, after) for word, after in zip(words, (*words[1:], ""), strict=True))
    return Counter(cue for cue in found if cue is not None)


def _sides_moved(claim_text: str, evidence: str) -> bool:
    """Whether a comparison of the claim sets something else against what it compares: the
    words from each "than" or "versus" of the claim to its first content word are not a run
    of the evidence's words ("than in the lower brainstem" where the evidence has "than in
    the transentorhinal region")."""
    claim, said = word_sequence(claim_text), word_sequence(evidence)
    for at, token in enumerate(claim):
        if token not in _COMPARING:
            continue
        end = next((i for i in range(at + 1, len(claim)) if claim[i] not in STOP_WORDS), None)
        side = claim[at : (len(claim) if end is None else end + 1)]
        if find_run(side, said) < 0:
            return True
    return False


def _reordered(claim_text: str, evidence: list[str]) -> bool:
    """Whether the claim's content words all stand in an evidence sentence (or the sentences
    together) but in no such text in the claim's order: its words, moved around."""
    claim = _content(claim_text)
    if not claim:
        return False
    texts = [_content(text) for text in [*evidence, " ".join(evidence)]]
    holding = [said for said in texts if not Counter(claim) - Counter(said)]
    return bool(holding) and not any(_in_order(claim, said) for said in holding)


def _content(text: str) -> tuple[str, ...]:
    return tuple(token for token in word_sequence(text) if token not in STOP_WORDS)


def _in_order(words: tuple[str, ...], said: tuple[str, ...]) -> bool:
    """Whether `words` are a subsequence of `said`."""
    remaining = iter(said)
    return all(word in remaining for word in words)


def _negates(token: str) -> bool:
    # "non" stands alone where a hyphen was: "non-coding" reads ("non", "coding").
    return token in NEGATIONS or token == _NON


def _negations(text: str) -> Counter[str]:
    return Counter(token for token in word_sequence(text) if _negates(token))


def _exact(text: str) -> Counter[str]:
    """The claim's exact tokens: numbers, signs, symbols, marked words such as "hpbm-"."""
    return Counter(
        token
        for token in word_sequence(text)
        if not token.isalpha() and (not token.isalnum() or any(c.isdigit() for c in token))
    )


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

"""Compare a claim with a sentence: the figures the stance model reads, and the words behind them.

`pair_features` weighs the content words two passages share by rarity, pairs their
direction words over those shared words, and compares negation, null results and numbers;
`contradiction_cue` and `agreement_cue` name the words a verdict rests on.
"""

from __future__ import annotations

import functools
import math

from rapidfuzz import fuzz

from engine.core.stance import NO_CUE, CueShape
from engine.core.stance import Cue as StanceCue
from engine.reading.rarity import IdfTable as Rarity
from engine.review.sentence_reading import Cue, Passage
from engine.text.lexicon import MODALS, NEGATED_MODALS, RESTRICTING_WORDS, relation_word

_DENIED = 0.2  # share of a text's weighted content its negation must govern to deny it
# Words that say "hardly any": a text that puts one of these on what the other denies
# ("there was little net warming") agrees with the denial rather than stating its opposite.
_SCARCELY = frozenset(
    ("little", "few", "hardly", "barely", "scarcely", "rarely", "seldom", "negligible",
     "negligibly", "minimal")
)  # fmt: skip
_FIRM = 6.0  # anchored weight at which a pairing of direction words counts in full
_RESTRICTORS = frozenset(RESTRICTING_WORDS)
_ANTONYMS = (
    ("positiv", "negativ"), ("high", "low"), ("benign", "malignan"), ("presen", "absen"),
    ("central", "peripher"), ("agonis", "antagonis"), ("sensitiv", "resistan"),
    ("early", "late"), ("short", "long"), ("major", "minor"), ("inside", "outside"),
    ("above", "below"), ("majority", "minority"), ("acute", "chronic"), ("direct", "indirect"),
    ("before", "after"), ("gain", "loss"), ("inclus", "exclus"), ("increas", "decreas"),
    ("upregul", "downregul"), ("activat", "inhibit"), ("promot", "suppress"),
    ("overestim", "underestim"), ("hyper", "hypo"), ("capable", "incapable"),
)  # fmt: skip


def overlap(claim: Passage, sentence: Passage, rarity: Rarity) -> float:
    """The rarity-weighted share of the claim's content words that the sentence contains."""
    total = rarity.weight(claim.content)
    return rarity.weight(claim.content & sentence.content) / total if total else 0.0


def pair_features(claim: Passage, sentence: Passage, rarity: Rarity) -> dict[str, float]:
    """The alignment figures the stance model reads for a claim against one sentence."""
    shared = claim.content & sentence.content
    total_c = rarity.weight(claim.content)
    total_s = rarity.weight(sentence.content)
    matched = rarity.weight(shared)
    cov_c = matched / total_c if total_c else 0.0
    cov_s = matched / total_s if total_s else 0.0
    # An aim or an open question asserts nothing, so it can neither agree nor disagree.
    said = 0.0 if sentence.open_question or claim.open_question else 1.0
    kinds = {kind: said * v for kind, v in _facing(claim, sentence, shared, rarity)[0].items()}
    scale = max(total_c, 1.0)
    neg = rarity.weight((claim.negated ^ sentence.negated) & shared) / scale
    null_s = rarity.weight(sentence.nulls & shared - claim.nulls) / scale
    null_c = rarity.weight(claim.nulls & shared - sentence.nulls) / scale
    num_match, num_conflict = _numbers(claim, sentence)
    f = {
        "denial": said * denial(claim, sentence, rarity),
        "cov_c": cov_c,
        "cov_s": cov_s,
        "cov_c2": cov_c * cov_c,
        "matched": math.log1p(matched),
        "fuzz": fuzz.token_set_ratio(claim.text, sentence.text) / 100.0,
        "cue_agree": kinds["agree"],
        "cue_flip": kinds["flip"],
        "cue_negflip": kinds["negflip"],
        "cue_soft": kinds["soft"],
        "net_flip": said * cov_c * _net_flip(claim, sentence),
        "neg_c_any": float(bool(claim.negated)),
        "neg_s_any": float(bool(sentence.negated)),
        "neg_scope": said * neg,
        "null_s": said * null_s if _asserts(claim) else 0.0,
        "null_c": said * null_c if _asserts(sentence) else 0.0,
        "num_match": num_match,
        "num_conflict": said * num_conflict,
        "hedge_c": float(bool(claim.hedges)),
        "hedge_s": float(bool(sentence.hedges)),
        "open": 1.0 - said,
        "finding_s": float(sentence.finding),
        "antonym": said * cov_c * _antonyms(claim, sentence),
        "len_s": math.log1p(len(sentence.norms)),
    }
    disagreement = sum(f[k] for k in ("cue_flip", "cue_negflip", "neg_scope", "null_s", "null_c"))
    f["cov_x_disagree"] = cov_c * (disagreement + f["num_conflict"])
    f["cov_x_agree"] = cov_c * kinds["agree"]
    return f


def _asserts(p: Passage) -> bool:
    return any(not c.negated and c.axis != "presence" for c in p.cues) or p.affirms


def denial(claim: Passage, sentence: Passage, rarity: Rarity, *, of_stated: bool = False) -> float:
    """How fully the other text states what one text denies; 0 unless exactly one side negates.

    Symmetric. The denying side must put its negation on words both texts share (at least
    `_DENIED` of its weighted content), and the other side must neither negate, nor report a
    null result on them, nor say "little" or "few", nor ask, nor say what "can" happen
    (unless the denial is of what can: "cannot supply"): "Tuvalu sea level isn't rising"
    against "the effects of rising sea levels in Tuvalu". The value is the share of the
    denying side's content the other covers. With `of_stated` it is the share of the stating
    side's content the denying side repeats with its negation on a word they share (1.0: it
    denies exactly what the other states, whatever it adds around it).
    """
    shared = claim.content & sentence.content
    out = 0.0
    for denying, stating in ((claim, sentence), (sentence, claim)):
        if not denying.negations or stating.negations or stating.nulls & shared:
            continue
        if stating.open_question or not _SCARCELY.isdisjoint(stating.norms):
            continue  # "there was little net warming" agrees with "we had no warming"
        if not MODALS.isdisjoint(stating.norms) and NEGATED_MODALS.isdisjoint(denying.negations):
            continue
        total = rarity.weight(denying.content)
        if of_stated:
            # The negation must govern what both say, and the two must say the same thing.
            stated = rarity.weight(stating.content)
            if stated and denying.negated & shared:
                out = max(out, rarity.weight(shared) / stated)
        elif total and rarity.weight(denying.negated & shared) >= _DENIED * total:
            out = max(out, rarity.weight(shared) / total)
    return out


def _facing(
    claim: Passage, sentence: Passage, shared: frozenset[str], rarity: Rarity
) -> tuple[dict[str, float], list[tuple[str, Cue, Cue]]]:
    """Direction words facing each other over shared words, by kind, and the pairs made.

    Pairs are matched one to one, firmest first, so a sentence that lowers one thing and
    raises another is read against the claim's own object.
    """
    candidates = []
    for i, cue in enumerate(claim.cues):
        for j, other in enumerate(sentence.cues):
            if cue.axis == "presence" or other.axis != cue.axis:
                continue  # presence words only turn a chain around (see below)
            if (w := _anchored(cue, other, shared, rarity)) > 0:
                # The same word on both sides ("inhibiting", "inhibition") pairs first.
                bonus = 1.5 if cue.word[:5] == other.word[:5] else 1.0
                candidates.append((-w * bonus, i, j, w))
    candidates.sort()
    used_c: set[int] = set()
    used_s: set[int] = set()
    kinds = {"agree": 0.0, "flip": 0.0, "negflip": 0.0, "soft": 0.0}
    pairs = []
    for _, i, j, w in candidates:
        if i in used_c or j in used_s:
            continue
        used_c.add(i)
        used_s.add(j)
        cue, other = claim.cues[i], sentence.cues[j]
        same_sign = cue.sign == other.sign
        if cue.negated == other.negated:
            kind = "agree" if same_sign else "flip"
        else:
            kind = "negflip" if same_sign else "soft"
        kinds[kind] = max(kinds[kind], min(1.0, w / _FIRM))
        pairs.append((kind, cue, other))
    flips = sum(kind in ("flip", "negflip") for kind, _, _ in pairs)
    if flips and (flips + _absent_on_one_side(claim, sentence, shared)) % 2 == 0:
        # Flips along a chain cancel: "reduced X suppresses Y" says what "enhanced X leads to
        # Y" says, and "mice without X are susceptible" what "X protects".
        kinds["agree"] = max(kinds["agree"], kinds["flip"], kinds["negflip"])
        kinds["flip"] = kinds["negflip"] = 0.0
        pairs = [("agree" if k in ("flip", "negflip") else k, c, o) for k, c, o in pairs]
    return kinds, pairs


def _absent_on_one_side(claim: Passage, sentence: Passage, shared: frozenset[str]) -> int:
    """1 when one text removes a shared thing ("lack of X", "X knockout") and the other not."""

    def sign(p: Passage) -> int:
        anchored = [c for c in p.cues if c.axis == "presence" and not shared.isdisjoint(c.anchors)]
        return math.prod(c.sign * (-1 if c.negated else 1) for c in anchored)

    return int(sign(claim) != sign(sentence))


def _anchored(cue: Cue, other: Cue, shared: frozenset[str], rarity: Rarity) -> float:
    """How firmly two direction words sit on the same shared words; nearer words count more."""
    return sum(
        rarity.idf.get(s, rarity.default) * min(closeness, other.anchors[s])
        for s, closeness in cue.anchors.items()
        if s in other.anchors and s in shared
    )


def _net_flip(claim: Passage, sentence: Passage) -> float:
    """Axes on which the texts' net directions differ, signs multiplied along the chain."""
    out = 0.0
    for axis in ("quantity", "valence"):
        a = [c.sign * (-1 if c.negated else 1) for c in claim.cues if c.axis == axis]
        b = [c.sign * (-1 if c.negated else 1) for c in sentence.cues if c.axis == axis]
        if a and b and math.prod(a) != math.prod(b):
            out += 1.0
    return out


def _number_pairs(claim: Passage, sentence: Passage) -> tuple[list[str], list[tuple[str, str]]]:
    """Claim numbers the sentence repeats, and (claim, sentence) values for the same quantity."""
    same, differ = [], []
    for mine in claim.quantities:
        if any(mine.agrees(q) for q in sentence.quantities):
            same.append(mine.value)
            continue
        other = next((q for q in sentence.quantities if mine.same_quantity(q)), None)
        if other is not None:
            differ.append((mine.value, other.value))
    return same, differ


def _numbers(claim: Passage, sentence: Passage) -> tuple[float, float]:
    same, differ = _number_pairs(claim, sentence)
    return float(len(same)), float(len(differ))


def _antonyms(claim: Passage, sentence: Passage) -> float:
    mine, theirs = _antonym_stems(claim.norms), _antonym_stems(sentence.norms)
    count = 0.0
    for a, b in _ANTONYMS:
        for x, y in ((a, b), (b, a)):
            if x in mine and y in theirs and y not in mine and x not in theirs:
                count += 1
    return count


_ANTONYM_STEMS = frozenset(stem for pair in _ANTONYMS for stem in pair)
_ANTONYM_LENGTHS = tuple(sorted({len(stem) for stem in _ANTONYM_STEMS}))


@functools.lru_cache(maxsize=1 << 16)
def _antonym_stems(norms: tuple[str, ...]) -> frozenset[str]:
    """The antonym stems some word of `norms` begins with: made once per passage, where the
    overlay pairs each claim with hundreds of sentences and scanned its words per stem."""
    return frozenset(
        word[:length]
        for word in norms
        for length in _ANTONYM_LENGTHS
        if len(word) >= length and word[:length] in _ANTONYM_STEMS
    )


def restrictions(claim: Passage, sentence: Passage) -> list[str]:
    """Words by which the sentence narrows what the claim states generally ("only", "unless")."""
    said = set(claim.norms)
    return [w for w in dict.fromkeys(sentence.norms) if w in _RESTRICTORS and w not in said]


def contradiction_cue(claim: Passage, sentence: Passage, rarity: Rarity) -> StanceCue:
    """The words on which the sentence disagrees with the claim; `NO_CUE` if none stand out."""
    shared = claim.content & sentence.content
    _, pairs = _facing(claim, sentence, shared, rarity)
    _, differ = _number_pairs(claim, sentence)
    if differ:
        mine, theirs = differ[0]
        return StanceCue(CueShape.NUMBER, theirs, mine)
    for kind, cue, other in pairs:
        if kind == "flip":
            return StanceCue(CueShape.DIRECTION, other.word, cue.word)
        if kind == "negflip":
            negated = other.word if other.negated else cue.word
            return StanceCue(CueShape.NEGATED_ONE_SIDE, negated, in_claim=not other.negated)
    if sentence.nulls & shared and not claim.nulls & shared:
        return StanceCue(CueShape.NO_EFFECT)
    if claim.nulls & shared and not sentence.nulls & shared:
        return StanceCue(CueShape.AN_EFFECT)
    if (claim.negated ^ sentence.negated) & shared:
        word = (sentence.negations or claim.negations or ("not",))[0]
        return StanceCue(CueShape.NEGATION, word)
    return NO_CUE


def agreement_cue(claim: Passage, sentence: Passage, rarity: Rarity) -> StanceCue:
    """The direction word both texts share; `NO_CUE` if none."""
    shared = claim.content & sentence.content
    _, pairs = _facing(claim, sentence, shared, rarity)
    for kind, cue, other in pairs:
        if kind == "agree":
            return StanceCue(CueShape.AGREEMENT, other.word, cue.word)
    return NO_CUE


def swapped(claim: Passage, sentence: Passage) -> tuple[str, str] | None:
    """A content word of the claim the sentence replaces with another in the same place.

    "human effort" against "machine effort": the shared word ("effort") follows a modifier
    each text has and the other lacks, so the sentence speaks of another thing. The
    pair is (the claim's word, the sentence's); None when no such slot is found. Direction
    words are left to the direction cues.
    """
    for mine, theirs, flip in ((claim, sentence, False), (sentence, claim, True)):
        seq, other = mine.sequence, theirs.sequence
        for i in range(len(seq) - 1):
            word, head = seq[i], seq[i + 1]
            # Only a modifier's slot, before a noun both share: "human effort" against
            # "machine effort" names another thing; "breast cancer" against "breast
            # carcinoma", or "momentum book earned" against "momentum portfolio earned",
            # is a head noun said in other words.
            if not word or word in theirs.content or _directional(word) or not head:
                continue
            if head not in theirs.content or not _noun_like(mine.norms[i + 1]):
                continue
            for k in range(1, len(other)):
                rival = other[k - 1]
                if other[k] != head or not rival or rival in mine.content:
                    continue
                # "mtDNA" for "DNA", "poorer" for "poor": the same thing, said shorter or longer.
                if _directional(rival) or word in rival or rival in word:
                    continue
                return (rival, word) if flip else (word, rival)
    return None


def _noun_like(word: str) -> bool:
    """Whether a word may head a noun phrase: no verb or participle ending, no relation."""
    return not word.endswith(("ed", "ing")) and not relation_word(word)


def _directional(stem: str) -> bool:
    """Whether a content stem is a direction or relation word, which the cues compare."""
    return relation_word(stem) or any(
        stem.startswith(p) or p.startswith(stem) for p in _DIRECTIONAL
    )


_DIRECTIONAL = (
    *(p for pair in _ANTONYMS for p in pair),
    "reduc", "lower", "rais", "elevat", "enhanc", "improv", "worse", "higher", "great",
)  # fmt: skip

"""How the offline reasoner picks what to restate: its tuning, the candidate sentence, the gates.

Every question term is weighed by rarity; a note's coverage, its best sentence's coverage,
the margin over the runner-up note and, with an encoder, the relevance gate decide.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, replace
from functools import lru_cache

from engine.core.model import Address
from engine.navigation.navigator import NavState
from engine.navigation.outcomes import Match
from engine.navigation.reasoners.same_text import Key, citing_order, same_evidence, twins
from engine.navigation.relevance import Relevance, RelevanceGate, shipped_gate
from engine.reading.aims import asks
from engine.text.fold import same_text
from engine.text.sentences import sentences_of
from engine.text.stems import mention_stem, mentions
from engine.text.tokens import ranking_tokens
from engine.workspace.notes import Store

# What a common question word the note never uses, or a distinct one its sentence leaves to
# the rest of the note, costs a candidate (a rare word the note never uses costs 1), and the
# most those costs add up to.
UNUSED_PENALTY = 0.25
SOFT_CAP = 0.9


@dataclass(frozen=True)
class OfflineConfig:
    """Tuning of the offline reasoner (chosen on SciFact train folds; see the README).

    A sentence is restated as the answer only when its note (title and body) mentions every
    salient question term and covers `min_coverage` of the question's rarity-weighted
    content, the sentence itself covers `min_sentence` of it, and, when the question states
    a claim, the note covers it at least `min_margin` better than any other checked note
    not linked to it; otherwise the reasoner gives up and leaves the closest sentence to the
    router as a bare inference. With `numbers_block`, every number the question states must
    be in the note too. With `findings_only`, a sentence that states an aim, a question or
    a method ("To determine whether …") is never restated: the note's best sentence is one
    that states something, and a note whose only covering sentences ask gives up.
    With an encoder, a claim-shaped question is gated by meaning and words together
    (`engine.navigation.relevance`: `gate`, else the shipped one) instead of the three
    coverage thresholds; gaps and aims still give up. `cosine_weight` (default: the gate's)
    adds the sentence's closeness in meaning to its score, so the reasoner restates the
    sentence nearest the question among those that cover it. `relevance=False` keeps words
    alone.
    """

    ground_top: int = 3
    max_grounded: int = 6
    min_coverage: float = 0.6
    min_sentence: float = 0.3
    min_margin: float = 0.06
    rank_bonus: float = 0.15
    title_weight: float = 0.5
    max_premises: int = 2
    ground_practice: bool = True
    numbers_block: bool = True
    findings_only: bool = True
    relevance: bool = True
    gate: RelevanceGate | None = None
    cosine_weight: float | None = None  # None: the gate's own

    def relevance_gate(self) -> RelevanceGate | None:
        """The gate in use: the configured one, else the shipped one; None when turned off."""
        return (self.gate or shipped_gate()) if self.relevance else None


@dataclass(frozen=True)
class Candidate:
    """A sentence copied verbatim from a grounded node, scored against the question.

    `coverage` counts the sentence and its note's title, `note_coverage` the whole note;
    `margin` is how much better the note covers the question than the runner-up checked
    note not linked to it, `rival`. `asks` marks a sentence that says what the study set
    out to do or how, rather than what it found (looked for only with `findings_only`).
    `confirmed` marks text a verifier checks against a source (a quote, a tethered file's
    sentence, a recomputed figure in words); any other sentence is its note's own words.
    `same_text` names the notes of other papers whose checked text states this sentence
    word for word (in citing order): the same evidence, so none of them is the rival.
    """

    score: float
    coverage: float
    sentence_coverage: float
    gaps: tuple[str, ...]
    address: str
    text: str
    note_coverage: float = 0.0
    margin: float = 1.0
    rival: str = ""
    asks: bool = False
    confirmed: bool = True
    # Meaning, when an encoder is present and a gate applies to its vectors.
    relevance: Relevance | None = None
    same_text: tuple[str, ...] = ()

    def match(self, title: str, *, rival_title: str | None = None) -> Match:
        """The candidate as a `Match` for plain words; with `rival_title`, the runner-up note
        is named as covering the question about as well."""
        return Match(
            self.address,
            title,
            self.coverage,
            self.note_coverage,
            self.gaps,
            self.asks,
            self.rival if rival_title is not None else "",
            rival_title or "",
        )


def strong(best: Candidate, config: OfflineConfig, *, claim: bool = True) -> bool:
    """Whether the candidate is good enough to restate as the answer.

    The note must stand out from the runner-up only for a `claim`: evidence for a stated
    claim is specific, while any note that covers a topic question answers it. With meaning
    measured for a `claim`, the relevance gate decides in place of the coverage thresholds.
    """
    gate = config.relevance_gate()
    if claim and best.relevance is not None and gate is not None:
        return (
            not best.gaps
            and not best.asks
            and stands_out(best, config)
            and gate.admits(best.relevance)
        )
    return (
        not best.gaps
        and best.note_coverage >= config.min_coverage
        and best.sentence_coverage >= config.min_sentence
        and (best.margin >= config.min_margin or not claim)
        and not best.asks
    )


def stands_out(best: Candidate, config: OfflineConfig) -> bool:
    """Whether the note stands out from the runner-up in words, or else in meaning.

    A note no better covered than its rival, and no nearer the question than it, is about
    the topic rather than the claim, whatever the blend says.
    """
    relevance = best.relevance
    if best.margin >= config.min_margin or relevance is None:
        return True
    return relevance.cosine_margin > 0.0


def is_practice(address: str) -> bool:
    """Whether `address` names a practice entry (the team's notes, not the literature)."""
    return Address.parse(address).store == Store.PRACTICE


def _weights(state: NavState) -> dict[str, float]:
    """Question term -> rarity weight; plain counts when the navigator gave no rarities."""
    if state.terms is not None and state.terms.words:
        return {w: max(state.terms.weights[w], 0.0) for w in state.terms.words}
    return dict.fromkeys(state.question.words, 1.0)


def rank_nodes(state: NavState) -> list[str]:
    """Addresses by rarity-weighted question-term overlap with title and body; retrieval
    order breaks ties."""
    weights = _weights(state)
    order = {address: i for i, address in enumerate(state.neighbourhood.nodes)}

    def overlap(address: str) -> float:
        node = state.neighbourhood.nodes[address]
        note = state.workspace.note(address)
        mentioned = _stems(f"{node.title} {note.body if note else node.excerpt}")
        return round(sum(w for q, w in weights.items() if mention_stem(q) in mentioned), 6)

    return sorted(order, key=lambda a: (-overlap(a), order[a]))


def best_candidate(state: NavState, config: OfflineConfig) -> Candidate | None:
    """The best sentence among grounded canon notes and files; practice entries are not evidence.

    A note is one source, so what its title and body mention together decides the gaps; the
    sentence's own share and its note's rank decide which sentence is restated.
    """
    weights = _weights(state)
    total = sum(weights.values())

    def share(words: AbstractSet[str]) -> float:
        # fsum: a set's order differs between processes (string hashing), and a plain sum's
        # last bits with it, which could pick another of two equally covered rivals.
        return math.fsum(weights[q] for q in words) / total if total else 0.0

    salient = set(state.terms.salient) if state.terms is not None else set()
    distinct = set(state.terms.distinct) if state.terms is not None else set()
    mentioned = _mention(state)
    # A number the claim states is what it is about: a note that never mentions it can
    # neither confirm nor refute it.
    needed = salient | (set(state.question.numbers) if config.numbers_block else set())
    rank = {address: i for i, address in enumerate(rank_nodes(state))}
    closeness = _closeness(state, config)
    gate = config.relevance_gate()
    weight = config.cosine_weight if config.cosine_weight is not None else 0.0
    if config.cosine_weight is None and gate is not None:
        weight = gate.cosine_weight
    near: dict[str, float] = {}  # note -> its nearest sentence's (or title's) cosine
    titles: dict[str, float] = {}  # note -> its title's cosine
    said: dict[tuple[str, str], float] = {}  # (note, sentence) -> the sentence's cosine
    best: Candidate | None = None
    notes: dict[str, float] = {}
    # Every sentence scored, by (note, its same-text key): who else states the answer.
    every: dict[Key, Candidate] = {}
    checked_text: dict[Key, bool] = {}
    for address, checked in state.grounded.items():
        if checked.ground is None or is_practice(address):
            continue
        title = note_title(state, address)
        titled = mentioned(title)
        whole = titled | mentioned(checked.ground.body)
        notes[address] = share(whole)
        gaps = tuple(sorted(needed - whole, key=lambda q: (-weights.get(q, 0.0), q)))
        # A common question word the note never uses weighs little, but never nothing: a
        # note that uses every word outranks one that leaves some out.
        unused = len(set(weights) - needed - whole)
        sections = _sections(state, address)
        pairs = _sentences_of(state, address)
        if closeness is not None:
            cosines = closeness([note_title(state, address), *(t for t, _ in pairs)])
            near[address], titles[address] = max(cosines), cosines[0]
            said |= {(address, t): c for (t, _), c in zip(pairs, cosines[1:], strict=True)}
        mine: Candidate | None = None
        for text, confirmed in pairs:
            asking = config.findings_only and (
                asks(text, section=sections.get(text, "")) or _is_title(text, title)
            )
            in_sentence = mentioned(text)
            own, coverage = share(in_sentence), share(in_sentence | titled)
            score = (
                own
                + config.title_weight * (coverage - own)
                + config.rank_bonus / (rank.get(address, 99) + 1)
                # Meaning weighs only checked text: at an equal match, a note's own words
                # never overtake its confirmed sentences.
                + (weight * said.get((address, text), 0.0) if confirmed else 0.0)
                - len(gaps)
                # Softer than a blocking gap, whatever their number: a note that leaves a
                # rare word out never overtakes one that says them all.
                - min(
                    SOFT_CAP,
                    UNUSED_PENALTY * (unused + len((distinct & whole) - in_sentence - titled)),
                )
            )
            cand = Candidate(
                score,
                coverage,
                own,
                gaps,
                address,
                text,
                notes[address],
                asks=asking,
                confirmed=confirmed,
            )
            key = (address, same_text(text))
            if confirmed or key not in every:
                every[key] = cand
            checked_text[key] = checked_text.get(key, False) or confirmed
            # Within a note, a sentence that states something beats one that only says what
            # was studied, and checked text beats the note's own words at an equal score;
            # across notes the better-covering note wins, aim or not, so a give-up names
            # the note that came closest.
            if mine is None or (not asking, score, confirmed, -len(text)) > (
                not mine.asks,
                mine.score,
                mine.confirmed,
                -len(mine.text),
            ):
                mine = cand
        if mine is not None and (
            best is None
            or (mine.score, -len(mine.text), address) > (best.score, -len(best.text), best.address)
        ):
            best = mine
    if best is None:
        return None
    linked = same_evidence(state, best.address, notes)
    same = twins(state, best.address, best.text, checked_text, linked) if best.confirmed else []
    if same:
        # Papers stating the sentence word for word are one piece of evidence: the first by
        # year that covers the question as well is cited, and none of them is a rival.
        group = [best, *(every[a, same_text(best.text)] for a in same)]
        first = min(
            (c for c in group if _as_good(c, best, config)),
            key=lambda c: citing_order(state.workspace, c.address),
            default=best,
        )
        for cand in group:
            linked |= same_evidence(state, cand.address, notes)
        others = [c.address for c in group if c is not first]
        others.sort(key=lambda a: citing_order(state.workspace, a))
        best = replace(first, same_text=tuple(others))
    rivals = sorted((-cov, a) for a, cov in notes.items() if a not in linked)
    if rivals:
        runner_up, rival = -rivals[0][0], rivals[0][1]
        best = replace(best, margin=round(best.note_coverage - runner_up, 6), rival=rival)
    if closeness is None:
        return best
    nearest_rival = max((near[a] for a in notes if a not in linked), default=None)
    relevance = Relevance(
        coverage=best.note_coverage,
        sentence=best.sentence_coverage,
        margin=best.margin,
        cosine=near[best.address],
        sentence_cosine=said[best.address, best.text],
        cosine_margin=1.0
        if nearest_rival is None
        else round(near[best.address] - nearest_rival, 6),
        title_cosine=titles[best.address],
        salient=len(salient),
    )
    return replace(best, relevance=relevance)


def _as_good(cand: Candidate, best: Candidate, config: OfflineConfig) -> bool:
    """Whether a twin of the best sentence may be cited in its place: no gap the best one
    does not have, no aim where it states a finding, and coverage at least as good up to
    the thresholds (the same sentence; only its note and title differ)."""
    return (
        cand.confirmed
        and set(cand.gaps) <= set(best.gaps)
        and (best.asks or not cand.asks)
        and cand.note_coverage >= min(best.note_coverage, config.min_coverage)
        and cand.coverage >= min(best.coverage, config.min_sentence)
    )


def _is_title(text: str, title: str) -> bool:
    """Whether a sentence is its paper's title (a title names a paper; it states nothing)."""
    return bool(title.strip()) and " ".join(text.split()).lower().rstrip(".") == (
        " ".join(title.split()).lower().rstrip(".")
    )


def _closeness(state: NavState, config: OfflineConfig) -> Callable[[list[str]], list[float]] | None:
    """Cosines of texts with the question, when an encoder is present and a gate fits it.

    Only for a question that states a claim: the gate and the sentence choice's weight on
    meaning were fitted on claims; a topic question is answered on words, as before.
    """
    semantic = state.semantic
    gate = config.relevance_gate()
    if semantic is None or gate is None or not gate.applies_to(semantic.encoder.fingerprint):
        return None
    if not state.question.claim_shaped:
        return None
    question = semantic.question(state.question.text)
    return lambda texts: [float(c) for c in semantic.similarities(question, texts)]


def _mention(state: NavState) -> Callable[[str], frozenset[str]]:
    """Which question words a text mentions, by the coverage report's own rules."""
    terms = state.terms
    if terms is not None and terms.words:
        return terms.mentioned
    words = state.question.words

    def by_stem(text: str) -> frozenset[str]:
        said = _stems(text)
        return frozenset(q for q in words if mentions(mention_stem(q), said))

    return by_stem


def typed_gaps(state: NavState, words: tuple[str, ...]) -> tuple[str, ...]:
    """Question words as the user typed them, for the words of a give-up."""
    return state.terms.typed(words) if state.terms is not None else words


@lru_cache(maxsize=1024)
def _stems(text: str) -> frozenset[str]:
    # Pure in its text, and asked of every node's body at every step: kept, not redone.
    # An entry is a whole note's text and its stems, about 10 KB: 1,024 of them hold a few
    # questions' neighbourhoods (4,096 held 43 MB for good in a server that had answered
    # a few hundred questions).
    return frozenset(mention_stem(w) for w in ranking_tokens(text))


def note_title(state: NavState, address: str) -> str:
    node = state.neighbourhood.nodes.get(address)
    return node.title if node is not None else ""


def _sentences_of(state: NavState, address: str) -> list[tuple[str, bool]]:
    """The node's sentences, each with whether a verifier checks it against a source.

    Checked: the quotes of a note grounded by a quote (the one a claim copies is checked),
    the sentences a verifier confirmed (a tethered file, a recomputed figure in words), and
    a code file's own text. Every other sentence of a note's body is its author's words.
    """
    note = state.workspace.note(address)
    checked = state.grounded.get(address)
    ground = checked.ground if checked is not None else None
    if note is None:
        body = ground.body if ground is not None else ""
        return [(t, True) for t in sentences_of(body)]
    confirmed: list[str] = []
    if ground is not None and ground.spec is not None and ground.spec.type == "quote":
        confirmed += [q.body.strip() for q in note.quotes]
    result = checked.result if checked is not None else None
    quoted = ground is not None and ground.spec is not None and ground.spec.type == "quote"
    if result is not None and result.ok and result.confirmed_source_text and not quoted:
        confirmed += sentences_of(result.confirmed_source_text)
    out = dict.fromkeys((t for t in confirmed if t), True)
    for text in sentences_of(note.body):
        out.setdefault(text, False)
    return list(out.items())


def _sections(state: NavState, address: str) -> dict[str, str]:
    """Quote text -> the structured-abstract heading it sits under, for the note's quotes."""
    note = state.workspace.note(address)
    return {q.body.strip(): q.section for q in note.quotes} if note else {}


def best_sentence_of(state: NavState, address: str, *, confirmed_only: bool = False) -> str | None:
    weights = _weights(state)
    texts = [t for t, ok in _sentences_of(state, address) if ok or not confirmed_only]
    if not texts:
        return None

    def covered(text: str) -> float:
        said = _stems(text)
        return sum(w for q, w in weights.items() if mention_stem(q) in said)

    return max(texts, key=lambda t: (covered(t), -len(t)))

"""The extractive offline reasoner (the default): restate the best-covering checked sentence."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from engine.core.model import Claim, ClaimKind, ProseCitation
from engine.core.paraphrase import Paraphrased
from engine.core.wire import Draft
from engine.navigation.navigator import Action, NavState
from engine.navigation.outcomes import Failure, FailureKind, GiveUp, GiveUpReason, Match
from engine.navigation.premises import PREMISE_RELATIONS, kept_premises, link_name
from engine.navigation.reasoners.candidates import (
    Candidate,
    OfflineConfig,
    best_candidate,
    best_sentence_of,
    is_practice,
    note_title,
    rank_nodes,
    strong,
    typed_gaps,
)
from engine.navigation.reasoners.same_text import also_stated
from engine.navigation.substrate import link_less
from engine.workspace.notes import NoteKind


class OfflineReasoner:
    """Deterministic and extractive: ranks, grounds, expands, then restates the best sentence."""

    name = "offline"

    def __init__(self, config: OfflineConfig | None = None):
        self.config = config or OfflineConfig(ground_practice=False)

    def decide(self, state: NavState) -> Action:
        action = explore(state, self.config)
        return action if action is not None else self.answer(state)

    def answer(self, state: NavState) -> Action:
        """Draft from the best candidate sentence; weak matches go out as bare inferences."""
        best = best_candidate(state, self.config)
        if best is None:
            if state.steps_left <= 1 and len(state.neighbourhood.nodes) > len(state.grounded):
                return Action.abstain(
                    Failure(
                        FailureKind.BUDGET,
                        f"the step budget of {state.budget.max_steps} ran out before any "
                        "retrieved note was checked",
                    )
                )
            return Action.abstain(Failure(FailureKind.NOTHING_FOUND))
        claim = state.question.claim_shaped
        close = claim and bool(best.rival) and best.margin < self.config.min_margin
        match = best.match(
            note_title(state, best.address),
            rival_title=note_title(state, best.rival) if close else None,
        )
        # Gaps are measured by token, but named as the user typed them.
        match = replace(match, gaps=typed_gaps(state, best.gaps))
        why = match.words()
        if not strong(best, self.config, claim=claim):
            # An aim that covers the question well is not weak: it is not a finding.
            aim = best.asks and strong(replace(best, asks=False), self.config, claim=claim)
            paraphrased = None if aim else _paraphrase(state, best)
            if paraphrased is not None:
                restated = _claim("c1", best.text, "restatement", [best.address])
                return Action.answer(
                    _draft([restated], "c1", ["c1"]),
                    f"restated a paraphrase: {paraphrased.words}; {why}",
                    paraphrased=paraphrased,
                )
            given_up = GiveUp(
                GiveUpReason.AIM if aim else GiveUpReason.WEAK,
                match,
                match.gaps,
                budget_spent=state.steps_left <= 1 and _unchecked(state, self.config),
            )
            guess = _claim("c1", best.text, "inference", [best.address])
            return Action.give_up(_draft([guess], "c1", []), given_up)
        note = state.workspace.note(best.address)
        premises = (
            _premise_targets(state, best.address) if note and note.type is NoteKind.CLAIM else []
        )
        if not premises and not best.confirmed:
            return _own_words(state, best, match)
        # Other papers saying the sentence word for word are named, never rivals.
        also = also_stated(state.workspace, best.same_text)
        if also is not None:
            why += "; " + also.words()
        if not premises:
            restated = _claim("c1", best.text, "restatement", [best.address])
            return Action.answer(
                _draft([restated], "c1", ["c1"]), f"restated {why}", also_stated=also
            )
        claims, said = [], []
        for i, target in enumerate(
            kept_premises(state.workspace, premises, self.config.max_premises), start=1
        ):
            if state.workspace.note(target) is None:
                # A premise not written yet stays in the DAG as a missing hop, named as its
                # link names it, and stays out of the prose: nothing says what it holds.
                name = link_name(state.workspace, best.address, target)
                claims.append(_claim(f"p{i}", name, "restatement", [target]))
                continue
            text = best_sentence_of(state, target, confirmed_only=True) or best.text
            claims.append(_claim(f"p{i}", text, "restatement", [target]))
            said.append(f"p{i}")
        conclusion = _claim(
            "c1", best.text, "inference", [best.address], premises=[c.id for c in claims]
        )
        return Action.answer(
            _draft([*claims, conclusion], "c1", said),
            f"restated {why}; it is a claim derived from "
            + ", ".join(
                f"\u201c{note_title(state, p) or link_name(state.workspace, best.address, p)}\u201d"
                for p in premises
            ),
            also_stated=also,
        )


def _paraphrase(state: NavState, best: Candidate) -> Paraphrased | None:
    """The reader's reading of a sentence words alone leave, when its band may answer.

    Only a claim (stated, or asked as a yes/no question) against a sentence confirmed in a
    source, never a note's own words, an aim or a sentence missing a number the claim
    states; and only beside the encoder the bands were measured with.
    """
    judge, semantic, asked = state.paraphraser, state.semantic, state.question
    claim = asked.text if asked.claim_shaped else asked.asks
    if judge is None or semantic is None or not claim:
        return None
    if not judge.applies_to(semantic.encoder.fingerprint) or not paraphrasable(best):
        return None
    note = state.workspace.note(best.address)
    if note is None or note.type is NoteKind.CLAIM:
        return None
    return judge.read(claim, best.text)


def paraphrasable(best: Candidate) -> bool:
    """Whether a candidate may be shown to the reader: a finding confirmed in a source, no
    number the claim states left unsaid (the lab measures the bands on the same)."""
    return best.confirmed and not best.asks and not any(c.isdigit() for g in best.gaps for c in g)


def _own_words(state: NavState, best: Candidate, match: Match) -> Action:
    """Answer with a note's own sentence only as an inference on what of it was checked.

    The sentence is its author's words, so it can be no more than inferred; it rests on the
    note's best confirmed sentence, restated, when there is one. Without one nothing of the
    note was confirmed against a source, and the draft is a bare inference.
    """
    checked = best_sentence_of(state, best.address, confirmed_only=True)
    if checked is None:
        claim = _claim("c1", best.text, "inference", [best.address])
        given_up = GiveUp(GiveUpReason.OWN_WORDS, match, match.gaps)
        return Action.give_up(_draft([claim], "c1", []), given_up)
    premise = _claim("p1", checked, "restatement", [best.address])
    conclusion = _claim("c1", best.text, "inference", [best.address], premises=["p1"])
    return Action.answer(
        _draft([premise, conclusion], "c1", ["p1"]),
        f"restated {match.words()}; it is the note's own text, so it stands as an inference on "
        "what of the note was checked",
    )


def explore(state: NavState, config: OfflineConfig) -> Action | None:
    """Ground the most relevant nodes, expand the best, then ground what expansion revealed."""
    if state.steps_left <= 1:
        return None
    ranked = rank_nodes(state)
    if not config.ground_practice:
        ranked = [a for a in ranked if not is_practice(a)]
    hood = state.neighbourhood
    room = len(state.grounded) < config.max_grounded
    for address in ranked[: config.ground_top]:
        if address not in state.grounded and room:
            return Action.ground(address, "among the most relevant nodes")
    for address in ranked[: config.ground_top]:
        if (
            address not in hood.expanded
            and hood.hops.get(address, 0) < state.budget.hops
            and len(hood.nodes) < state.budget.max_nodes
            and _has_links(state, address)
        ):
            return Action.expand(address, "follow the links of a relevant node")
    for address in ranked[: config.ground_top]:
        note = state.workspace.note(address)
        if address in state.grounded and note is not None and note.type is NoteKind.CLAIM:
            for target in _premise_targets(state, address):
                if target in hood.nodes and target not in state.grounded:
                    return Action.ground(target, f"a premise of the claim {address}")
    # Related notes (a link-less corpus) show where the walk could go, but are not checked:
    # grounding them moved answers to abstracts no annotator tied to the question.
    if link_less(state.workspace):
        return None
    for address in ranked:
        if address not in state.grounded and room and hood.hops.get(address, 0) > 0:
            return Action.ground(address, "revealed by an expansion")
    return None


def _unchecked(state: NavState, config: OfflineConfig) -> bool:
    """Whether a node the reasoner would still have grounded is left unchecked."""
    ranked = [a for a in rank_nodes(state) if config.ground_practice or not is_practice(a)]
    return any(a not in state.grounded for a in ranked[: config.ground_top])


def _premise_targets(state: NavState, address: str) -> list[str]:
    note = state.workspace.note(address)
    if note is None:
        return []
    return [link.target_address for link in note.links if link.relation in PREMISE_RELATIONS]


def _has_links(state: NavState, address: str) -> bool:
    """Whether expanding the note can reveal anything: links, a tether, or related notes."""
    note = state.workspace.note(address)
    if note is None:
        return False
    return bool(note.links) or note.tether is not None or link_less(state.workspace)


def _claim(
    cid: str, text: str, kind: str, cites: list[str], *, premises: Sequence[str] = ()
) -> Claim:
    return Claim(cid, text, ClaimKind(kind), tuple(cites), tuple(premises))


def _draft(claims: list[Claim], conclusion: str, prose_claims: list[str]) -> Draft:
    """The draft, with prose made of the named claims' texts, each span citing its claim."""
    by_id = {c.id: c for c in claims}
    prose, spans = "", []
    for cid in prose_claims:
        if prose:
            prose += " "
        start = len(prose)
        prose += by_id[cid].text
        spans.append(ProseCitation(start, len(prose), cid))
    return Draft.build(claims, conclusion, spans, prose=prose)

"""Reasoners: the extractive offline reasoner (the default) and the OpenAI-compatible one."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.core.errors import ConfigError
from engine.core.llm import LLMConfig, OpenAIChat
from engine.core.text import sentences
from engine.navigation.navigator import Action, NavState
from engine.navigation.reasoners.model import NodeView, draft_answer
from engine.navigation.substrate import link_less
from engine.workspace.bm25 import tokens as terms
from engine.workspace.notes import NoteKind

# Relations by which a canon claim note points at the notes it is derived from.
PREMISE_RELATIONS = frozenset(
    {"derives-from", "derived-from", "rests-on", "supported-by", "premise"}
)


@dataclass(frozen=True)
class OfflineConfig:
    """Tuning of the offline reasoner (chosen on SciFact train; see the README)."""

    ground_top: int = 3
    max_grounded: int = 6
    min_shared: int = 3
    min_coverage: float = 0.4
    rank_bonus: float = 0.15
    max_premises: int = 2


@dataclass(frozen=True)
class Candidate:
    """A sentence copied verbatim from a grounded node, scored against the question."""

    score: float
    shared: int
    coverage: float
    address: str
    text: str


class OfflineReasoner:
    """Deterministic and extractive: ranks, grounds, expands, then restates the best sentence."""

    name = "offline"

    def __init__(self, config: OfflineConfig | None = None):
        self.config = config or OfflineConfig()

    def decide(self, state: NavState) -> Action:
        action = explore(state, self.config)
        return action if action is not None else self.answer(state)

    def answer(self, state: NavState) -> Action:
        """Draft from the best candidate sentence; weak matches go out as bare inferences."""
        best = best_candidate(state, self.config)
        if best is None:
            return Action.abstain("nothing checkable was retrieved for this question")
        strong = best.shared >= self.config.min_shared and best.coverage >= self.config.min_coverage
        why = (
            f"best sentence shares {best.shared} question terms ({best.coverage:.0%}) "
            f"with {best.address}"
        )
        if not strong:
            claim = _claim("c1", best.text, "inference", [best.address])
            return Action.answer(
                _draft([claim], "c1", []), f"weak match, left to the router: {why}"
            )
        note = state.workspace.note(best.address)
        premises = (
            _premise_targets(state, best.address) if note and note.type is NoteKind.CLAIM else []
        )
        if not premises:
            claim = _claim("c1", best.text, "restatement", [best.address])
            return Action.answer(_draft([claim], "c1", ["c1"]), why)
        claims = []
        for i, target in enumerate(premises[: self.config.max_premises], start=1):
            text = _best_sentence_of(state, target) or best.text
            claims.append(_claim(f"p{i}", text, "restatement", [target]))
        conclusion = _claim(
            "c1", best.text, "inference", [best.address], premises=[c["id"] for c in claims]
        )
        return Action.answer(
            _draft([*claims, conclusion], "c1", [c["id"] for c in claims]),
            f"{why}; it is a claim derived from {', '.join(premises)}",
        )


def explore(state: NavState, config: OfflineConfig) -> Action | None:
    """Ground the most relevant nodes, expand the best, then ground what expansion revealed."""
    if state.steps_left <= 1:
        return None
    ranked = rank_nodes(state)
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


def rank_nodes(state: NavState) -> list[str]:
    """Addresses by question-term overlap with title and body; retrieval order breaks ties."""
    question = set(terms(state.question))
    order = {address: i for i, address in enumerate(state.neighbourhood.nodes)}

    def overlap(address: str) -> int:
        node = state.neighbourhood.nodes[address]
        note = state.workspace.note(address)
        text = f"{node.title} {note.body if note else node.excerpt}"
        return len(question & set(terms(text)))

    return sorted(order, key=lambda a: (-overlap(a), order[a]))


def best_candidate(state: NavState, config: OfflineConfig) -> Candidate | None:
    """The best sentence among grounded canon notes and files; practice entries are not evidence."""
    question = set(terms(state.question))
    rank = {address: i for i, address in enumerate(rank_nodes(state))}
    best: Candidate | None = None
    for address, checked in state.grounded.items():
        if checked.ground is None or address.startswith("mem:"):
            continue
        for text in _sentences_of(state, address):
            words = set(terms(text))
            shared = len(question & words)
            coverage = shared / len(question) if question else 0.0
            score = coverage + config.rank_bonus / (rank.get(address, 99) + 1)
            cand = Candidate(score, shared, coverage, address, text)
            if best is None or (score, -len(text), address) > (
                best.score,
                -len(best.text),
                best.address,
            ):
                best = cand
    return best


def _sentences_of(state: NavState, address: str) -> list[str]:
    note = state.workspace.note(address)
    checked = state.grounded.get(address)
    body = note.body if note else (checked.ground.body if checked and checked.ground else "")
    out = [q.body for q in note.quotes] if note else []
    out += [body[s.start : s.end] for s in sentences(body)]
    return [t for t in dict.fromkeys(x.strip() for x in out) if t]


def _best_sentence_of(state: NavState, address: str) -> str | None:
    question = set(terms(state.question))
    texts = _sentences_of(state, address) if state.workspace.note(address) else []
    if not texts:
        return None
    return max(texts, key=lambda t: (len(question & set(terms(t))), -len(t)))


def _premise_targets(state: NavState, address: str) -> list[str]:
    note = state.workspace.note(address)
    return [link.target_address for link in note.links if link.relation in PREMISE_RELATIONS]


def _has_links(state: NavState, address: str) -> bool:
    """Whether expanding the note can reveal anything: links, a tether, or related notes."""
    note = state.workspace.note(address)
    if note is None:
        return False
    return bool(note.links) or note.tether is not None or link_less(state.workspace)


def _claim(
    cid: str, text: str, kind: str, cites: list[str], *, premises: Sequence[str] = ()
) -> dict:
    return {"id": cid, "text": text, "kind": kind, "cites": cites, "premises": list(premises)}


def _draft(claims: list[dict], conclusion: str, prose_claims: list[str]) -> dict:
    """The draft, with prose made of the named claims' texts, each span citing its claim."""
    by_id = {c["id"]: c for c in claims}
    prose, spans = "", []
    for cid in prose_claims:
        if prose:
            prose += " "
        start = len(prose)
        prose += by_id[cid]["text"]
        spans.append({"start": start, "end": len(prose), "claim": cid})
    dag = {"claims": claims, "conclusion": conclusion, "prose_citations": spans}
    return {"dag": dag, "prose": prose}


class ModelReasoner:
    """Explores like the offline reasoner, then asks an OpenAI-compatible model for the DAG."""

    name = "openai"

    def __init__(self, model, config: OfflineConfig | None = None):
        self.model = model
        self.config = config or OfflineConfig()

    def decide(self, state: NavState) -> Action:
        action = explore(state, self.config)
        if action is not None:
            return action
        views = [
            NodeView(address, state.neighbourhood.nodes[address].title, checked.ground.body)
            for address, checked in state.grounded.items()
            if checked.ground is not None and address in state.neighbourhood.nodes
        ]
        if not views:
            return Action.abstain("nothing checkable was retrieved for this question")
        draft = draft_answer(self.model, state.question, views)
        if not draft.ok:
            return Action.abstain(draft.reason)
        return Action.answer(draft.payload, f"model draft after {draft.attempts} attempt(s)")


Factory = Callable[[], object]
REASONERS: dict[str, Factory] = {}


def register(name: str, factory: Factory) -> None:
    """Register a reasoner factory under `name`; the built-ins register the same way."""
    REASONERS[name] = factory


def make_reasoner(name: str):
    """A fresh reasoner by name; raises ConfigError for an unknown name."""
    factory = REASONERS.get(name)
    if factory is None:
        raise ConfigError(f"unknown reasoner {name!r} (known: {', '.join(sorted(REASONERS))})")
    return factory()


def _openai_from_env():
    return ModelReasoner(OpenAIChat(LLMConfig.from_env()))


register("offline", OfflineReasoner)
register("openai", _openai_from_env)

"""Relation typers for (practice, canon) pairs, the symmetric stance gate, and their registry.

Every typer handed out by `make_typer` is gated: a `contradicts` verdict stands only when
the stance classifier finds the practice contradicting the evidence sentence AND the
evidence contradicting the practice, both at or above the floor. Contradictions feed the
debate map, so a typer that could emit them is never used without that gate.

The offline typer is gated by the offline stance classifier. The model typer is gated by
the model itself, asked in both directions (`ModelStance`), so a strong model is not held
to what the lexical classifier can see; the model gate also asks a control question (does
the evidence contradict itself?) and refuses every contradiction of a model that says yes,
since such a model calls anything a contradiction.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Protocol

from engine.core.errors import ConfigError
from engine.core.jsonsafe import member
from engine.core.registry import PLUGIN_GROUPS, Registry
from engine.core.stance import ContradictionCue
from engine.models.llm import ChatModel, LLMConfig, OpenAIChat
from engine.review.offline_stance import (
    OfflineTyper,
    best_sentence,
    model,
    offline_stance,
    related,
)
from engine.review.reader_typer import ReaderStance, ReaderTyper, reader_bands, reader_typer
from engine.review.relations import Relation, Typing

__all__ = [
    "TYPERS",
    "GatedTyper",
    "ModelStance",
    "ModelTyper",
    "OfflineTyper",
    "Relation",
    "StanceFn",
    "Typer",
    "TyperFactory",
    "TyperSpec",
    "Typing",
    "default_floor",
    "gate_for",
    "gated",
    "make_typer",
    "model_typer",
    "offline_stance",
    "register",
]

StanceFn = Callable[[str, str], float]
"""Probability that text A contradicts text B; direction matters."""


class Typer(Protocol):
    """Types how a practice text relates to a canon note's text.

    Called with the practice entry's text and the canon note's text (title and body);
    returns a `Typing`: the relation, a confidence in [0, 1], a rationale and the canon
    sentence relied on, verbatim. `name` is recorded in the overlay it builds. A typer is
    always used behind its stance gate (`gate_for`), which may turn a `contradicts` into
    `unrelated`. It may raise: the overlay build then stops and the previous file stays.
    """

    @property
    def name(self) -> str: ...

    def __call__(self, practice: str, canon: str) -> Typing: ...


def default_floor() -> float:
    """The stance floor tuned with the shipped model for both directions of the gate."""
    return float(model().thresholds.get("floor", 0.5))


@dataclass(frozen=True)
class GatedTyper:
    """A typer whose `contradicts` verdicts must clear the symmetric stance gate.

    With `control`, the gate also asks whether the evidence contradicts itself, and refuses
    the contradiction when the stance function says so: it cannot tell contradiction apart.
    """

    typer: Typer
    stance: StanceFn
    floor: float
    control: bool = False

    @property
    def name(self) -> str:
        return self.typer.name

    @property
    def gate(self) -> str:
        """Which stance function gates: `offline`, the typer's own model, or the reader."""
        if isinstance(self.stance, ModelStance):
            return "model"
        return "reader" if isinstance(self.stance, ReaderStance) else "offline"

    def __call__(self, practice: str, canon: str) -> Typing:
        typing = self.typer(practice, canon)
        if not typing.relation.candidate:  # a possible tension passes the same gate
            return typing
        evidence = typing.evidence or best_sentence(practice, canon)
        forward = self.stance(practice, evidence)
        backward = self.stance(evidence, practice)
        if forward >= self.floor and backward >= self.floor:
            if not self.control or self.stance(evidence, evidence) < self.floor:
                return typing
            why = "the gate's stance model says the evidence contradicts itself"
        else:
            why = (
                f"practice against evidence {forward:.2f}, evidence against practice "
                f"{backward:.2f}, floor {self.floor:.2f}"
            )
        # A refused contradiction keeps the edge when the texts are related, so the overlay
        # still shows the pair, at half the confidence the typer had in its disagreement.
        return replace(
            typing,
            relation=Relation.EXTENDS if related(practice, evidence) else Relation.UNRELATED,
            confidence=round(typing.confidence * 0.5, 4),
            cue=ContradictionCue.NONE,
            rationale=(
                f"The {self.gate} stance gate refused a contradiction ({why}); the typer had "
                f"said: {typing.rationale}"
            ),
        )


def gated(
    typer: Typer, stance: StanceFn | None, *, floor: float | None = None, control: bool = False
) -> Typer:
    """Wrap `typer` so every `contradicts` must pass `stance` in both directions.

    Raises `ConfigError` when `stance` is None: an injected typer needs a stance classifier.
    `floor` defaults to the value tuned with the shipped model.
    """
    if stance is None:
        raise ConfigError("an injected typer needs a stance classifier")
    floor = default_floor() if floor is None else floor
    if not 0.0 <= floor <= 1.0:
        raise ConfigError(f"stance floor must lie in [0, 1], got {floor}")
    return GatedTyper(typer, stance, floor, control)


_STANCE_PROMPT = (
    "You judge whether statement A contradicts statement B: whether both cannot be true "
    "together (opposite direction, negation, a different value for the same quantity, no "
    "effect against an effect). Being about something else, or adding a condition, is not a "
    'contradiction. Answer with one JSON object and nothing else: {"contradicts": a number '
    'from 0 to 1, the probability that A contradicts B, "rationale": one sentence}.'
)
MODEL_FLOOR = 0.5


class ModelStance:
    """A stance function that asks an OpenAI-compatible chat model; a failure counts as 0."""

    def __init__(self, chat: ChatModel) -> None:
        self.chat = chat

    def __call__(self, a: str, b: str) -> float:
        messages = [
            {"role": "system", "content": _STANCE_PROMPT},
            {"role": "user", "content": f"A:\n{a}\n\nB:\n{b}"},
        ]
        try:
            reply = self.chat.complete(messages, json_mode=True)
        except Exception:  # the seam promises not to raise; a failed question refuses
            return 0.0
        if not reply.ok:
            return 0.0
        try:
            data = json.loads(reply.text)
        except json.JSONDecodeError:
            return 0.0
        value = data.get("contradicts") if isinstance(data, dict) else None
        if isinstance(value, bool) or not isinstance(value, int | float):
            return 0.0
        return float(value) if math.isfinite(value) and 0.0 <= value <= 1.0 else 0.0


_PROMPT = (
    "You compare a team's practice statement with a note from the literature and say how "
    "the practice relates to the note. Answer with one JSON object and nothing else: "
    '{"relation": "supports" | "contradicts" | "extends" | "unrelated", '
    '"confidence": a number from 0 to 1, "rationale": one sentence naming the evidence '
    "in the note (the sentence, the opposite word, the differing number)}. "
    "supports: the note states the same thing in the same direction. contradicts: the note "
    "states the opposite direction, negates it, or gives a different value for the same "
    "quantity. extends: related, but adds a condition or population without agreeing or "
    "disagreeing. unrelated: about something else."
)


class ModelTyper:
    """A typer that asks an OpenAI-compatible chat model; failures come back as unrelated."""

    name = "openai"

    def __init__(self, chat: ChatModel) -> None:
        self.chat = chat

    def __call__(self, practice: str, canon: str) -> Typing:
        messages = [
            {"role": "system", "content": _PROMPT},
            {"role": "user", "content": f"PRACTICE:\n{practice}\n\nNOTE:\n{canon}"},
        ]
        try:
            reply = self.chat.complete(messages, json_mode=True)
        except Exception as exc:  # the seam promises not to raise; hold it to that here
            return Typing.failed(f"{type(exc).__name__}: {exc}")
        if not reply.ok:
            return Typing.failed(reply.error or "no reply")
        try:
            relation, confidence, rationale = _parse(reply.text)
        except ValueError as exc:
            return Typing.failed(str(exc))
        return Typing(relation, confidence, rationale, best_sentence(practice, canon))


def _parse(text: str) -> tuple[Relation, float, str]:
    """The three fields of a model reply, or ValueError naming what is wrong."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"reply is not JSON ({exc.msg})") from None
    if not isinstance(data, dict):
        raise ValueError("reply is not a JSON object")
    extra = set(data) - {"relation", "confidence", "rationale"}
    if extra:
        raise ValueError(f"unexpected field(s): {', '.join(sorted(extra))}")
    relation = member(Relation, data.get("relation"))
    if relation is None:
        raise ValueError(f"unknown relation {data.get('relation')!r}")
    confidence = data.get("confidence")
    if isinstance(confidence, bool) or not isinstance(confidence, int | float):
        raise ValueError("confidence is not a number")
    if not (math.isfinite(confidence) and 0.0 <= confidence <= 1.0):
        raise ValueError(f"confidence {confidence} is outside [0, 1]")
    rationale = data.get("rationale")
    if not isinstance(rationale, str) or not rationale.strip():
        raise ValueError("rationale is missing or empty")
    return relation, float(confidence), rationale.strip()


# A typer by registered name (`offline`, `openai`) or a typer object itself.
TyperSpec = str | Typer
TyperFactory = Callable[[], Typer]
TYPERS: Registry[TyperFactory] = Registry("typer", plugins=PLUGIN_GROUPS["typer"])


def register(name: str, factory: TyperFactory) -> None:
    """Make `make_typer(name)` build a typer with `factory` (replacing any earlier one)."""
    TYPERS.register(name, factory)


def model_typer(chat: ChatModel) -> GatedTyper:
    """A model typer on `chat`, gated by the same model in both directions, with the control."""
    return GatedTyper(ModelTyper(chat), ModelStance(chat), MODEL_FLOOR, control=True)


def gate_for(typer: Typer) -> Typer:
    """`typer` behind its gate: a model typer's own model, else the offline classifier.

    A typer that is gated already is returned as it is.
    """
    if isinstance(typer, GatedTyper):
        return typer
    if isinstance(typer, ModelTyper):
        return model_typer(typer.chat)
    if isinstance(typer, ReaderTyper):
        # The reader is its own gate: the offline classifier would refuse the paraphrased
        # contradictions it was trained to find, which its out-of-fold bands already price.
        return GatedTyper(typer, ReaderStance(typer.reader), reader_bands()[0].low)
    return gated(typer, offline_stance)


def make_typer(name: str, *, registry: Registry[TyperFactory] | None = None) -> Typer:
    """The named typer from `registry` (`TYPERS` by default) behind its stance gate.

    See `gate_for`. Raises `ConfigError` for an unknown name, or when the model typer's
    endpoint is not configured.
    """
    typers = TYPERS if registry is None else registry
    factory = typers.get(name)
    if factory is None:
        known = ", ".join(typers.names())
        raise ConfigError(f"unknown typer {name!r}; known typers: {known}")
    return gate_for(factory())


def _openai_typer() -> Typer:
    return ModelTyper(OpenAIChat(LLMConfig.from_env()))


register("offline", OfflineTyper)
register("openai", _openai_typer)
register("reader", reader_typer)

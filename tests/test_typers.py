import json
from collections.abc import Callable
from typing import Any

import pytest

from engine.core.errors import ConfigError
from engine.core.registry import Registry
from engine.models.llm import ChatReply, LLMConfig, OpenAIChat
from engine.review.typers import (
    TYPERS,
    GatedTyper,
    ModelStance,
    ModelTyper,
    Relation,
    TyperFactory,
    Typing,
    gate_for,
    gated,
    make_typer,
    model_typer,
    offline_stance,
)
from tests.chat_server import (
    ChatServer,
    chat_server_fixture,  # noqa: F401 (registers the chat_server fixture)
    reply,
)

PRACTICE = "We give statins because statin therapy reduces major cardiovascular events."
CANON = (
    "Statins and outcomes.\n\nStatin therapy reduced the incidence of major cardiovascular "
    "events by 25% compared with placebo. Adverse events were rare."
)
EVIDENCE = (
    "Statin therapy reduced the incidence of major cardiovascular events by 25% compared "
    "with placebo."
)


class Fixed:
    """A typer that always answers the same typing."""

    name = "fixed"

    def __init__(self, typing: Typing) -> None:
        self.typing = typing

    def __call__(self, practice: str, canon: str) -> Typing:
        return self.typing


class Scripted:
    """A chat model that replays scripted replies and keeps the conversations it was sent."""

    def __init__(self, *replies: ChatReply | str | Exception) -> None:
        self.replies = list(replies)
        self.sent: list[list[dict[str, Any]]] = []

    def complete(self, messages: list[dict[str, Any]], *, json_mode: bool = True) -> ChatReply:
        self.sent.append(messages)
        step = self.replies.pop(0)
        if isinstance(step, Exception):
            raise step
        return step if isinstance(step, ChatReply) else ChatReply.answered(step)


def stance_table(
    forward: float, backward: float
) -> tuple[Callable[[str, str], float], list[tuple[str, str]]]:
    calls: list[tuple[str, str]] = []

    def stance(a: str, b: str) -> float:
        calls.append((a, b))
        return forward if a == PRACTICE else backward

    return stance, calls


CONTRADICTION = Typing(Relation.CONTRADICTS, 0.9, "it says the opposite", EVIDENCE)


@pytest.mark.parametrize(
    ("forward", "backward", "expected"),
    [
        (0.9, 0.8, Relation.CONTRADICTS),
        (0.9, 0.1, Relation.EXTENDS),
        (0.1, 0.9, Relation.EXTENDS),
        (0.5, 0.5, Relation.CONTRADICTS),
    ],
    ids=["both-above", "backward-below", "forward-below", "at-the-floor"],
)
def test_the_gate_needs_both_directions_above_the_floor(
    forward: float, backward: float, expected: Relation
) -> None:
    stance, calls = stance_table(forward, backward)
    typing = gated(Fixed(CONTRADICTION), stance, floor=0.5)(PRACTICE, CANON)
    assert typing.relation is expected
    assert calls == [(PRACTICE, EVIDENCE), (EVIDENCE, PRACTICE)]
    if expected is not Relation.CONTRADICTS:
        assert "stance gate refused" in typing.rationale
        assert typing.evidence == EVIDENCE and typing.confidence < CONTRADICTION.confidence


def test_a_refused_contradiction_on_unrelated_text_becomes_unrelated() -> None:
    typing = Typing(Relation.CONTRADICTS, 0.9, "model says so", "")
    refused = gated(Fixed(typing), lambda a, b: 0.0)("Bananas are yellow.", CANON)
    assert refused.relation is Relation.UNRELATED


@pytest.mark.parametrize(
    "relation", [Relation.SUPPORTS, Relation.EXTENDS, Relation.UNRELATED], ids=str
)
def test_the_gate_passes_other_relations_without_asking(relation: Relation) -> None:
    stance, calls = stance_table(0.0, 0.0)
    typing = Typing(relation, 0.7, "whatever", EVIDENCE)
    assert gated(Fixed(typing), stance, floor=0.5)(PRACTICE, CANON) == typing
    assert calls == []


def test_an_injected_typer_without_a_stance_classifier_is_refused() -> None:
    with pytest.raises(ConfigError, match="needs a stance classifier"):
        gated(Fixed(CONTRADICTION), None)


def test_a_floor_outside_zero_to_one_is_refused() -> None:
    with pytest.raises(ConfigError, match="floor"):
        gated(Fixed(CONTRADICTION), lambda a, b: 1.0, floor=1.5)


def test_the_registry_hands_out_gated_typers() -> None:
    registry = TYPERS.copy()
    registry.register("fixed", lambda: Fixed(CONTRADICTION))
    assert {"offline", "openai"} <= set(TYPERS)
    typer = make_typer("fixed", registry=registry)
    assert isinstance(typer, GatedTyper) and typer.name == "fixed"
    offline = make_typer("offline", registry=registry)
    assert isinstance(offline, GatedTyper) and offline.name == "offline"
    assert "fixed" not in TYPERS


def test_register_adds_a_typer() -> None:
    registry: Registry[TyperFactory] = Registry("typer")
    registry.register("another", lambda: Fixed(CONTRADICTION))
    assert make_typer("another", registry=registry).name == "fixed"
    with pytest.raises(ConfigError, match="known typers: another"):
        make_typer("offline", registry=registry)


def test_an_unknown_typer_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match=r"unknown typer 'nope'.*offline"):
        make_typer("nope")


def test_the_model_typer_needs_an_endpoint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SYNAPSE_LLM_BASE_URL", raising=False)
    with pytest.raises(ConfigError, match="SYNAPSE_LLM_BASE_URL"):
        make_typer("openai")
    monkeypatch.setenv("SYNAPSE_LLM_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("SYNAPSE_LLM_MODEL", "some-model")
    typer = make_typer("openai")
    assert isinstance(typer, GatedTyper) and isinstance(typer.typer, ModelTyper)


def answer(
    relation: str = "supports",
    confidence: object = 0.8,
    rationale: str = "The note says the same.",
    **extra: Any,
) -> str:
    fields = {"relation": relation, "confidence": confidence, "rationale": rationale}
    return json.dumps(fields | extra)


@pytest.mark.parametrize(
    ("step", "reason"),
    [
        ("not json at all", "not JSON"),
        ('["supports", 0.8]', "not a JSON object"),
        (answer(relation="agrees"), "unknown relation 'agrees'"),
        (answer(confidence=1.5), "outside [0, 1]"),
        (answer(confidence="high"), "not a number"),
        (answer(confidence=True), "not a number"),
        (answer(rationale="  "), "rationale"),
        (answer(evidence="x"), "unexpected field(s): evidence"),
        (ChatReply.failed("endpoint timed out after 30.0 s"), "timed out"),
        (RuntimeError("socket closed"), "RuntimeError: socket closed"),
    ],
    ids=[
        "not-json",
        "not-an-object",
        "unknown-relation",
        "confidence-out-of-range",
        "confidence-not-a-number",
        "confidence-bool",
        "blank-rationale",
        "extra-field",
        "endpoint-failed",
        "client-raised",
    ],
)
def test_the_model_typer_turns_every_failure_into_unrelated(
    step: ChatReply | str | Exception, reason: str
) -> None:
    typing = ModelTyper(Scripted(step))(PRACTICE, CANON)
    assert typing.relation is Relation.UNRELATED and typing.confidence == 0.0
    assert typing.rationale.startswith("model typer failed: ")
    assert reason in typing.rationale


def test_the_model_typer_reads_a_valid_reply_and_finds_the_evidence() -> None:
    chat = Scripted(answer("supports", 0.75, "Both say statins reduce events."))
    typing = ModelTyper(chat)(PRACTICE, CANON)
    assert typing == Typing(Relation.SUPPORTS, 0.75, "Both say statins reduce events.", EVIDENCE)
    system, user = chat.sent[0]
    assert "relation" in system["content"] and PRACTICE in user["content"]
    assert CANON in user["content"]


@pytest.mark.parametrize(
    ("practice", "expected"),
    [
        ("Statin therapy increases major cardiovascular events.", Relation.CONTRADICTS),
        (PRACTICE, Relation.EXTENDS),
    ],
    ids=["real-disagreement-passes", "invented-disagreement-is-refused"],
)
def test_the_model_typer_behind_the_offline_gate(practice: str, expected: Relation) -> None:
    chat = Scripted(answer("contradicts", 0.9, "They disagree."))
    assert gated(ModelTyper(chat), offline_stance)(practice, CANON).relation is expected


def test_the_model_typer_over_http_asks_for_json(chat_server: ChatServer) -> None:
    chat_server.script(reply(answer("extends", 0.6, "Adds an age group.")))
    chat = OpenAIChat(LLMConfig(chat_server.base_url, "test-model", timeout_s=5))
    typing = ModelTyper(chat)(PRACTICE, CANON)
    assert typing.relation is Relation.EXTENDS and typing.confidence == 0.6
    assert chat_server.chat_requests[0].body["response_format"] == {"type": "json_object"}


def stance_reply(p: float) -> str:
    return json.dumps({"contradicts": p, "rationale": "scripted"})


def test_the_registry_gates_the_model_typer_with_the_model(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SYNAPSE_LLM_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("SYNAPSE_LLM_MODEL", "some-model")
    typer = make_typer("openai")
    assert isinstance(typer, GatedTyper) and isinstance(typer.stance, ModelStance)
    assert typer.control and typer.gate == "model"
    offline = make_typer("offline")
    assert isinstance(offline, GatedTyper)
    assert offline.stance is offline_stance and offline.gate == "offline"
    assert gate_for(typer) is typer


@pytest.mark.parametrize(
    ("stances", "expected"),
    [
        ((0.9, 0.8, 0.0), Relation.CONTRADICTS),
        ((0.9, 0.2, 0.0), Relation.EXTENDS),
        ((0.1, 0.9, 0.0), Relation.EXTENDS),
        ((0.9, 0.9, 0.9), Relation.EXTENDS),
    ],
    ids=["both-directions-agree", "backward-refuses", "forward-refuses", "fails-the-control"],
)
def test_the_model_gate_over_http_asks_both_directions_and_a_control(
    chat_server: ChatServer, stances: tuple[float, float, float], expected: Relation
) -> None:
    # A practice the offline classifier would never call a contradiction of the note: the
    # model gate decides alone.
    chat_server.script(
        reply(answer("contradicts", 0.9, "They disagree.")),
        *(reply(stance_reply(p)) for p in stances),
    )
    chat = OpenAIChat(LLMConfig(chat_server.base_url, "test-model", timeout_s=5))
    typing = model_typer(chat)(PRACTICE, CANON)
    assert typing.relation is expected
    asked = [r.body["messages"][1]["content"] for r in chat_server.chat_requests[1:]]
    assert asked[0] == f"A:\n{PRACTICE}\n\nB:\n{EVIDENCE}"
    assert asked[1] == f"A:\n{EVIDENCE}\n\nB:\n{PRACTICE}"
    if stances[0] >= 0.5 and stances[1] >= 0.5:
        assert asked[2] == f"A:\n{EVIDENCE}\n\nB:\n{EVIDENCE}"  # the control
    else:
        assert len(asked) == 2
    if expected is not Relation.CONTRADICTS:
        assert "model stance gate refused" in typing.rationale


def test_a_model_that_calls_everything_a_contradiction_flags_nothing(
    chat_server: ChatServer,
) -> None:
    # The model types every pair a contradiction and says every text contradicts any other,
    # itself included: the control catches it, so not one contradiction stands.
    everything = json.dumps({"contradicts": 1.0, "rationale": "always"})
    chat = OpenAIChat(LLMConfig(chat_server.base_url, "test-model", timeout_s=5))
    typer = model_typer(chat)
    pairs = [(PRACTICE, CANON), ("Bananas are yellow.", CANON), (EVIDENCE, CANON)]
    typed = []
    for practice, canon in pairs:
        chat_server.script(reply(answer("contradicts", 1.0, "Opposite.")))
        chat_server.script(*(reply(everything) for _ in range(3)))
        typed.append(typer(practice, canon))
    assert all(t.relation is not Relation.CONTRADICTS for t in typed)
    assert all("contradicts itself" in t.rationale for t in typed)


def test_a_failing_model_gate_refuses(chat_server: ChatServer) -> None:
    chat_server.script(reply(answer("contradicts", 0.9, "They disagree.")), reply("not json"))
    chat = OpenAIChat(LLMConfig(chat_server.base_url, "test-model", timeout_s=5))
    assert model_typer(chat)(PRACTICE, CANON).relation is not Relation.CONTRADICTS


def test_the_offline_typer_keeps_its_offline_gate_over_http_free_paths() -> None:
    # The offline path never asks a model: its gate is the offline classifier.
    typer = make_typer("offline")
    flipped = "Statin therapy increases the incidence of major cardiovascular events."
    typing = typer(flipped, CANON)
    assert isinstance(typer, GatedTyper)
    assert typer.stance is offline_stance
    assert typing.relation in (Relation.CONTRADICTS, Relation.EXTENDS)
    if typing.relation is Relation.CONTRADICTS:
        assert typing.cue.value != "none" and "calibrated" in typing.rationale

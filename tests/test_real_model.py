"""The model path against a real local model: llama.cpp serving SmolLM2-135M on 127.0.0.1.

Run by `make test-model` (not part of `make test`). A 135M model is useless as a reader,
which is the point: its replies are real and messy, and every one must route or abstain
with a labelled reason, nothing may crash, and every call must end within its deadline.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.api import OpenWorkspace, ask, open_workspace
from engine.models.llm import LLMConfig, OpenAIChat
from engine.navigation.outcomes import FailureKind
from engine.navigation.reasoners.model_reasoner import ModelReasoner
from engine.review.overlay import build_overlay, note_text
from engine.review.relations import Relation
from engine.review.synthesis import ModelSynthesizer, cell_material, synthesize
from engine.review.typers import model_typer

pytestmark = pytest.mark.model
ROOT = Path(__file__).resolve().parent.parent
DEADLINE_S = 60.0
START_S = 180.0
QUESTIONS = [
    "Did momentum returns survive transaction costs?",
    "What does the knowledge base say about the 12-1 momentum signal?",
    "Is the rebalance rule to reduce exposure when volatility is high?",
]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """The base URL of a llama.cpp server this module started, stopped after it."""
    pytest.importorskip("xllamacpp", reason="make test-model installs xllamacpp")
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.model_server", str(port)],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    started = time.monotonic()
    try:
        while True:
            if proc.poll() is not None:
                pytest.fail(f"the model server exited with {proc.returncode}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as r:
                    if r.status == 200:
                        break
            except (urllib.error.URLError, OSError):
                pass
            if time.monotonic() - started > START_S:
                pytest.fail("the model server did not become healthy in time")
            time.sleep(0.5)
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _chat(base_url: str, *, timeout_s: float = DEADLINE_S, max_tokens: int = 256) -> OpenAIChat:
    return OpenAIChat(
        LLMConfig(base_url, "smollm2-135m", timeout_s=timeout_s, max_tokens=max_tokens)
    )


@pytest.mark.parametrize("question", QUESTIONS, ids=["claim", "topic", "rule"])
def test_the_model_reasoner_routes_or_abstains_with_a_reason(
    server: str, lab: OpenWorkspace, question: str
) -> None:
    started = time.monotonic()
    result = ask(lab, question, reasoner=ModelReasoner(_chat(server)))
    spent = time.monotonic() - started
    # One try and one retry, each within its deadline, plus the walk.
    assert spent < 2 * DEADLINE_S + 30
    assert result.label in ("ANSWER", "HEDGED ANSWER", "ABSTAIN")
    if result.decision is None:
        assert result.failure, "an abstention without a decision names its reason"
    elif result.label == "ABSTAIN":
        assert result.decision.reasons or result.failure
    else:  # the router found nothing to object to in what the model wrote
        assert not result.decision.honesty_violations


def test_a_deadline_shorter_than_the_reply_abstains_on_time(
    server: str, lab: OpenWorkspace
) -> None:
    started = time.monotonic()
    result = ask(
        lab,
        QUESTIONS[0],
        reasoner=ModelReasoner(_chat(server, timeout_s=0.5, max_tokens=2048)),
    )
    assert time.monotonic() - started < 20
    assert result.label == "ABSTAIN"
    assert result.failure is not None and result.failure.kind is FailureKind.ENDPOINT
    assert "timed out" in result.failure.detail


def test_the_model_typer_types_every_pair_or_says_why_not(server: str, lab: OpenWorkspace) -> None:
    typer = model_typer(_chat(server, max_tokens=128))
    workspace = lab.workspace
    practice = [n for n in workspace.notes.values() if n.store.value == "mem"][:2]
    canon = [n for n in workspace.notes.values() if n.store.value == "zk"][:2]
    for entry in practice:
        for note in canon:
            started = time.monotonic()
            typing = typer(note_text(entry), note_text(note))
            assert time.monotonic() - started < 4 * DEADLINE_S
            assert typing.relation in Relation
            assert 0.0 <= typing.confidence <= 1.0
            assert typing.rationale.strip()


def test_model_briefs_are_kept_and_checked_never_trusted(server: str, lab_path: Path) -> None:
    opened = open_workspace(lab_path)
    try:
        overlay = build_overlay(opened)
        synth = ModelSynthesizer(_chat(server, max_tokens=256))
        materials = [m for m in (cell_material(opened, e) for e in overlay.edges[:3]) if m]
        assert materials
        for material in materials:
            brief = synthesize(material, synth)
            assert brief.verified == brief.check.ok
            if not brief.verified:
                assert brief.check.detail
    finally:
        opened.close()

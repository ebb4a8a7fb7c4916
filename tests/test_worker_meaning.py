"""The app's worker answers on words at once and on meaning once the vectors are built."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from engine.api import ask
from engine.models.encoder import EncoderChoice
from engine.workspace.opened import Worker, open_workspace
from tests.workspaces import make_workspace

QUESTION = (
    "Does buying past winners and selling past losers generate abnormal returns over 3 to 12 "
    "month holding periods?"
)


def untimed(answer: dict[str, Any]) -> dict[str, Any]:
    """The answer's JSON without what the clock says (latencies), which no two runs share."""
    answer.pop("latency_ms", None)
    answer["trace"] = [{k: v for k, v in step.items() if k != "ms"} for step in answer["trace"]]
    return answer


class _Gated:
    """A user's encoder that encodes only once let go: the build is held mid-way."""

    name = "gated"
    fingerprint = "gated:1"
    dim = 2

    def __init__(self) -> None:
        self.go = threading.Event()

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        self.go.wait(120)
        return np.array([[1.0, 0.0] if "momentum" in t else [0.0, 1.0] for t in texts], np.float32)


def test_words_first_then_the_same_answers_as_a_full_open(tmp_path: Path) -> None:
    root = make_workspace(tmp_path, "momentum-lab")
    encoder = _Gated()
    worker = Worker(str(root), encoder=EncoderChoice(encoder))
    try:
        assert worker.ready(wait=120) and worker.failure() is None
        held = worker.opened
        assert held.meaning.semantic is None
        assert "use words alone until they are ready" in held.meaning_notice
        assert worker.meaning.building and not worker.meaning.ready
        assert ask(held, QUESTION).decision is not None  # answers while the build is held

        encoder.go.set()
        assert worker.wait_meaning(120)
        ready = worker.opened
        assert ready.meaning.semantic is not None and not ready.meaning_notice.startswith(
            "sentence vectors being"
        )
        built = untimed(ask(ready, QUESTION).to_dict())
    finally:
        worker.close()
    full = open_workspace(root, encoder=EncoderChoice(encoder))
    try:
        assert untimed(ask(full, QUESTION).to_dict()) == built
        assert full.meaning.stats is not None and full.meaning.stats.encoded == 0  # all kept
    finally:
        full.close()


def test_without_an_encoder_nothing_is_built_and_the_notice_says_why(tmp_path: Path) -> None:
    root = make_workspace(tmp_path, "momentum-lab")
    worker = Worker(str(root), encoder=EncoderChoice(None, "sentence encoder off"))
    try:
        assert worker.ready(wait=120)
        assert worker.meaning.ready and not worker.meaning.building
        assert worker.opened.meaning_notice.startswith("sentence encoder off")
    finally:
        worker.close()

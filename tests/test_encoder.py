"""The sentence encoder: the real MiniLM ONNX session, its seam, and what happens without it."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

import numpy as np
import pytest

from engine.core.environment import ENV_MINILM_MODEL as ENV_MODEL
from engine.core.errors import EncoderUnavailable
from engine.core.registry import Registry
from engine.models.encoder import (
    ENCODERS,
    Encoder,
    EncoderFactory,
    lexical_notice,
    load_encoder,
)
from engine.models.minilm import MiniLM

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def minilm() -> Encoder:
    choice = load_encoder("minilm")
    assert choice.encoder is not None, choice.notice
    return choice.encoder


def test_the_builtin_is_registered_like_any_encoder() -> None:
    assert "minilm" in ENCODERS.names()


def test_a_sentence_is_its_own_nearest_and_a_paraphrase_beats_an_unrelated_sentence(
    minilm: Encoder,
) -> None:
    texts = [
        "Statin use is associated with a lower risk of hip fracture in older adults.",
        "Older people who take statins break their hips less often.",
        "The stock market fell sharply on Monday.",
    ]
    v = minilm.encode(texts)
    assert v.shape == (3, minilm.dim) and v.dtype == np.float32
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)
    cos = v @ v.T
    assert cos[0, 1] > 0.6 > 0.1 > cos[0, 2]


@pytest.mark.parametrize(
    "others",
    [[], ["short"], ["a much longer sentence " * 20], ["x"] * 40],
    ids=["alone", "with-short", "with-long-padding", "in-a-second-batch"],
)
def test_a_vector_does_not_depend_on_the_rest_of_its_call(
    minilm: Encoder, others: list[str]
) -> None:
    # Padding and batching must not leak into a sentence's vector (the shipped tokenizer
    # pads to 128 unless told not to; a mean over padding would shift every vector).
    text = "Vitamin D supplementation reduces the risk of falls."
    alone = minilm.encode([text])[0]
    mixed = minilm.encode([*others, text, *others])[len(others)]
    assert np.array_equal(alone, mixed)


def test_the_same_text_gives_the_same_bits_every_time(minilm: Encoder) -> None:
    text = "Aspirin lowers the risk of colorectal cancer."
    assert minilm.encode([text])[0].tobytes() == minilm.encode([text])[0].tobytes()


def test_a_text_over_the_token_limit_is_truncated_not_refused(minilm: Encoder) -> None:
    v = minilm.encode(["word " * 2000])
    assert np.isclose(np.linalg.norm(v[0]), 1.0, atol=1e-5)


def test_a_swapped_model_file_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = tmp_path / "model.onnx"
    fake.write_bytes(b"not the pinned model")
    monkeypatch.setenv(ENV_MODEL, str(fake))
    with pytest.raises(EncoderUnavailable, match="not the pinned file"):
        MiniLM.load()


class _Fixed:
    """A user's encoder: two fixed directions, enough to show the seam works."""

    name = "fixed"
    fingerprint = "fixed:1"
    dim = 2

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        return np.array([[1.0, 0.0] if "a" in t else [0.0, 1.0] for t in texts], np.float32)


def _unavailable() -> NoReturn:
    raise EncoderUnavailable("its weights are not installed")


def _broken() -> NoReturn:
    raise RuntimeError("the runtime crashed")


@pytest.mark.parametrize(
    ("name", "notice"),
    [
        ("none", "sentence encoder off"),
        ("nowhere", "unknown sentence encoder 'nowhere'"),
        ("missing", "unavailable: its weights are not installed"),
        ("broken", "failed to load: RuntimeError"),
    ],
    ids=["turned-off", "unknown", "unavailable", "broken-runtime"],
)
def test_without_an_encoder_the_product_says_it_uses_words_alone(name: str, notice: str) -> None:
    registry: Registry[EncoderFactory] = Registry(
        "encoder", {"missing": _unavailable, "broken": _broken}
    )
    choice = load_encoder(name, registry=registry)
    assert choice.encoder is None and notice in choice.notice
    assert lexical_notice(choice).endswith("retrieval and relevance use words alone")


def test_a_registered_encoder_is_used_by_name() -> None:
    registry = ENCODERS.copy()
    registry.register("fixed", _Fixed)
    choice = load_encoder("fixed", registry=registry)
    assert choice.name == "fixed" and lexical_notice(choice) == ""


def test_loading_the_encoder_writes_nothing_under_home(tmp_path: Path) -> None:
    # onnxruntime's telemetry keeps an event store under ~/.cache unless it is turned off.
    home = tmp_path / "home"
    home.mkdir()
    env = {**os.environ, "HOME": str(home), "XDG_CACHE_HOME": str(home / ".cache")}
    env.pop("ORT_DISABLE_TELEMETRY", None)
    code = "from engine.models.minilm import MiniLM; MiniLM.load().encode(['A sentence.'])"
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, timeout=300
    )
    assert done.returncode == 0, done.stderr.decode()
    assert list(home.rglob("*")) == []

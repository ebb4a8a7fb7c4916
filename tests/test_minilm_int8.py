"""The encoder's integer model: derived from the pinned file, kept outside workspaces, checked."""

from __future__ import annotations

import hashlib
import sys

import numpy as np
import pytest

from engine.core.encoder import EncoderChoice
from engine.core.minilm import ENV_FLOAT, FLOAT, INTEGER, MiniLM
from engine.core.minilm_int8 import DERIVED_SHA256, derived_path
from engine.workspace.semantic import open_meaning

TEXTS = [
    "Vitamin D supplementation reduces the risk of falls in older women.",
    "Statin use is associated with a lower risk of hip fracture.",
]


@pytest.fixture
def state(tmp_path, monkeypatch):
    monkeypatch.setenv("SYNAPSE_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.delenv(ENV_FLOAT, raising=False)
    return tmp_path / "state"


def _kept(state) -> list:
    return sorted((state / "encoder").glob("*.onnx"))


def test_the_integer_model_is_derived_once_into_the_state_folder(state):
    first = MiniLM.load()
    assert first.products == INTEGER and first.fingerprint.endswith(":int8mm")
    [kept] = _kept(state)
    assert hashlib.sha256(kept.read_bytes()).hexdigest() == DERIVED_SHA256
    stamp = kept.stat().st_mtime_ns
    again = MiniLM.load()
    assert kept.stat().st_mtime_ns == stamp
    assert np.array_equal(first.encode(TEXTS), again.encode(TEXTS))


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: data[:-1000],
        lambda data: data[:5000] + bytes([data[5000] ^ 1]) + data[5001:],
        lambda data: b"",
    ],
    ids=["truncated", "one-bit-flipped", "emptied"],
)
def test_a_tampered_derived_model_is_refused_and_derived_again(state, damage):
    before = MiniLM.load().encode(TEXTS)
    [kept] = _kept(state)
    kept.write_bytes(damage(kept.read_bytes()))
    after = MiniLM.load()
    assert after.products == INTEGER
    assert hashlib.sha256(kept.read_bytes()).hexdigest() == DERIVED_SHA256
    assert np.array_equal(after.encode(TEXTS), before)


def test_without_onnx_the_pinned_file_runs_as_before_under_its_old_fingerprint(state, monkeypatch):
    monkeypatch.setitem(sys.modules, "onnx", None)  # `import onnx` now fails
    encoder = MiniLM.load()
    assert encoder.products == FLOAT and "onnx package is not installed" in encoder.notice
    assert not encoder.fingerprint.endswith(":int8mm")
    assert _kept(state) == []


def test_a_kept_derived_model_needs_no_onnx(state, monkeypatch):
    MiniLM.load()
    monkeypatch.setitem(sys.modules, "onnx", None)
    assert MiniLM.load().products == INTEGER


def test_float_and_integer_products_mean_the_same_but_are_never_mixed(state, monkeypatch):
    integer = MiniLM.load()
    monkeypatch.setenv(ENV_FLOAT, "1")
    folded = MiniLM.load()
    assert folded.products == FLOAT and folded.fingerprint != integer.fingerprint
    agreement = (integer.encode(TEXTS) * folded.encode(TEXTS)).sum(axis=1)
    assert agreement.min() > 0.98


def test_the_derived_model_lives_outside_every_workspace(state):
    assert derived_path("ab" * 32).is_relative_to(state)


@pytest.mark.parametrize("products", [INTEGER, FLOAT], ids=["integer", "float"])
def test_either_way_a_vector_does_not_depend_on_the_rest_of_its_call(state, monkeypatch, products):
    # Integer products quantise each run's activations with one scale: were sentences run
    # together, a neighbour would move a sentence's vector.
    monkeypatch.setenv(ENV_FLOAT, "1" if products == FLOAT else "0")
    encoder = MiniLM.load()
    assert encoder.products == products
    alone = encoder.encode([TEXTS[0]])[0]
    for others in (["x"], ["a much longer sentence " * 20], ["short"] * 40):
        assert np.array_equal(encoder.encode([*others, TEXTS[0], *others])[len(others)], alone)


def test_without_onnx_the_workspace_says_how_the_encoder_runs(state, monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "onnx", None)
    meaning = open_meaning(tmp_path, [], EncoderChoice(MiniLM.load()))
    assert "float32 matrix products" in meaning.notice and "gate" in meaning.notice

"""The encoder's int8 embedding tables: derived from the pinned file, kept outside workspaces,
checked before use, and giving the pinned file's vectors bit for bit."""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from engine.core.environment import ENV_MINILM_FOLDED as ENV_FOLDED
from engine.models.minilm import MiniLM
from engine.models.minilm_int8 import DERIVED_SHA256, derived_path

TEXTS = [
    "Vitamin D supplementation reduces the risk of falls in older women.",
    "Statin use is associated with a lower risk of hip fracture.",
    "word " * 300,
]


@pytest.fixture
def state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SYNAPSE_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.delenv(ENV_FOLDED, raising=False)
    return tmp_path / "state"


@pytest.fixture(scope="module")
def folded() -> np.ndarray:
    """The pinned file run as it is: every weight folded into float32 by onnxruntime."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(ENV_FOLDED, "1")
        encoder = MiniLM.load()
    assert encoder.tables == "float32"
    return encoder.encode(TEXTS)


def _kept(state: Path) -> list[Path]:
    return sorted((state / "encoder").glob("*.onnx"))


def test_int8_tables_give_the_pinned_files_vectors_bit_for_bit(
    state: Path, folded: np.ndarray
) -> None:
    encoder = MiniLM.load()
    assert encoder.tables == "int8"
    assert encoder.encode(TEXTS).tobytes() == folded.tobytes()


def test_the_derived_model_is_made_once_into_the_state_folder(state: Path) -> None:
    first = MiniLM.load()
    [kept] = _kept(state)
    assert kept.name.startswith("minilm-int8-tables-8199be6f699a395f")
    assert hashlib.sha256(kept.read_bytes()).hexdigest() == DERIVED_SHA256
    stamp = kept.stat().st_mtime_ns
    again = MiniLM.load()
    assert kept.stat().st_mtime_ns == stamp and again.fingerprint == first.fingerprint


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: data[:-1000],
        lambda data: data[:5000] + bytes([data[5000] ^ 1]) + data[5001:],
        lambda data: b"",
    ],
    ids=["truncated", "one-bit-flipped", "emptied"],
)
def test_a_tampered_derived_model_is_refused_and_derived_again(
    state: Path, folded: np.ndarray, damage: Callable[[bytes], bytes]
) -> None:
    MiniLM.load()
    [kept] = _kept(state)
    kept.write_bytes(damage(kept.read_bytes()))
    again = MiniLM.load()
    assert again.tables == "int8"
    assert hashlib.sha256(kept.read_bytes()).hexdigest() == DERIVED_SHA256
    assert again.encode(TEXTS).tobytes() == folded.tobytes()


def test_without_onnx_the_pinned_file_runs_as_it_is(
    state: Path, folded: np.ndarray, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "onnx", None)  # `import onnx` now fails
    encoder = MiniLM.load()
    assert encoder.tables == "float32" and _kept(state) == []
    assert encoder.encode(TEXTS).tobytes() == folded.tobytes()


def test_a_kept_derived_model_needs_no_onnx(state: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    MiniLM.load()
    monkeypatch.setitem(sys.modules, "onnx", None)
    assert MiniLM.load().tables == "int8"


@pytest.mark.parametrize("folded_env", ["0", "1"], ids=["int8-tables", "folded"])
def test_either_way_a_vector_does_not_depend_on_the_rest_of_its_call(
    state: Path, monkeypatch: pytest.MonkeyPatch, folded_env: str
) -> None:
    monkeypatch.setenv(ENV_FOLDED, folded_env)
    encoder = MiniLM.load()
    alone = encoder.encode([TEXTS[0]])[0]
    for others in (["x"], ["a much longer sentence " * 20], ["short"] * 40):
        assert np.array_equal(encoder.encode([*others, TEXTS[0], *others])[len(others)], alone)


def test_the_derived_model_lives_in_the_state_folder(state: Path) -> None:
    assert derived_path("ab" * 32).is_relative_to(state)

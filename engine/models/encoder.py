"""The sentence-encoder seam: a registry of encoders, and the one this process uses.

An encoder turns sentences into unit vectors whose dot product says how close their meanings
are. It only ever proposes: retrieval uses it to find candidates, and the offline reasoner
to choose among them or to give up; what is green is decided by the router's licensing of
exact confirmed text, never by a similarity. Without an encoder (its packages absent, or
`SYNAPSE_ENCODER=none`) everything works on words alone, and `EncoderChoice.notice` says so.

The built-in `minilm` (all-MiniLM-L6-v2, int8 ONNX, `engine.models.minilm`) registers here the
same way a user's encoder would: `register("name", factory)`, where the factory returns an
`Encoder` or raises `EncoderUnavailable` with the reason.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from engine.core.environment import ENV_ENCODER, environment
from engine.core.errors import EncoderUnavailable
from engine.core.registry import Registry

DEFAULT_ENCODER = "minilm"
# Values of SYNAPSE_ENCODER that turn the encoder off.
OFF = frozenset({"", "none", "off", "lexical"})


class Encoder(Protocol):
    """Maps sentences to L2-normalised vectors, deterministically.

    `name` is the registered name; `fingerprint` identifies the model and its settings, so
    vectors made by another model (or another version of it) are never mixed with its own;
    `dim` is the vector length. `encode(texts)` returns a float32 array of shape
    (len(texts), dim) whose rows have unit length (a zero row for a text with no tokens),
    the same row for the same text whatever else is in the call. It may raise on a broken
    runtime; callers treat that as the encoder being absent.
    """

    name: str
    fingerprint: str
    dim: int

    def encode(self, texts: Sequence[str]) -> np.ndarray: ...


EncoderFactory = Callable[[], Encoder]
ENCODERS: Registry[EncoderFactory] = Registry("encoder")


def register(name: str, factory: EncoderFactory) -> None:
    """Register an encoder factory under `name` in `ENCODERS`, replacing any earlier one."""
    ENCODERS.register(name, factory)


@dataclass(frozen=True)
class EncoderChoice:
    """The encoder in use, or None with the `notice` saying why answers rest on words alone."""

    encoder: Encoder | None
    notice: str = ""

    @property
    def name(self) -> str:
        return self.encoder.name if self.encoder is not None else "lexical"


def chosen_name() -> str:
    """The encoder this process is asked to use: `$SYNAPSE_ENCODER`, else the built-in."""
    chosen = environment().encoder
    return DEFAULT_ENCODER if chosen is None else chosen


def load_encoder(
    name: str | None = None, *, registry: Registry[EncoderFactory] | None = None
) -> EncoderChoice:
    """The encoder `name` (default: `chosen_name()`), or lexical-only with the reason.

    An encoder holds a model in memory, so the built-in registry's encoders are made once
    per process and shared; a registry passed in (tests) is asked afresh every time.
    """
    name = chosen_name() if name is None else name.strip()
    if name.lower() in OFF:
        return EncoderChoice(None, f"sentence encoder off ({ENV_ENCODER}={name or 'none'})")
    if registry is not None:
        return _make(name, registry)
    with _lock:
        if name not in _loaded:
            _loaded[name] = _make(name, ENCODERS)
        return _loaded[name]


def _make(name: str, registry: Registry[EncoderFactory]) -> EncoderChoice:
    factory = registry.get(name)
    if factory is None:
        known = ", ".join(registry.names()) or "none registered"
        return EncoderChoice(None, f"unknown sentence encoder {name!r} (known: {known})")
    try:
        return EncoderChoice(factory())
    except EncoderUnavailable as exc:
        return EncoderChoice(None, f"sentence encoder {name!r} unavailable: {exc}")
    except Exception as exc:  # a broken runtime must leave the product working on words
        return EncoderChoice(
            None, f"sentence encoder {name!r} failed to load: {type(exc).__name__}: {exc}"
        )


_lock = threading.Lock()
_loaded: dict[str, EncoderChoice] = {}


def lexical_notice(choice: EncoderChoice) -> str:
    """The one line a command or page shows when answers rest on words alone, else ""."""
    if choice.encoder is not None:
        return ""
    return f"{choice.notice}; retrieval and relevance use words alone"


def _minilm() -> Encoder:
    # Imported only when chosen, so a command that never encodes never loads onnxruntime.
    from engine.models.minilm import MiniLM

    return MiniLM.load()


register(DEFAULT_ENCODER, _minilm)

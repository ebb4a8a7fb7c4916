"""MiniLM with int8 embedding tables: derived from the pinned file, kept, checked before use.

The pinned `model.onnx` stores every weight as int8 with a scale (a `Cast` and a `Mul` in
front of each use). onnxruntime folds those into float32 at load, and the word table alone
is 30,522 rows of 384 floats. This module rewrites the graph so both embedding lookups
gather int8 rows and their scales first and turn only those rows into floats: the same
multiplication on the same numbers, so the vectors are the same bits (tested), with about
40 MB less memory. The matrix products are left as they were: done as integers they would
be faster and smaller still, but the sentence vectors move (cosine 0.994 on average with
today's) and the relevance gate measured worse on held-out claims (docs/SPEC.md).

No weight is re-quantised and nothing is downloaded; the rewrite needs the `onnx` package
(`requirements-encoder.txt`). The derived file is a cache of the pinned one, kept with the
user's other derived state (`$SYNAPSE_STATE_DIR/encoder/`, never in a workspace), and
trusted only when its sha256 is `DERIVED_SHA256`: a missing, damaged or replaced file is
derived again, and a rewrite that does not give those exact bytes is not used at all.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

from engine.core.paths import state_dir

# sha256 of the derived model, as `derive` writes it from the pinned model with onnx 1.17.0.
DERIVED_SHA256 = "8850a1f3114ad4de6cbd6a14c99a0f5ac62307a2705fd6d5afaebcdc76402913"


class NotDerived(Exception):
    """The derived model cannot be had here; the message says why (the pinned file is used)."""


def derived_path(source_sha256: str) -> Path:
    """Where the model derived from the model with this sha256 is kept."""
    return state_dir() / "encoder" / f"minilm-int8-tables-{source_sha256[:16]}.onnx"


def int8_tables(source: bytes, source_sha256: str) -> bytes:
    """The derived model's bytes: the kept file when its sha256 holds, else derived anew."""
    path = derived_path(source_sha256)
    try:
        kept = path.read_bytes()
    except OSError:
        kept = b""
    if kept and hashlib.sha256(kept).hexdigest() == DERIVED_SHA256:
        return kept
    data = derive(source)
    if hashlib.sha256(data).hexdigest() != DERIVED_SHA256:
        raise NotDerived("the rewrite did not give the pinned derived model (another onnx?)")
    _keep(path, data)
    return data


def derive(source: bytes) -> bytes:
    """The pinned model with its embedding lookups gathering int8 rows before scaling them."""
    try:
        import onnx
        from onnx import helper
    except ImportError:
        raise NotDerived("the onnx package is not installed") from None
    model = onnx.load_from_string(source)
    graph = model.graph
    inits = {i.name for i in graph.initializer}
    made = {out: node for node in graph.node for out in node.output}
    readers: dict[str, int] = defaultdict(int)
    for node in graph.node:
        for name in node.input:
            readers[name] += 1

    def dequantised(name: str) -> tuple[Any, Any, str, str] | None:
        """The (Cast, Mul, int8 table, row scales) that make float table `name`, if they do."""
        mul = made.get(name)
        if mul is None or mul.op_type != "Mul" or readers[name] != 1:
            return None
        cast = made.get(mul.input[0])
        if cast is None or cast.op_type != "Cast":
            return None
        if cast.input[0] not in inits or mul.input[1] not in inits:
            return None
        return cast, mul, cast.input[0], mul.input[1]

    dropped: set[str] = set()
    swapped: dict[str, list[Any]] = {}
    for node in graph.node:
        if node.op_type != "Gather" or (found := dequantised(node.input[0])) is None:
            continue
        cast, mul, table, scale = found
        out, ids = node.output[0], node.input[1]
        swapped[node.name] = [
            helper.make_node("Gather", [table, ids], [out + "_q"], name=out + "_q", axis=0),
            helper.make_node("Gather", [scale, ids], [out + "_s"], name=out + "_s", axis=0),
            helper.make_node("Cast", [out + "_q"], [out + "_f"], name=out + "_f", to=1),
            helper.make_node("Mul", [out + "_f", out + "_s"], [out], name=out + "_m"),
        ]
        dropped |= {cast.name, mul.name}
    if not swapped:
        raise NotDerived("the model has no int8 embedding table in the expected form")
    nodes = [
        n for node in graph.node if node.name not in dropped for n in swapped.get(node.name, [node])
    ]
    del graph.node[:]
    graph.node.extend(nodes)
    data: bytes = model.SerializeToString()
    return data


def _keep(path: Path, data: bytes) -> None:
    """Write the derived model atomically; a folder that cannot hold it only costs time."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".minilm-", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError:
        pass

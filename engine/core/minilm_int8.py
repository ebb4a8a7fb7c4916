"""The MiniLM model with integer matrix products: derived from the pinned file, kept, checked.

The pinned `model.onnx` stores every weight as int8 with a scale per output column (a
`Cast` and a `Mul` in front of each `MatMul`, and a scale per row in front of the two
embedding tables). onnxruntime folds those into float32 at load: 159 MB of weights, and
float products. This module rewrites the graph so the same int8 weights are used as they
are: each `MatMul` becomes onnxruntime's `DynamicQuantizeMatMul` (the activations quantised
to uint8 per call, an integer product, the pinned per-column scales), and each embedding
lookup gathers int8 rows and their scales before turning them into floats. No weight is
re-quantised and nothing is downloaded; the rewrite needs the `onnx` package
(`requirements-encoder.txt`).

The derived file is a cache of the pinned one, kept with the user's other derived state
(`$SYNAPSE_STATE_DIR/encoder/`, never in a workspace), and trusted only when its sha256 is
`DERIVED_SHA256`: a missing, damaged or replaced file is derived again, and a rewrite that
does not give those exact bytes (another `onnx` release) is not used at all.
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
DERIVED_SHA256 = "442fe266349865c2659050633cb496a86a6154c88422821374150a259dc8c98d"
MS_DOMAIN = "com.microsoft"


class NotDerived(Exception):
    """The integer model cannot be had here; the message says why (the float path is used)."""


def derived_path(source_sha256: str) -> Path:
    """Where the integer model derived from the model with this sha256 is kept."""
    return state_dir() / "encoder" / f"minilm-int8mm-{source_sha256[:16]}.onnx"


def integer_model(source: bytes, source_sha256: str) -> bytes:
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
    """The pinned model with its int8 weights fed to integer products and int8 lookups."""
    try:
        import onnx
        from onnx import helper, numpy_helper
    except ImportError:
        raise NotDerived("the onnx package is not installed") from None
    model = onnx.load_from_string(source)
    graph = model.graph
    inits = {i.name: i for i in graph.initializer}
    made = {out: node for node in graph.node for out in node.output}
    readers: dict[str, int] = defaultdict(int)
    for node in graph.node:
        for name in node.input:
            readers[name] += 1

    def dequantised(name: str) -> tuple[Any, Any, str, str] | None:
        """The (Cast, Mul, int8 weight, scale) that make float weight `name`, if they do."""
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
    scales: list[Any] = []
    for node in graph.node:
        if node.op_type == "MatMul" and (found := dequantised(node.input[1])) is not None:
            cast, mul, weight, scale = found
            column = scale + "_col"
            flat = numpy_helper.to_array(inits[scale]).reshape(-1)
            scales.append(numpy_helper.from_array(flat, column))
            swapped[node.name] = [
                helper.make_node(
                    "DynamicQuantizeMatMul",
                    [node.input[0], weight, column],
                    list(node.output),
                    name=node.name + "_int",
                    domain=MS_DOMAIN,
                )
            ]
            dropped |= {cast.name, mul.name}
        elif node.op_type == "Gather" and (found := dequantised(node.input[0])) is not None:
            cast, mul, weight, scale = found
            out, ids = node.output[0], node.input[1]
            swapped[node.name] = [
                helper.make_node("Gather", [weight, ids], [out + "_q"], name=out + "_q", axis=0),
                helper.make_node("Gather", [scale, ids], [out + "_s"], name=out + "_s", axis=0),
                helper.make_node("Cast", [out + "_q"], [out + "_f"], name=out + "_f", to=1),
                helper.make_node("Mul", [out + "_f", out + "_s"], [out], name=out + "_m"),
            ]
            dropped |= {cast.name, mul.name}
    if not swapped:
        raise NotDerived("the model has no int8 weights in the expected form")
    nodes = [
        n for node in graph.node if node.name not in dropped for n in swapped.get(node.name, [node])
    ]
    del graph.node[:]
    graph.node.extend(nodes)
    graph.initializer.extend(scales)
    used = {name for node in graph.node for name in node.input}
    kept = [i for i in graph.initializer if i.name in used]
    del graph.initializer[:]
    graph.initializer.extend(kept)
    model.opset_import.append(helper.make_opsetid(MS_DOMAIN, 1))
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

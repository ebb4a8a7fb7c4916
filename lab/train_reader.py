"""Train the reader (NONE / SUPPORT / CONTRADICT cross-encoder), measure it out of fold, ship it.

`make reader` (or `python lab/train_reader.py [--scifact-only] [--folds-only]`) builds the
pairs (`lab/reader_data.py`), trains one model per held-out fold of five (grouped by
abstract; Climate-FEVER by claim words) and scores the held-out pairs, then trains the final
model on every fold and exports it as int8 ONNX with its tokenizer into
`engine/models/data/reader/`, beside `bands.json` (the out-of-fold figures the product shows).
Fixed seeds and thread counts: the same inputs give the same model. CPU only.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lab.reader_data import (
    BM25,
    Example,
    claims,
    climate_examples,
    corpus,
    scifact_examples,
    synthetic_examples,
    triage_examples,
)
from lab.reader_model import BASE_SHA256, HIDDEN, LABELS, Reader, base_dir, export_int8, load_base

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "engine" / "models" / "data" / "reader"
OOF = ROOT / "build" / "reader" / "oof.jsonl"
SEED = 20240611
FOLDS = 5
MAX_TOKENS = 128
BATCH = 16
LR = 2e-4
HEAD_LR = 2e-3
SYNTHETIC_WEIGHT = 0.3  # a synthetic example is drawn 0.3 times as often as a real one
# The lowest four layers stay as MiniLM has them: their states are computed once and shared by
# every fold, which is what lets six trainings fit in minutes on two cores.
FROZEN_LAYERS = 4


def fold_model(fold: int) -> Path:
    """Where `--keep-folds` leaves the model trained without `fold` (int8, as shipped)."""
    return OOF.parent / f"fold-{fold}.onnx"


def tokenizer() -> Any:
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(base_dir() / "tokenizer.json"))
    tok.no_padding()
    tok.enable_truncation(MAX_TOKENS)
    return tok


def batches(tok, rows: list[tuple[str, str]]):  # type: ignore[no-untyped-def]
    enc = tok.encode_batch(rows)
    width = max(len(e.ids) for e in enc)
    ids = torch.zeros((len(enc), width), dtype=torch.long)
    types = torch.zeros_like(ids)
    mask = torch.zeros_like(ids)
    for i, e in enumerate(enc):
        n = len(e.ids)
        ids[i, :n] = torch.tensor(e.ids)
        types[i, :n] = torch.tensor(e.type_ids)
        mask[i, :n] = 1
    return ids, mask, types


def balanced(
    train: list[int], examples: list[Example], per_class: int, rng: random.Random
) -> list[int]:
    """`per_class` draws of each label among `train`, synthetic examples weighed down."""
    out: list[int] = []
    for label in range(len(LABELS)):
        pool = [i for i in train if examples[i].label == label]
        if not pool:
            continue
        weights = [SYNTHETIC_WEIGHT if examples[i].source == "synthetic" else 1.0 for i in pool]
        out.extend(rng.choices(pool, weights=weights, k=per_class))
    rng.shuffle(out)
    return out


def lower_states(examples: list[Example]) -> list[torch.Tensor]:
    """Every pair's token states after the frozen layers: computed once, kept in build/."""
    key = hashlib.sha256(
        json.dumps([BASE_SHA256, FROZEN_LAYERS, MAX_TOKENS]).encode()
        + "\n".join(f"{e.claim}\t{e.sentence}" for e in examples).encode()
    ).hexdigest()[:16]
    path = OOF.parent / f"states-{key}.pt"
    if path.exists():
        print(f"  lower layers: from {path}", flush=True)
        states: list[torch.Tensor] = torch.load(path)
        return states
    states = _lower_states(examples)
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.save(states, path)
    return states


@torch.no_grad()
def _lower_states(examples: list[Example]) -> list[torch.Tensor]:
    tok = tokenizer()
    model = load_base(SEED).eval()
    out: list[torch.Tensor] = [torch.empty(0)] * len(examples)
    order = sorted(
        range(len(examples)), key=lambda i: len(examples[i].claim + examples[i].sentence)
    )
    started = time.time()
    for at in range(0, len(order), 64):
        idx = order[at : at + 64]
        ids, mask, types = batches(tok, [(examples[i].claim, examples[i].sentence) for i in idx])
        states = model.hidden(ids, mask, types, upto=FROZEN_LAYERS)
        for row, i in enumerate(idx):
            out[i] = states[row, : int(mask[row].sum())].to(torch.float16).clone()
        if at % 3200 == 0:
            print(f"  lower layers: {at}/{len(order)} ({time.time() - started:.0f}s)", flush=True)
    return out


def stack(states: list[torch.Tensor], idx: list[int]) -> tuple[torch.Tensor, torch.Tensor]:
    width = max(states[i].shape[0] for i in idx)
    x = torch.zeros((len(idx), width, HIDDEN))
    mask = torch.zeros((len(idx), width), dtype=torch.long)
    for row, i in enumerate(idx):
        n = states[i].shape[0]
        x[row, :n] = states[i].float()
        mask[row, :n] = 1
    return x, mask


def train(
    states: list[torch.Tensor],
    examples: list[Example],
    rows: list[int],
    epochs: int,
    per_class: int,
    seed: int,
) -> Reader:
    model = load_base(seed)
    layers = [p for layer in model.layers[FROZEN_LAYERS:] for p in layer.parameters()]
    params = layers + list(model.head.parameters())
    # The fresh head learns fast, the pretrained layers slowly: a few hundred steps suffice.
    opt = torch.optim.AdamW(
        [{"params": layers, "lr": LR}, {"params": list(model.head.parameters()), "lr": HEAD_LR}],
        weight_decay=0.01,
    )
    rng = random.Random(seed)
    steps = epochs * (per_class * len(LABELS) // BATCH)
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: min(1.0, (s + 1) / (0.1 * steps)) * max(0.0, 1 - s / steps)
    )
    model.train()
    start, done = time.time(), 0
    for epoch in range(epochs):
        drawn = balanced(rows, examples, per_class, rng)
        total = 0.0
        for at in range(0, len(drawn) - BATCH + 1, BATCH):
            idx = drawn[at : at + BATCH]
            x, mask = stack(states, idx)
            y = torch.tensor([examples[i].label for i in idx])
            loss = torch.nn.functional.cross_entropy(model.top(x, mask, FROZEN_LAYERS), y)
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(params, 1.0)
            opt.step()
            sched.step()
            total += float(loss.detach())
            done += 1
        print(
            f"  epoch {epoch + 1}/{epochs}: loss {total / max(1, len(drawn) // BATCH):.3f}"
            f" ({time.time() - start:.0f}s, {done} steps)",
            flush=True,
        )
    model.eval()
    return model


@torch.no_grad()
def predict(model, states: list[torch.Tensor], rows: list[int]) -> np.ndarray:  # type: ignore[no-untyped-def]
    out = np.zeros((len(rows), len(LABELS)), dtype=np.float32)
    order = sorted(range(len(rows)), key=lambda r: states[rows[r]].shape[0])
    for at in range(0, len(order), 64):
        pos = order[at : at + 64]
        x, mask = stack(states, [rows[r] for r in pos])
        out[pos] = model.top(x, mask, FROZEN_LAYERS).softmax(-1).numpy()
    return out


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scifact-only", action="store_true", help="train without Climate-FEVER")
    ap.add_argument("--folds-only", action="store_true", help="measure, do not export")
    ap.add_argument(
        "--keep-folds",
        action="store_true",
        help="also export each fold's model as int8 ONNX under build/reader/ (for out-of-fold "
        "scores of pairs the lab did not draw, such as the answer path's candidates)",
    )
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--per-class", type=int, default=1500, help="draws per label per epoch")
    ap.add_argument("--final-per-class", type=int, default=1500)
    ap.add_argument("--limit", type=int, default=0, help="smoke run on about this many pairs")
    ap.add_argument(
        "--triage",
        type=Path,
        action="append",
        default=[],
        help="reviewers' pairs from `python -m engine triage pairs` (repeatable; training only)",
    )
    args = ap.parse_args()
    torch.set_num_threads(2)
    torch.manual_seed(SEED)
    torch.use_deterministic_algorithms(True)
    started = time.time()
    docs, items = corpus(), claims()
    real = scifact_examples(docs, items, BM25(docs))
    climate = climate_examples()
    synthetic = synthetic_examples(real, SEED)
    reviewed = triage_examples(args.triage)
    print(
        f"pairs: scifact {len(real)}, climate-fever {len(climate)}"
        f"{' (held out only)' if args.scifact_only else ''}, synthetic {len(synthetic)}, "
        f"triage {len(reviewed)}",
        flush=True,
    )
    examples = real + climate + synthetic + reviewed
    if args.limit:  # a smoke run of the whole pipeline on every n-th pair
        examples = examples[:: max(1, len(examples) // args.limit)]
    states = lower_states(examples)
    usable = [
        i for i, e in enumerate(examples) if not (args.scifact_only and e.source == "climate")
    ]
    evaluated = [i for i, e in enumerate(examples) if e.source not in ("synthetic", "triage")]
    probs = np.zeros((len(examples), len(LABELS)), dtype=np.float32)
    for fold in range(FOLDS):
        print(f"fold {fold + 1}/{FOLDS}", flush=True)
        rows = [i for i in usable if examples[i].fold != fold or examples[i].source == "triage"]
        model = train(states, examples, rows, args.epochs, args.per_class, SEED + fold)
        held = [i for i in evaluated if examples[i].fold == fold]
        probs[held] = predict(model, states, held)
        if args.keep_folds:
            export_int8(model, fold_model(fold))
        print(f"  scored {len(held)} held-out pairs ({time.time() - started:.0f}s)", flush=True)
    OOF.parent.mkdir(parents=True, exist_ok=True)
    with OOF.open("w", encoding="utf-8") as f:
        for i in evaluated:
            row = dataclasses.asdict(examples[i])
            row["p"] = [round(float(v), 5) for v in probs[i]]
            f.write(json.dumps(row) + "\n")
    trained_on = "scifact" if args.scifact_only else "scifact+climate-fever"
    trained_on += f"+triage ({len(reviewed)} pairs)" if reviewed else ""
    print(f"wrote out-of-fold scores to {OOF} ({time.time() - started:.0f}s)", flush=True)
    if args.folds_only:
        return 0
    print("final model on every fold", flush=True)
    model = train(states, examples, usable, args.epochs, args.final_per_class, SEED)
    OUT.mkdir(parents=True, exist_ok=True)
    export_int8(model, OUT / "model.onnx")
    # The product reads with the encoder's tokenizer file: it must be the one trained with.
    shipped = ROOT / "engine" / "models" / "data" / "minilm" / "tokenizer.json"
    if sha(shipped) != sha(base_dir() / "tokenizer.json"):
        raise SystemExit(f"{shipped} is not the tokenizer the reader was trained with")
    report: dict[str, object] = {"trained_on": trained_on}
    report["model_sha256"] = sha(OUT / "model.onnx")
    report["tokenizer_sha256"] = sha(shipped)
    report["seconds_total"] = round(time.time() - started)
    (OUT / "training.json").write_text(json.dumps(report, indent=1, sort_keys=True) + "\n")
    print(f"wrote {OUT}/model.onnx sha256 {report['model_sha256']}", flush=True)
    # The product refuses a model whose hash it was not told (it then runs on words alone).
    print("set MODEL_SHA256 in engine/models/reader.py to that hash to ship it", flush=True)
    print(f"total {report['seconds_total']}s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

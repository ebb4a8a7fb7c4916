"""The sentence encoder's costs beside the lexical figures: encoding, ask latency, memory.

Rows: MiniLM encoding speed on SciFact sentences (one thread, and the index build's
workers), the projected demo build (every sentence of the 5k-abstract demo), `ask` p50 on
the demo with meaning (hybrid retrieval and the relevance gate) and on words alone in the
same process, the question encoding alone, and a fresh process's peak RSS after opening the
demo and answering 50 claims, with and without the encoder. The demo rows need `make demo`.
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

from bench.timing import median, row, sample_ms
from engine.core.environment import ENV_ENCODER
from engine.models.encoder import load_encoder
from engine.models.minilm import MiniLM

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "demo" / "scifact"
SENTENCES = 512
QUESTIONS = 200
DEMO_SENTENCES = 51_817  # title, quotes and body sentences of the demo, once each
RSS_QUESTIONS = 50
SERVER_SESSIONS = 4
SERVER_ASKS = 5
# VmHWM, not ru_maxrss: Linux carries the parent's peak into a child's ru_maxrss across fork
# and exec, so a child of this process (which has opened the demo) reported the parent's peak.
_RSS = """
import json, sys
from engine.api import ask, open_workspace
opened = open_workspace(sys.argv[1])
claims = [json.loads(l)["claim"] for l in open(sys.argv[2]).read().splitlines()[:{n}]]
for claim in claims:
    ask(opened, claim)
status = open("/proc/self/status").read().splitlines()
print(next(int(line.split()[1]) for line in status if line.startswith("VmHWM:")))
"""


def _sentences() -> list[str]:
    out = []
    with gzip.open(ROOT / "data/scifact/corpus.jsonl.gz", "rt", encoding="utf-8") as handle:
        for line in handle:
            out += json.loads(line)["sentences"]
            if len(out) >= SENTENCES:
                return out[:SENTENCES]
    return out


def _claims(n: int) -> list[str]:
    lines = (ROOT / "data/scifact/claims_train.jsonl").read_text().splitlines()[:n]
    return [json.loads(line)["claim"] for line in lines]


def run() -> Iterator[dict[str, Any]]:
    encoder = load_encoder("minilm").encoder
    if not isinstance(encoder, MiniLM):  # its weights are not installed
        return
    texts = _sentences()
    single = MiniLM(encoder._session, encoder._tokenizer, workers=1, tables=encoder.tables)
    started = time.perf_counter()
    single.encode(texts)
    one = (time.perf_counter() - started) * 1000 / len(texts)
    yield row("MiniLM encode, one thread, per sentence", one, "ms", target="report")
    started = time.perf_counter()
    encoder.encode(texts)
    both = (time.perf_counter() - started) * 1000 / len(texts)
    yield row("MiniLM encode, index build's workers, per sentence", both, "ms", target="report")
    projected = both * DEMO_SENTENCES / 1000
    yield row(
        f"demo sentence vectors, projected ({DEMO_SENTENCES:,} sentences)",
        projected,
        "s",
        target="< 300 s",
        meets=projected < 300,
    )
    question = "Statin use is associated with a lower risk of hip fracture."
    times = sample_ms(lambda: encoder.encode([question]), repeat=50)
    yield row("question encoding p50", median(times), "ms", target="report")
    if not (DEMO / ".ready").exists():  # `make demo` has not built it
        return
    yield from _asks()
    yield from _rss()
    yield from _server_rss()


def _asks() -> Iterator[dict[str, Any]]:
    from engine.api import ask, open_workspace
    from engine.workspace.semantic import Meaning

    with _encoder("minilm"):
        opened = open_workspace(DEMO)
    words = replace(opened, meaning=Meaning(None, "words alone"))
    claims = _claims(QUESTIONS)
    for name, view in (("hybrid + relevance gate", opened), ("words alone", words)):
        times = []
        for claim in claims:
            times += sample_ms(partial(ask, view, claim), repeat=1, warmup=0)
        p50 = median(times)
        yield row(
            f"ask p50, {name}, {QUESTIONS} claims, 5k notes",
            p50,
            "ms",
            target="< 100 ms",
            meets=p50 < 100,
        )
    opened.close()


def _rss() -> Iterator[dict[str, Any]]:
    claims = ROOT / "data/scifact/claims_train.jsonl"
    code = _RSS.replace("{n}", str(RSS_QUESTIONS))
    for name, encoder in (("with the encoder", "minilm"), ("words alone", "none")):
        env = {**os.environ, "SYNAPSE_ENCODER": encoder}
        out = subprocess.run(
            [sys.executable, "-c", code, str(DEMO), str(claims)],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        mb = int(out.stdout.strip().splitlines()[-1]) / 1024
        yield row(
            f"peak RSS, demo open + {RSS_QUESTIONS} asks, {name}",
            mb,
            "MB",
            target="< 500 MB",
            meets=mb < 500,
        )


def _server_rss() -> Iterator[dict[str, Any]]:
    """The app server's peak RSS on the demo with meaning, after four sessions asked."""
    from bench.app_server import app_process
    from bench.bench_load import drive, plan

    claims = _claims(SERVER_SESSIONS * SERVER_ASKS)
    with (
        _encoder("minilm"),
        tempfile.TemporaryDirectory() as tmp,
        app_process(DEMO, Path(tmp) / "app.log") as (url, server),
    ):
        drive(url, plan(claims, SERVER_SESSIONS, SERVER_ASKS))
        peak = _peak_mb(server.pid)
    yield row(
        f"app server peak RSS, demo with meaning, {SERVER_SESSIONS} sessions x {SERVER_ASKS} asks",
        peak,
        "MB",
        target="< 500 MB",
        meets=peak < 500,
    )


@contextmanager
def _encoder(name: str) -> Iterator[None]:
    """Within: this process, and any server it starts, use the encoder `name`."""
    saved = os.environ.get(ENV_ENCODER)
    os.environ[ENV_ENCODER] = name
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop(ENV_ENCODER, None)
        else:
            os.environ[ENV_ENCODER] = saved


def _peak_mb(pid: int) -> float:
    """A live process's peak resident set (VmHWM), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")

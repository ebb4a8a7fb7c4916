"""Worst cases an attacker controls: each input that was super-linear or unbounded, timed."""

from __future__ import annotations

import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bench.timing import median, row, sample_ms
from engine.core.quote import quote_needle, verify_quote
from engine.core.traceability import OrphanKind, OrphanSpan, Traceability, TraceMode
from engine.models.llm import LLMConfig, OpenAIChat
from engine.navigation.grounding import ground_node
from engine.workspace.front_matter import parse_note
from engine.workspace.notes import Store
from engine.workspace.stores import load_workspace
from present.highlight import highlight_html

ROOT = Path(__file__).resolve().parent.parent
LAB = ROOT / "examples" / "momentum-lab"


def run() -> Iterator[dict[str, Any]]:
    body = "x" + '"' * 40_000 + "y"
    ms = median(sample_ms(lambda: quote_needle(body), repeat=5))
    yield row("quote normaliser, x + 40,000 quote marks + y", ms, "ms", target="< 100 ms",
              meets=ms < 100, peer="was ≈ 35 s")  # fmt: skip

    source = ("Momentum returns persisted in every sample we studied. " * 20_000)[:1_000_000]
    quote = "Momentum returns persisted in every sampel we studied. " * 60
    ms = median(sample_ms(lambda: verify_quote(quote, source), repeat=5))
    yield row("3,300-char near miss vs 1 MB source (refused)", ms, "ms", target="< 100 ms",
              meets=ms < 100, peer="was 37 s")  # fmt: skip

    bomb = _alias_bomb()
    ms = median(sample_ms(lambda: parse_note(bomb, store=Store.CANON, source="finance",
                                             path="z.md", root=ROOT), repeat=5))  # fmt: skip
    yield row("note with 100,000 YAML aliases of a 13 KB quote", ms, "ms", target="< 100 ms",
              meets=ms < 100, peer="was ≈ 100 s per matrix cell")  # fmt: skip

    prose = "word " * 40_000
    spans = tuple(
        OrphanSpan(5 * i, 5 * i + 4, OrphanKind.UNCITED, "uncited") for i in range(40_000)
    )
    trace = Traceability(False, TraceMode.CITATION, spans=spans)
    ms = median(sample_ms(lambda: highlight_html(prose, trace), repeat=3))
    yield row("highlighting, 40,000 prose spans", ms, "ms", target="< 1 s", meets=ms < 1000,
              peer="was 8.1 s at 10,000 spans, quadratic")  # fmt: skip

    yield from _oversized_source()
    yield from _trickling_endpoint()


def _alias_bomb() -> bytes:
    quote = "Momentum persists. " * 700
    aliases = ", ".join(["*q"] * 100_000)
    return (
        f"---\nid: z-bomb\ntype: finding\ntitle: bomb\nq: &q {{id: q1, body: {quote!r}}}\n"
        f"quotes: [{aliases}]\n---\nMomentum persists.\n"
    ).encode()


def _oversized_source() -> Iterator[dict[str, Any]]:
    with tempfile.TemporaryDirectory() as tmp:
        lab = Path(tmp) / "lab"
        shutil.copytree(LAB, lab, ignore=shutil.ignore_patterns(".synapse"))
        sentence = "Past winners keep beating past losers."
        with (lab / "sources" / "huge.txt").open("w") as out:
            out.write(sentence + "\n" + "x" * (300 * 1024 * 1024))
        (lab / ".zettelkasten/finance/z-huge.md").write_text(
            f"---\nid: z-huge\ntype: finding\ntitle: huge\nsource: huge\n"
            f"quotes: [{{id: q1, body: {sentence!r}}}]\n---\n{sentence}\n"
        )
        workspace = load_workspace(lab)
        ground = ground_node(workspace, "zk:finance:z-huge")
        assert ground is not None
        ms = median(sample_ms(lambda: ground.check(workspace), repeat=5))
    yield row("grounding a quote against a 300 MB source (refused)", ms, "ms",
              target="< 100 ms", meets=ms < 100, peer="was 25 s, 1.3 GB RSS")  # fmt: skip


def _trickling_endpoint() -> Iterator[dict[str, Any]]:
    # The test server lives with the tests; the bench only borrows it.
    from tests.chat_server import ChatServer, trickle

    with ChatServer(trickle('{"dag": {}}' + " " * 4000, 0.2)) as server:
        chat = OpenAIChat(LLMConfig(server.base_url, "m", timeout_s=2.0))
        started = time.perf_counter()
        reply = chat.complete([{"role": "user", "content": "hi"}])
        seconds = time.perf_counter() - started
    yield row("model call, endpoint trickling 5 bytes/s, 2 s budget", seconds, "s",
              target="≤ 2.5 s", meets=seconds <= 2.5 and not reply.ok,
              peer="was unbounded")  # fmt: skip

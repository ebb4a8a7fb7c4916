"""Hostile sizes: inputs that were quadratic or unbounded now finish, or are refused with a reason.

Each call runs in a forked child the test waits on for at most HARNESS_S: a generous bound
that only a super-linear path could reach, so a regression fails here instead of hanging.
A child, not a thread: a regex holds the GIL, so a thread's join could not time out.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest

from engine.api import open_workspace
from engine.core.quote import MAX_FUZZY_QUOTE_CHARS, quote_needle, verify_quote
from engine.core.traceability import OrphanKind, OrphanSpan, Traceability, TraceMode
from engine.core.verifiers import MAX_VERIFIED_FILE_BYTES, VerifierResult
from engine.navigation.grounding import ground_node
from engine.workspace.front_matter import MAX_ALIASES
from present.highlight import highlight_html

HARNESS_S = 10


T = TypeVar("T")


def within_harness(fn: Callable[..., T], *args: object) -> T:
    """`fn(*args)` computed in a forked child; fails the test if it outlives HARNESS_S."""
    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)
    child = context.Process(target=lambda: sender.send(fn(*args)), daemon=True)
    child.start()
    # Read before joining: a child blocked on a full pipe would never exit.
    if not receiver.poll(HARNESS_S):
        child.kill()
        child.join()
        pytest.fail(f"{fn.__name__} gave no result within {HARNESS_S} s: super-linear here")
    value: T = receiver.recv()
    child.join()
    return value


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        ("x" + '"' * 40_000 + "y", "x" + '"' * 40_000 + "y"),
        ('"' * 40_000 + "x" + '"' * 40_000, "x"),
        ("x " + "[note " * 20_000 + "y]", "x"),
        ("claim" + " [note]" * 20_000, "claim"),
        ("claim" + " - note: a" * 5_000, "claim"),
    ],
    ids=["quote-run-inside", "quote-runs-around", "open-notes", "many-notes", "many-dash-notes"],
)
def test_the_quote_normaliser_is_linear(body: str, needle: str) -> None:
    assert within_harness(quote_needle, body) == needle


def test_a_long_near_miss_is_refused_for_fuzzy_matching_with_the_limit() -> None:
    source = ("Momentum returns persisted in every sample we studied. " * 20_000)[:1_000_000]
    quote = "Momentum returns persisted in every sampel we studied. " * 60
    match = within_harness(verify_quote, quote, source)
    assert not match.verified and match.method == "none"
    assert match.reason is not None and f"{MAX_FUZZY_QUOTE_CHARS:,}" in match.reason
    short = verify_quote("Momentum returns persisted in every sampel we studied.", source)
    assert short.verified and short.method == "fuzzy" and short.reason is None


def test_highlighting_is_linear_in_spans() -> None:
    prose = "word " * 40_000
    spans = tuple(OrphanSpan(5 * i, 5 * i + 4, OrphanKind.UNCITED, "") for i in range(40_000))
    trace = Traceability(False, TraceMode.CITATION, spans=spans)
    html = within_harness(highlight_html, prose, trace)
    assert html.count('class="trace-uncited"') == 40_000


def _note(root: Path, relative: str, text: str) -> None:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def test_a_yaml_alias_bomb_is_refused_in_the_load_report(lab_path: Path) -> None:
    quote = "Momentum persists. " * 700  # about 13 KB
    aliases = ", ".join(["*q"] * 100_000)
    _note(
        lab_path,
        ".zettelkasten/finance/z-bomb.md",
        f"---\nid: z-bomb\ntype: finding\ntitle: bomb\nq: &q {{id: q1, body: {quote!r}}}\n"
        f"quotes: [{aliases}]\n---\nMomentum persists.\n",
    )
    _note(
        lab_path,
        ".zettelkasten/finance/z-few.md",
        "---\nid: z-few\ntype: finding\ntitle: few\nq: &q {id: q1, body: 'Momentum.'}\n"
        "quotes: [*q, *q]\n---\nMomentum.\n",
    )
    problems = within_harness(_load_report, lab_path)
    assert f"more than {MAX_ALIASES} YAML aliases" in problems[".zettelkasten/finance/z-bomb.md"]
    assert "zk:finance:z-few" in problems["loaded"]


def _load_report(root: Path) -> dict[str, Any]:
    opened = open_workspace(root)
    try:
        return {
            **{p.path: p.problem for p in opened.report},
            "loaded": list(opened.workspace.notes),
        }
    finally:
        opened.close()


def test_an_oversized_source_is_refused_with_the_cap(lab_path: Path) -> None:
    citekey = "huge2024"
    sentence = "Past winners keep beating past losers over long holding periods."
    with (lab_path / "sources" / f"{citekey}.txt").open("w", encoding="utf-8") as out:
        out.write(sentence + "\n")
        out.write("x" * (MAX_VERIFIED_FILE_BYTES + 1))
    _note(
        lab_path,
        ".zettelkasten/finance/z-huge.md",
        f"---\nid: z-huge\ntype: finding\ntitle: huge\nsource: {citekey}\n"
        f"quotes: [{{id: q1, body: {sentence!r}, page: 1}}]\n---\n{sentence}\n",
    )
    result = within_harness(_ground, lab_path, "zk:finance:z-huge")
    assert result.unverifiable and f"{MAX_VERIFIED_FILE_BYTES:,}-byte cap" in result.detail


def _ground(root: Path, address: str) -> VerifierResult:
    opened = open_workspace(root)
    try:
        ground = ground_node(opened.workspace, address)
        assert ground is not None
        checked = ground.check(opened.workspace)[0]
        assert checked is not None
        return checked
    finally:
        opened.close()

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from engine.api import OpenWorkspace, open_workspace
from engine.core.environment import ENV_ENCODER
from engine.core.errors import ConfigError
from engine.core.stance import ContradictionCue
from engine.datasets.scifact import import_scifact
from engine.models.llm import LLMConfig, OpenAIChat
from engine.review.offline_stance import model
from engine.review.overlay import (
    Candidate,
    OverlayConfig,
    build_overlay,
    candidates,
    load_overlay,
    read_overlay,
)
from engine.review.relations import Relation, Typing
from engine.review.strength import ClaimStrength, combine, pagerank, priority_weight
from engine.review.typers import TYPERS, ModelTyper
from engine.workspace.layout import OVERLAY_PATH
from engine.workspace.notes import NoteKind
from tests.chat_server import (
    ChatServer,
    chat_server_fixture,  # noqa: F401 (registers the chat_server fixture)
    reply,
)
from tests.conftest import ROOT

SCIFACT = ROOT / "data" / "scifact"


class OwnTypers:
    """A typer registry of the test's own: the built-ins plus typers added by name."""

    def __init__(self) -> None:
        self.registry = TYPERS.copy()

    def __call__(self, name: str, typer: Agreeing) -> None:
        typer.name = name
        self.registry.register(name, lambda: typer)


@pytest.fixture
def typers() -> OwnTypers:
    return OwnTypers()


class Agreeing:
    """Calls every pair a supporting one at a fixed confidence; raises after `fail_after`."""

    name = "agreeing"

    def __init__(self, confidence: float = 0.6, fail_after: int | None = None) -> None:
        self.confidence, self.fail_after, self.calls = confidence, fail_after, 0

    def __call__(self, practice: str, canon: str) -> Typing:
        self.calls += 1
        if self.fail_after is not None and self.calls > self.fail_after:
            raise RuntimeError("typer died")
        return Typing(Relation.SUPPORTS, self.confidence, "agrees", canon.splitlines()[0])


def test_build_writes_the_file_with_what_built_it(lab: OpenWorkspace) -> None:
    seen = []
    overlay = build_overlay(lab, progress=lambda done, total: seen.append((done, total)))
    path = lab.root / OVERLAY_PATH
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data == json.loads(json.dumps(overlay.to_dict()))
    assert data["kind"] == "claim" and data["typer"] == "offline"
    offset = datetime.fromisoformat(data["built_at"]).utcoffset()
    assert offset is not None
    assert offset.total_seconds() == 0
    assert data["parameters"]["k"] == 5 and data["parameters"]["stance_floor"] is not None
    counts = data["counts"]
    assert counts["practice"] == 3 and counts["typed"] == counts["candidates"] == len(seen) - 1
    assert counts["kept"] == len(data["edges"]) == sum(counts["by_relation"].values())
    assert seen[0] == (0, counts["candidates"]) and seen[-1][0] == seen[-1][1]
    assert sorted(path.parent.iterdir()) == [path]  # no temp file left behind
    fields = {"memory_id", "zk_source", "zk_id", "relation", "confidence", "claim_strength"}
    assert all(fields | {"priority", "rationale", "evidence"} <= set(e) for e in data["edges"])


def test_edges_are_in_priority_order_and_builds_are_deterministic(lab: OpenWorkspace) -> None:
    first = build_overlay(lab, config=OverlayConfig(min_confidence=0.0)).edges
    second = build_overlay(lab, config=OverlayConfig(min_confidence=0.0)).edges
    assert first == second
    keys = [(-e.priority, e.practice_id, e.canon_source, e.canon_id) for e in first]
    assert keys == sorted(keys)


def test_rebuild_replaces_the_file_whole(lab: OpenWorkspace) -> None:
    assert build_overlay(lab, config=OverlayConfig(min_confidence=0.0)).edges
    build_overlay(lab, config=OverlayConfig(min_confidence=1.0))
    saved = load_overlay(lab.root)
    assert saved is not None
    assert saved.edges == () and saved.parameters["min_confidence"] == 1.0


def test_failure_mid_build_leaves_the_previous_file_intact(
    lab: OpenWorkspace, typers: OwnTypers
) -> None:
    build_overlay(lab)
    before = (lab.root / OVERLAY_PATH).read_bytes()
    typers("dies-after-two", Agreeing(fail_after=2))
    with pytest.raises(RuntimeError, match="typer died"):
        build_overlay(lab, typer="dies-after-two", typers=typers.registry)
    assert (lab.root / OVERLAY_PATH).read_bytes() == before
    assert len(list((lab.root / OVERLAY_PATH).parent.iterdir())) == 1


def test_unknown_typer_is_refused_before_anything_is_written(lab: OpenWorkspace) -> None:
    with pytest.raises(ConfigError, match="unknown typer"):
        build_overlay(lab, typer="no-such-typer")
    assert not (lab.root / OVERLAY_PATH).exists()


@pytest.mark.parametrize("k", [1, 2, 5], ids=["k1", "k2", "k5"])
def test_candidates_are_bounded_per_practice_entry(lab: OpenWorkspace, k: int) -> None:
    pairs = candidates(lab, OverlayConfig(k=k, sim_floor=0.0))
    per_entry: dict[str, list[Candidate]] = {}
    for pair in pairs:
        per_entry.setdefault(pair.practice.id, []).append(pair)
    assert len(per_entry) == 3 and all(len(group) <= k for group in per_entry.values())
    assert all(p.canon.type in {NoteKind.CLAIM, NoteKind.FINDING} for p in pairs)
    assert all(p.practice.store.value == "mem" for p in pairs)


def test_similarity_floor_keeps_only_the_best_at_one(lab: OpenWorkspace) -> None:
    pairs = candidates(lab, OverlayConfig(sim_floor=1.0))
    assert [p.similarity for p in pairs] == [1.0] * len(pairs)
    assert len({p.practice.id for p in pairs}) == len(pairs)


@pytest.mark.parametrize(
    ("strength", "weight"),
    [(None, 0.75), (0.0, 0.5), (0.5, 0.75), (1.0, 1.0), (1.7, 1.0), (-0.3, 0.5)],
    ids=["unknown", "zero", "half", "one", "clamped-high", "clamped-low"],
)
def test_priority_weight(strength: float | None, weight: float) -> None:
    assert priority_weight(strength) == pytest.approx(weight)


@pytest.mark.parametrize(
    ("terms", "strength"),
    [
        ({"quotes": None, "sources": None, "centrality": None}, None),
        ({"quotes": 1.0, "sources": None, "centrality": None}, 1.0),
        ({"quotes": 1.0, "sources": 0.5, "centrality": None}, 0.7857),
        ({"quotes": 0.5, "sources": 0.75, "centrality": 0.0}, 0.425),
    ],
    ids=["all-unknown", "quotes-only", "two-known", "all-known"],
)
def test_strength_is_the_renormalised_weighted_mean(
    terms: dict[str, Any], strength: float | None
) -> None:
    assert combine(terms) == strength


@pytest.mark.parametrize(
    ("address", "terms"),
    [
        ("zk:finance:z-mom-01", {"quotes": 1.0, "sources": 0.5, "centrality": 0.54}),
        ("zk:finance:z-crash-05", {"quotes": 0.0, "sources": 0.5, "centrality": 1.0}),
        ("zk:finance:z-persist-06", {"quotes": None, "sources": None, "centrality": 0.0}),
        ("zk:finance:z-eq-08", {"quotes": None, "sources": None, "centrality": None}),
        ("zk:~fed~peerlab~finance:p-vm-01", {"quotes": 1.0, "sources": 0.5, "centrality": None}),
    ],
    ids=["verified-quotes", "fabricated-quote", "linked-only", "no-data", "unlinked"],
)
def test_claim_strength_terms_on_the_lab(
    lab: OpenWorkspace, address: str, terms: dict[str, Any]
) -> None:
    strength = ClaimStrength(lab.workspace)
    got = strength.terms(address)
    assert got.keys() == terms.keys()
    for name, value in terms.items():
        assert got[name] == (None if value is None else pytest.approx(value, abs=0.01)), name
    assert strength(address) == combine(got)


def test_pagerank_of_two_nodes_matches_the_closed_form() -> None:
    rank = pagerank(["a", "b"], {("a", "b")})
    assert rank["a"] == pytest.approx(0.5 / 1.425) and sum(rank.values()) == pytest.approx(1.0)


def test_priority_reorders_but_never_drops_an_edge(lab: OpenWorkspace, typers: OwnTypers) -> None:
    typers("always-agrees", Agreeing(confidence=0.6))
    overlay = build_overlay(
        lab,
        typer="always-agrees",
        config=OverlayConfig(min_confidence=0.6),
        typers=typers.registry,
    )
    assert overlay.counts["kept"] == overlay.counts["candidates"] > 0
    strengths = {e.claim_strength for e in overlay.edges}
    assert None in strengths and len(strengths) > 1
    for edge in overlay.edges:
        assert edge.priority == round(0.6 * priority_weight(edge.claim_strength), 4) >= 0.3


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (None, "no overlay has been built yet"),
        ("{not json", "unreadable"),
        ('{"kind": "generic", "edges": []}', "not a claim overlay"),
        ('{"kind": "claim", "edges": [{"memory_id": "m"}]}', "edge 1"),
    ],
    ids=["missing", "not-json", "other-kind", "bad-edge"],
)
def test_a_bad_overlay_file_reads_as_none_with_a_reason(
    tmp_path: Path, content: str | None, reason: str
) -> None:
    if content is not None:
        (tmp_path / OVERLAY_PATH).parent.mkdir(parents=True)
        (tmp_path / OVERLAY_PATH).write_text(content)
    read = read_overlay(tmp_path)
    assert read.overlay is None and reason in read.reason
    assert load_overlay(tmp_path) is None


@pytest.mark.skipif(not (SCIFACT / "corpus.jsonl.gz").exists(), reason="SciFact data absent")
def test_scifact_slice_lists_supports_and_contradicts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Stance reads words; encoding the 6,000 sentences would cost a minute.
    monkeypatch.setenv(ENV_ENCODER, "none")
    import_scifact(
        SCIFACT / "corpus.jsonl.gz", SCIFACT / "claims_train.jsonl", tmp_path / "sf", limit=600
    )
    opened = open_workspace(tmp_path / "sf")
    try:
        overlay = build_overlay(opened)
    finally:
        opened.close()
    by_relation = overlay.counts["by_relation"]
    assert by_relation["supports"] > 0 and by_relation["contradicts"] > 0
    assert overlay.counts["candidates"] <= 5 * overlay.counts["practice"]


class Contrary:
    """Calls every pair a confident contradiction, whatever the texts say."""

    name = "contrary"

    def __call__(self, practice: str, canon: str) -> Typing:
        return Typing(Relation.CONTRADICTS, 0.95, "contrary by design", canon.splitlines()[0])


# Of the lab's candidate pairs, the offline stance gate lets the typer's contradiction
# stand only where the backtest's reversal meets the persistence claim in both directions.
REFUSED_BY_THE_GATE = {
    ("mem:_memory:chk-2024-q1", "zk:finance:z-ret-02"),
    ("mem:_memory:deci-a7688a22", "zk:finance:z-sig-03"),
    ("mem:_memory:exp-2009-backtest", "zk:finance:z-mom-01"),
    ("mem:_memory:exp-2009-backtest", "zk:finance:z-sig-03"),
    ("mem:_memory:exp-2009-backtest", "zk:finance:z-crash-05"),
}


def test_an_injected_typer_object_is_gated_by_the_stance_classifier(lab: OpenWorkspace) -> None:
    built = build_overlay(lab, typer=Contrary())
    pairs = {(p.practice.address, p.canon.address) for p in candidates(lab, OverlayConfig())}
    assert {e.relation for e in built.edges} == {Relation.CONTRADICTS}
    kept = {(e.key.practice_address, e.key.canon_address) for e in built.edges}
    assert pairs - kept == REFUSED_BY_THE_GATE
    assert kept == {("mem:_memory:exp-2009-backtest", "zk:finance:z-persist-06")}
    assert built.typer == "contrary"


def test_a_model_typer_in_the_overlay_is_gated_by_its_model(
    lab: OpenWorkspace, chat_server: ChatServer
) -> None:
    # The model calls every pair a contradiction and every text a contradiction of any
    # other, itself included: its own gate's control refuses all of them.
    everything = json.dumps({"contradicts": 1.0, "rationale": "always"})
    typing = json.dumps({"relation": "contradicts", "confidence": 1.0, "rationale": "all"})

    chat = OpenAIChat(LLMConfig(chat_server.base_url, "test-model", timeout_s=5))
    pairs = len(candidates(lab, OverlayConfig()))
    for _ in range(pairs):
        chat_server.script(reply(typing), reply(everything), reply(everything), reply(everything))
    built = build_overlay(lab, typer=ModelTyper(chat))
    assert built.parameters["stance_gate"] == "model"
    assert not [e for e in built.edges if e.relation is Relation.CONTRADICTS]


def test_offline_contradictions_carry_a_cue_and_a_calibrated_confidence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV_ENCODER, "none")  # stance reads words; meaning would cost a minute
    if not (SCIFACT / "corpus.jsonl.gz").exists():
        pytest.skip("SciFact data absent")
    import_scifact(
        SCIFACT / "corpus.jsonl.gz", SCIFACT / "claims_train.jsonl", tmp_path / "sf", limit=300
    )
    opened = open_workspace(tmp_path / "sf")
    try:
        overlay = build_overlay(opened)
    finally:
        opened.close()
    calibration = model().calibration
    assert calibration is not None
    bar = calibration.threshold
    against = [e for e in overlay.edges if e.relation is Relation.CONTRADICTS]
    assert against, "the slice should hold at least one calibrated contradiction"
    assert all(e.cue in {c.value for c in ContradictionCue} for e in against)
    assert all(e.confidence >= bar and "calibrated" in e.rationale for e in against)
    assert overlay.parameters["stance_gate"] == "offline"

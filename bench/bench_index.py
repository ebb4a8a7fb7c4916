"""Index build, incremental reindex and query latency at 5k and 50k notes, against two peers.

The 5k workspace is the SciFact import; the 50k one replicates the abstracts ten times under
new ids. Queries are the SciFact train claims; the peer (`rank_bm25.BM25Okapi`) is timed on
an evenly spaced sample of them to keep the whole run to a couple of minutes; `bm25s`,
far faster, on every claim, beside our query on the same tokens.
"""

from __future__ import annotations

import gzip
import json
import tempfile
import time
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

import numpy as np

from bench.timing import median, percentile, row
from engine.datasets.scifact import finding_note, import_scifact
from engine.datasets.sections import sectioned
from engine.text.tokens import ranking_tokens
from engine.workspace.index import Index
from engine.workspace.stores import Workspace, load_workspace

DATA = Path(__file__).resolve().parent.parent / "data" / "scifact"
CORPUS = DATA / "corpus.jsonl.gz"
CLAIMS = DATA / "claims_train.jsonl"
REPLICAS = 10
PEER_SAMPLE = 60


def run() -> Iterator[dict[str, Any]]:
    claims = [json.loads(line) for line in CLAIMS.read_text(encoding="utf-8").splitlines()]
    queries = [claim["claim"] for claim in claims]
    with tempfile.TemporaryDirectory(prefix="bench-index-") as temp:
        small = Path(temp) / "scifact"
        started = time.perf_counter()
        import_scifact(CORPUS, CLAIMS, small)
        yield row("import SciFact (5,183 abstracts, 809 claims)", _since(started), "s")
        yield from _scale(small, queries, label="5k", build_target=10.0)
        with Index.open(small) as index:
            yield _hit_rate(index, claims)

        large = Path(temp) / "replicated"
        started = time.perf_counter()
        _write_replicas(large)
        yield row(f"write 50k workspace (SciFact x{REPLICAS})", _since(started), "s")
        workspace = yield from _scale(large, queries, label="50k", build_target=None)
        yield from _peer(large, workspace, queries)


def _scale(
    root: Path, queries: list[str], *, label: str, build_target: float | None
) -> Generator[dict[str, Any], None, Workspace]:
    started = time.perf_counter()
    workspace = load_workspace(root)
    with Index.open(root) as index:
        index.update(workspace)
        seconds = _since(started)
        yield row(
            f"index build {label} (load + update, {len(workspace.notes):,} notes)",
            seconds,
            "s",
            target=f"< {build_target:g} s" if build_target else "",
            meets=seconds < build_target if build_target else None,
        )
        started = time.perf_counter()
        index.search("warm up")
        yield row(f"postings load {label} (first query after open)", _since(started), "s")
        latencies = [_timed_search(index, query) for query in queries]
        yield row(f"query p50 {label}", median(latencies), "ms")
        p95 = percentile(latencies, 95)
        yield row(f"query p95 {label}", p95, "ms", target="< 20 ms", meets=p95 < 20.0)

        note = next(n for n in workspace.notes.values() if n.store.value == "zk")
        target = root / note.path
        target.write_text(target.read_text(encoding="utf-8") + "\nA touched line.\n", "utf-8")
        started = time.perf_counter()
        workspace = load_workspace(root, previous=workspace)
        stats = index.update(workspace)
        seconds = _since(started)
        assert stats.changed == 1, stats
        yield row(
            f"reindex one touched note {label} (reload + update)",
            seconds,
            "s",
            target="< 1 s",
            meets=seconds < 1.0,
        )
    return workspace


def _hit_rate(index: Index, claims: list[dict[str, Any]]) -> dict[str, Any]:
    with_evidence = [claim for claim in claims if claim["evidence"]]
    hits = 0
    for claim in with_evidence:
        top = index.search(claim["claim"], k=1, store="zk")
        hits += bool(top) and top[0].address.rsplit(":", 1)[1] in claim["evidence"]
    rate = 100.0 * hits / len(with_evidence)
    return row(
        f"BM25 top-1 gold-evidence hit rate 5k ({len(with_evidence)} claims)",
        rate,
        "%",
        target=">= 75 %",
        meets=rate >= 75.0,
    )


def _peer(root: Path, workspace: Workspace, queries: list[str]) -> Iterator[dict[str, Any]]:
    from rank_bm25 import BM25Okapi

    notes = [note for note in workspace.notes.values() if note.store.value == "zk"]
    started = time.perf_counter()
    peer = BM25Okapi([ranking_tokens(f"{note.title} {note.body}") for note in notes])
    yield row("peer rank_bm25 build 50k", _since(started), "s")
    sample = queries[:: max(1, len(queries) // PEER_SAMPLE)][:PEER_SAMPLE]
    peer_ms, ours_ms, overlaps = [], [], []
    with Index.open(root) as index:
        index.search("warm up")
        for query in sample:
            started = time.perf_counter()
            scores = peer.get_scores(ranking_tokens(query))
            best = np.lexsort((np.arange(len(notes)), -scores))[:10]
            peer_ms.append(_since(started) * 1000.0)
            theirs = {notes[i].address for i in best if scores[i] > 0}
            started = time.perf_counter()
            ours = {hit.address for hit in index.search(query, k=10, store="zk")}
            ours_ms.append(_since(started) * 1000.0)
            overlaps.append(len(ours & theirs) / max(1, min(10, len(theirs))))
    peer_p50, peer_p95 = median(peer_ms), percentile(peer_ms, 95)
    yield row(f"peer rank_bm25 query p50 50k ({len(sample)} claims)", peer_p50, "ms")
    yield row(f"peer rank_bm25 query p95 50k ({len(sample)} claims)", peer_p95, "ms")
    speedup = peer_p50 / median(ours_ms)
    yield row(
        "query speed-up over rank_bm25 at 50k (p50)",
        speedup,
        "x",
        target=">= 10x",
        meets=speedup >= 10.0,
        peer=f"ours p50 {median(ours_ms):.2f} ms",
    )
    yield row("top-10 overlap with rank_bm25 at 50k (mean)", float(np.mean(overlaps)), "ratio")
    yield from _bm25s(root, notes, queries)


def _bm25s(root: Path, notes: list[Any], queries: list[str]) -> Iterator[dict[str, Any]]:
    """bm25s (sparse-matrix BM25 in numpy) beside our index, on the same tokens, every claim.

    Both are timed from the query's text: each tokenises it with the reading layer's
    `tokens`, bm25s returning its top 10 by `retrieve`, ours by `Index.search`; the two
    alternate query by query, so a busy machine slows both alike.
    """
    import bm25s

    started = time.perf_counter()
    peer = bm25s.BM25()
    peer.index([ranking_tokens(f"{note.title} {note.body}") for note in notes], show_progress=False)
    yield row("peer bm25s build 50k (same tokens)", _since(started), "s")
    peer_ms, ours_ms = [], []
    with Index.open(root) as index:
        index.search("warm up")
        peer.retrieve([ranking_tokens("warm up")], k=10, show_progress=False)
        for query in queries:
            started = time.perf_counter()
            peer.retrieve([ranking_tokens(query)], k=10, show_progress=False)
            peer_ms.append(_since(started) * 1000.0)
            started = time.perf_counter()
            index.search(query, k=10, store="zk")
            ours_ms.append(_since(started) * 1000.0)
    peer_p50, ours_p50 = median(peer_ms), median(ours_ms)
    yield row(f"peer bm25s query p50 50k ({len(queries)} claims)", peer_p50, "ms")
    yield row(f"our query p50 50k beside bm25s ({len(queries)} claims)", ours_p50, "ms")
    speedup = peer_p50 / ours_p50
    yield row(
        "query speed-up over bm25s at 50k (p50)",
        speedup,
        "x",
        target=">= 15x",
        meets=speedup >= 15.0,
        peer=f"bm25s p50 {peer_p50:.3f} ms, ours {ours_p50:.3f} ms",
    )


def _timed_search(index: Index, query: str) -> float:
    started = time.perf_counter()
    index.search(query, k=10)
    return _since(started) * 1000.0


def _write_replicas(root: Path) -> None:
    box = root / ".zettelkasten" / "scifact"
    box.mkdir(parents=True)
    with gzip.open(CORPUS, "rt", encoding="utf-8") as stream:
        documents = [json.loads(line) for line in stream if line.strip()]
    for doc in documents:
        # Render once and stamp each replica's id in, which keeps the setup to a few seconds.
        template = finding_note("@@ID@@", doc["title"], sectioned(doc["sentences"]))
        assert template.count('"@@ID@@"') == 2  # the note's id and source (JSON front matter)
        for replica in range(REPLICAS):
            doc_id = f"{doc['doc_id']}-r{replica}"
            text = template.replace('"@@ID@@"', f'"{doc_id}"')
            (box / f"{doc_id}.md").write_text(text, encoding="utf-8")


def _since(started: float) -> float:
    return time.perf_counter() - started

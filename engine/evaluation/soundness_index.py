"""Index tampering on real abstracts: a forged search index must never grant an answer.

A workspace is built from SciFact train abstracts (one note per abstract, each sentence a
quote checked against the abstract's text). Each attack asks a sentence with a word no note
holds added ("… in zorblax"), which must abstain for that word; then the word is forged
into every row of the index, and the question is asked again, after reopening with every
file's time reset and in the process that had the index open. A leak is a grounded answer.
The controls are the unmutated sentences that answered before the forgery: they must still
answer after it.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import sqlite3
import tempfile
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from engine.api import ask, open_workspace
from engine.datasets.scifact_text import TrainSentence
from engine.evaluation.mutations import FamilyScore
from engine.workspace.bm25 import BAG_DTYPE
from engine.workspace.caches import index_path

FORGED = "zorblax"


def index_tampering(
    groups: Sequence[Sequence[TrainSentence]], *, sample: int = 40, seed: int = 0
) -> FamilyScore:
    """The attacks and controls over `sample` abstracts of `groups`, one sentence of each."""
    rng = random.Random(seed)
    whole = [g for g in groups if g and not any(i.fragment for i in g)]
    chosen = rng.sample(whole, min(sample, len(whole)))
    with tempfile.TemporaryDirectory(prefix="synapse-index-attack-") as folder:
        root = Path(folder)
        for group in chosen:
            _write_note(root, group)
        questions = [rng.choice(group).text for group in chosen]
        attacks = [_with_forged_word(q) for q in questions]
        opened = open_workspace(root)
        try:
            before = [ask(opened, q).label == "ANSWER" for q in questions]
            _forge(index_path(root))  # behind the open workspace's back
            leaked = [q for q in attacks if ask(opened, q).label == "ANSWER"]
        finally:
            opened.close()
        _reset_times(root)
        opened = open_workspace(root)
        try:
            leaked += [q for q in attacks if ask(opened, q).label == "ANSWER"]
            kept = [
                ask(opened, q).label == "ANSWER"
                for q, ok in zip(questions, before, strict=True)
                if ok
            ]
        finally:
            opened.close()
    return FamilyScore(
        "index-tampering", 2 * len(attacks), len(leaked), leaked[:5], len(kept), sum(kept)
    )


def _write_note(root: Path, group: Sequence[TrainSentence]) -> None:
    doc = group[0].doc_id
    abstract = group[0].abstract
    (root / "sources").mkdir(exist_ok=True)
    (root / "sources" / f"{doc}.txt").write_text(abstract, encoding="utf-8")
    box = root / ".zettelkasten" / "scifact"
    box.mkdir(parents=True, exist_ok=True)
    front = {
        "id": doc,
        "type": "finding",
        "title": f"Abstract {doc}",
        "source": doc,
        "quotes": [{"id": f"s{i.index}", "body": i.text, "page": 1} for i in group],
    }
    note = f"---\n{json.dumps(front)}\n---\n{abstract}\n"
    (box / f"{doc}.md").write_text(note, encoding="utf-8")


def _with_forged_word(sentence: str) -> str:
    return sentence.rstrip().rstrip(".") + f" in {FORGED}."


def _forge(db: Path) -> None:
    """Put the forged word into the vocabulary and into every note's row."""
    with contextlib.closing(sqlite3.connect(db)) as raw, raw:
        term_id = raw.execute("SELECT coalesce(max(id), -1) + 1 FROM terms").fetchone()[0]
        raw.execute("INSERT INTO terms (id, term, seal) VALUES (?, ?, x'00')", (term_id, FORGED))
        extra = np.array([(term_id, 0, 1)], dtype=BAG_DTYPE).tobytes()
        for doc_id, bag in raw.execute("SELECT id, bag FROM docs").fetchall():
            raw.execute("UPDATE docs SET bag = ? WHERE id = ?", (bag + extra, doc_id))


def _reset_times(root: Path) -> None:
    for path in root.rglob("*"):
        if path.is_file() and ".synapse" not in path.parts:
            os.utime(path, ns=(1_000_000_000, 1_000_000_000))

"""Two users on one workspace: an `ask` under user A, then user B, then A and B again.

Each user is a state folder of their own (`SYNAPSE_STATE_DIR`), as two people sharing a
synced folder or a lab share are; each `ask` is a fresh process with the sentence encoder on,
timed from start to exit. Each user's first ask builds their own index and vectors; when a
user comes back after the other, nothing of theirs should be rebuilt, so their ask costs what
a warm one does. The `index` rows say how many notes and sentences a returning user's open
redid (0 when the caches are private; every one of them when they fought).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bench.timing import row
from engine.datasets.scifact import import_scifact

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data" / "scifact"
ABSTRACTS = 500
QUESTION = "Statin use is associated with a lower risk of hip fracture."


def run() -> Iterator[dict[str, Any]]:
    with tempfile.TemporaryDirectory(prefix="bench-shared-") as temp:
        workspace = Path(temp) / "shared"
        import_scifact(
            DATA / "corpus.jsonl.gz", DATA / "claims_train.jsonl", workspace, limit=ABSTRACTS
        )
        users = {name: Path(temp) / f"state-{name}" for name in ("A", "B")}
        turns = (
            ("A", "first, builds their caches"),
            ("A", "warm, right after their first"),
            ("B", "first, builds their caches"),
            ("A", "again, after B"),
            ("B", "again, after A"),
        )
        seconds = {}
        for user, turn in turns:
            seconds[user, turn] = _ask(workspace, users[user])
            name = f"ask, user {user} {turn} ({ABSTRACTS} abstracts, encoder on)"
            yield row(name, seconds[user, turn], "s", target="report")
        ratio = seconds["A", "again, after B"] / seconds["A", "warm, right after their first"]
        yield row("ask, user A after B over A warm", ratio, "x", target="< 1.5x", meets=ratio < 1.5)
        # Each user opens right after the other did: what their open redid.
        for user in ("A", "B"):
            redone = _index(workspace, users[user])
            yield row(
                f"index, user {user} right after the other: notes and sentences redone",
                redone,
                "items",
                target="0",
                meets=redone == 0,
            )


def _engine(workspace: Path, state: Path, *argv: str) -> str:
    env = {**os.environ, "SYNAPSE_STATE_DIR": str(state), "SYNAPSE_ENCODER": "minilm"}
    done = subprocess.run(
        [sys.executable, "-m", "engine", *argv, "--workspace", str(workspace)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


def _ask(workspace: Path, state: Path) -> float:
    started = time.perf_counter()
    _engine(workspace, state, "ask", QUESTION)
    return time.perf_counter() - started


def _index(workspace: Path, state: Path) -> int:
    out = json.loads(_engine(workspace, state, "index"))
    vectors = out.get("vectors") or {}
    return int(out["added"] + out["changed"] + vectors.get("encoded", 0))

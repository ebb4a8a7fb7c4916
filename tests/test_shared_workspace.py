"""Two users on one workspace: private caches that never rebuild each other, shared decisions."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli import Result, invoke
from tests.workspaces import make_workspace

QUESTION = (
    "Does buying past winners and selling past losers generate abnormal returns over 3 to 12 "
    "month holding periods?"
)
EDGE = ("--memory-id", "exp-2009-backtest", "--zk-source", "finance", "--zk-id", "z-mom-01")
USERS = ("ann", "bob")


def _index_file(state: Path) -> Path:
    (found,) = (state / "caches").glob("*/index.sqlite")
    return found


def _stamp(path: Path) -> tuple[int, int, int]:
    info = path.stat()
    return info.st_ino, info.st_mtime_ns, info.st_size


def test_two_users_alternating_never_rebuild_and_both_decisions_are_kept(tmp_path: Path) -> None:
    lab = make_workspace(tmp_path)
    ws = ("--workspace", str(lab))

    def as_user(user: str, *argv: str) -> Result:
        env = {"SYNAPSE_STATE_DIR": str(tmp_path / f"state-{user}"), "SYNAPSE_REVIEWER": user}
        out = invoke(*argv, *ws, env=env)
        assert out.code == 0, out.err
        return out

    # Each user's first open builds their own index and vectors, in their own state folder.
    for user in USERS:
        built = as_user(user, "index").json()
        assert built["added"] == built["notes"] > 0 and built["vectors"]["encoded"] > 0
    stamps = {user: _stamp(_index_file(tmp_path / f"state-{user}")) for user in USERS}
    assert not list(lab.glob(".synapse/*.sqlite")) and not (lab / ".synapse/vectors").exists()

    labels = []
    turns = (("ann", "confirmed"), ("bob", "dismissed"), ("ann", "confirmed"), ("bob", "dismissed"))
    for decider, decision in turns:
        for user in USERS:
            again = as_user(user, "index").json()
            vectors = again["vectors"]
            redone = (again["added"], again["changed"], again["rebuilt"])
            assert (redone, vectors["encoded"], vectors["unsealed"]) == ((0, 0, False), 0, 0)
            labels.append(json.loads(as_user(user, "ask", QUESTION).out)["decision"]["label"])
        as_user(decider, "triage", "set", *EDGE, "--decision", decision)
    assert {user: _stamp(_index_file(tmp_path / f"state-{user}")) for user in USERS} == stamps

    log = [json.loads(line) for line in (lab / ".synapse/triage.jsonl").read_text().splitlines()]
    assert [(e["by"], e["decision"]) for e in log] == [
        ("ann", "confirmed"),
        ("bob", "dismissed"),
        ("ann", "confirmed"),
        ("bob", "dismissed"),
    ]
    assert all(e["at"] for e in log)
    (shown,) = as_user("ann", "triage", "show").json()
    assert shown["disagreement"] is True and shown["decision"] == "confirmed"
    assert [(r["by"], r["decision"]) for r in shown["reviewers"]] == [
        ("ann", "confirmed"),
        ("bob", "dismissed"),
    ]
    # Before any decision both users get the green answer; once ann confirmed, bob's later
    # dismissal does not lift the contest while they disagree.
    assert labels[:2] == ["ANSWER", "ANSWER"]
    assert "ANSWER" not in labels[2:]

"""Batch audits and evaluations on a two-process LocalCluster give the serial run's output.

`ask --batch`, `route --batch`, `overlay build` and `eval scifact` run serially and on the
cluster; their outputs are compared byte for byte, with only measured times taken out (two
serial runs differ in those too). A worker killed mid-task, a poison line and an
interrupted `--out` file end in the serial output or a named, skipped line.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.datasets.scifact import labels_path
from tests.cli import untimed
from tests.cluster_support import TIMEOUT, bounded, faults, lines, two_workers
from tests.workspaces import EXAMPLES, make_workspace

PAYLOADS = sorted((EXAMPLES / "payloads").glob("*.json"))


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    with two_workers() as address:
        yield address


@pytest.fixture
def questions(tmp_path: Path, lab_questions: list[dict[str, Any]]) -> Path:
    """The lab's questions, a malformed line and an over-long question among them."""
    rows = [json.dumps(q) for q in lab_questions]
    rows[2:2] = ["not json", json.dumps({"id": "long", "question": "why " * 600})]
    path = tmp_path / "questions.jsonl"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def payloads(tmp_path: Path) -> Path:
    """Every example payload, one a line, then a malformed line and a cyclic DAG."""
    rows = [json.dumps(json.loads(p.read_text())["payload"]) for p in PAYLOADS]
    rows += ["{not json", json.dumps({"dag": None})]
    path = tmp_path / "payloads.jsonl"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def test_ask_batch_on_the_cluster_prints_the_serial_lines(
    cluster: str, lab_path: Path, questions: Path
) -> None:
    serial = bounded("ask", "--batch", questions, "--workspace", lab_path)
    spread = bounded("ask", "--batch", questions, "--workspace", lab_path, "--cluster", cluster)
    assert spread.code == serial.code == 2
    assert untimed(spread.out) == untimed(serial.out)
    ids = [row.get("id") for row in lines(spread.out)]
    assert ids[:5] == ["grounded-quote", "measured-data", None, "long", "outdated-tether"]
    assert spread.err.splitlines() == serial.err.splitlines()


@pytest.mark.parametrize("where", ["tcp", "local"], ids=["scheduler-address", "local-cluster"])
def test_route_batch_on_the_cluster_is_byte_identical(
    cluster: str, payloads: Path, where: str
) -> None:
    serial = bounded("route", "--batch", payloads, "--workspace", EXAMPLES / "momentum-lab")
    spec = cluster if where == "tcp" else "local"
    spread = bounded(
        "route", "--batch", payloads, "--workspace", EXAMPLES / "momentum-lab", "--cluster", spec
    )
    assert spread.code == serial.code == 2
    assert spread.out == serial.out
    rows = lines(serial.out)
    assert [row["line"] for row in rows] == list(range(1, len(PAYLOADS) + 3))
    assert rows[-2]["error"].startswith(f"line {len(PAYLOADS) + 1}: payload is not valid JSON")
    assert {row.get("label") for row in rows[:-2]} >= {"ANSWER", "ABSTAIN", "HEDGED ANSWER"}


def test_overlay_built_on_the_cluster_is_the_serial_overlay(cluster: str, tmp_path: Path) -> None:
    saved: list[str] = []
    for args in ((), ("--cluster", cluster)):
        workspace = make_workspace(tmp_path / str(len(saved)))
        done = bounded("overlay", "build", "--workspace", workspace, *args)
        assert done.code == 0, done.err
        saved.append(untimed((workspace / ".synapse/links/claim_links.json").read_text()))
    assert saved[0] == saved[1]
    assert json.loads(saved[0])["counts"]["kept"] >= 1


def test_eval_scifact_on_the_cluster_scores_the_same(cluster: str, scifact_slice: Path) -> None:
    args = ("eval", "scifact", "--workspace", scifact_slice, "--claims", labels_path(scifact_slice))
    serial = bounded(*args, "--limit", "24")
    spread = bounded(*args, "--limit", "24", "--cluster", cluster)
    assert (spread.code, untimed(spread.out)) == (serial.code, untimed(serial.out))
    figures = json.loads(serial.out)
    assert figures["encoder"] is None  # SciFact tests run on words alone (conftest)
    assert figures["lexical"]["claims"] == 24


def test_a_worker_killed_mid_task_is_retried_and_the_output_is_unchanged(
    cluster: str, payloads: Path, tmp_path: Path
) -> None:
    serial = bounded("route", "--batch", payloads)
    with faults(cluster, tmp_path / "faults") as folder:
        (folder / "line 3.once").touch()
        spread = bounded("route", "--batch", payloads, "--cluster", cluster)
        assert not (folder / "line 3.once").exists()  # the worker running line 3 did die
    assert (spread.code, spread.out) == (serial.code, serial.out)


def test_a_poison_line_is_named_skipped_and_the_rest_answered(
    cluster: str, payloads: Path, tmp_path: Path
) -> None:
    serial = lines(bounded("route", "--batch", payloads).out)
    with faults(cluster, tmp_path / "faults") as folder:
        (folder / "line 2").touch()
        # Both workers die on line 2 and are restarted before the rest runs: on a loaded
        # two-core machine the two restarts alone have taken minutes, so this batch gets
        # three times the usual bound.
        spread = bounded("route", "--batch", payloads, "--cluster", cluster, timeout=3 * TIMEOUT)
    rows = lines(spread.out)
    assert rows[1] == {
        "id": None,
        "line": 2,
        "error": "line 2: skipped: every cluster worker that ran it died (a poison item); skipped",
    }
    assert rows[:1] + rows[2:] == serial[:1] + serial[2:]
    assert "line 2: skipped:" in spread.err and spread.code == 2


def test_an_interrupted_out_file_is_finished_by_the_next_run(
    cluster: str, lab_path: Path, questions: Path, tmp_path: Path
) -> None:
    whole = tmp_path / "whole.jsonl"
    assert bounded("ask", "--batch", questions, "--workspace", lab_path, "--out", whole).code == 2
    out = tmp_path / "answers.jsonl"
    kept = whole.read_bytes().split(b"\n")[:5]
    out.write_bytes(b"\n".join(kept[:4]) + b"\n" + kept[4][:40])  # a run cut off mid-line
    again = bounded(
        "ask", "--batch", questions, "--workspace", lab_path, "--out", out, "--cluster", cluster
    )
    total = len(lines(whole.read_text()))
    assert json.loads(again.out) == {"out": str(out), "kept": 4, "written": total - 4}
    assert untimed(out.read_text()) == untimed(whole.read_text())
    assert again.code == 2  # the malformed line an earlier run wrote still counts


def test_an_out_file_of_another_batch_is_refused(
    lab_path: Path, questions: Path, tmp_path: Path
) -> None:
    out = tmp_path / "other.jsonl"
    out.write_text(json.dumps({"id": "someone-else", "decision": {}}) + "\n")
    done = bounded("ask", "--batch", questions, "--workspace", lab_path, "--out", out)
    assert done.code == 2 and done.err.startswith(f"error: --out {out} line 1 is not this batch")
    assert out.read_text().count("\n") == 1


@pytest.mark.parametrize(
    "argv",
    [
        ("route", "--batch", "b.jsonl", "--cluster", "tcp://nowhere"),
        ("route", "--batch", "b.jsonl", "--cluster", "192.168.0.1:8786"),
        ("ask", "a question", "--workspace", ".", "--cluster", "local"),
    ],
    ids=["no-port", "no-scheme", "single-question"],
)
def test_unusable_cluster_arguments_exit_2_with_one_line(argv: tuple[str, ...]) -> None:
    done = bounded(*argv)
    assert done.code == 2 and "error:" in done.err

"""The `python -m engine route` command: output fields, stdin, workspace, and exit status 2."""

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from tests.cli import ROOT, Result, invoke

FIELDS = {
    "verdict", "status", "reasons", "outdated", "conclusion", "claims", "traceability",
    "verifiers", "confabulation", "honesty_violations", "detail",
}  # fmt: skip
BODY = "Momentum returns were 12% a year in the sample."
SOURCE = f"Intro. {BODY} Value returns were flat."
A1, A2 = "zk:lab:n1", "zk:lab:n2"


def claim(
    cid: str = "c1",
    text: str = BODY,
    kind: str = "restatement",
    cites: Sequence[str] = (A1,),
    premises: Sequence[str] = (),
) -> dict[str, Any]:
    return {"id": cid, "text": text, "kind": kind, "cites": list(cites), "premises": list(premises)}


def payload(
    claims: list[dict[str, Any]] | None = None,
    conclusion: str = "c1",
    prose: str = BODY,
    **extra: Any,
) -> dict[str, Any]:
    data: dict[str, Any] = {
        "dag": {
            "claims": claims or [claim()],
            "conclusion": conclusion,
            "prose_citations": [{"start": 0, "end": len(prose), "claim": conclusion}],
        },
        "prose": prose,
        "groundings": {A1: {"type": "quote", "payload": {"body": BODY, "fulltext": SOURCE}}},
    }
    return {**data, **extra}


def route(*args: object, stdin: str | None = None, seed: str = "0") -> Result:
    # A fixed but different hash seed per run shows the output does not depend on it.
    return invoke("route", *args, stdin=stdin, env={"PYTHONHASHSEED": seed})


def write(tmp_path: Path, data: object, name: str = "payload.json") -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def test_file_routes_to_a_grounded_answer_with_every_field(tmp_path: Path) -> None:
    done = route(write(tmp_path, payload()))
    assert done.code == 0, done.err
    out = json.loads(done.out)
    assert set(out) >= FIELDS
    assert (out["verdict"], out["status"], out["reasons"]) == ("answer", "grounded", [])
    assert out["verifiers"][A1]["status"] == "ok"


def test_stdin_dash_reads_the_payload() -> None:
    done = route("-", stdin=json.dumps(payload(prose="Momentum always wins.")))
    assert done.code == 0, done.err
    out = json.loads(done.out)
    assert (out["verdict"], out["reasons"]) == ("abstain", ["low-coverage"])
    assert out["traceability"]["orphans"] == ["Momentum always wins."]


RECOMPUTE = {"file": "data/returns.csv", "column": "ret", "agg": "mean", "value": 12}
# What the recomputation confirms, in the one sentence it licenses.
MEASURED = "The mean of ret in data/returns.csv is 12."


@pytest.mark.parametrize(
    ("use_workspace", "said", "expected"),
    [
        (True, MEASURED, ("answer", "measured", "ok")),
        (True, BODY, ("abstain", None, "ok")),
        (False, MEASURED, ("abstain", None, "unverifiable")),
    ],
    ids=["with-workspace", "the-note-s-own-words", "without-workspace"],
)
def test_workspace_lets_recompute_read_a_csv(
    tmp_path: Path, use_workspace: bool, said: str, expected: tuple[str, str | None, str]
) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "returns.csv").write_text("year,ret\n2020,10\n2021,14\n")
    data = payload(
        claims=[claim(text=said)],
        prose=said,
        groundings={A1: {"type": "expr-recompute", "payload": RECOMPUTE}},
        node_bodies={A1: f"{BODY} {said}"},
    )
    workspace = ["--workspace", tmp_path] if use_workspace else []
    done = route(write(tmp_path, data), *workspace)
    assert done.code == 0, done.err
    out = json.loads(done.out)
    assert (out["verdict"], out["status"], out["verifiers"][A1]["status"]) == expected


MALFORMED = {
    "cycle": (
        payload([claim("c1", kind="deduction", premises=["c2"]), claim("c2", premises=["c1"])]),
        "cycle",
    ),
    "dangling-premise": (payload([claim(premises=["ghost"])]), "ghost"),
    "unknown-conclusion": (payload(conclusion="c9"), "c9"),
    "wrong-type": ({**payload(), "node_status": {A1: {"tier": 3}}}, "tier"),
    "bad-kind": (payload([claim(kind="hunch")]), "hunch"),
    "invalid-json": ('{"dag": [', "not valid JSON"),
}


@pytest.mark.parametrize(("data", "named"), MALFORMED.values(), ids=MALFORMED.keys())
def test_malformed_input_exits_2_with_one_line(
    tmp_path: Path, data: dict[str, Any] | str, named: str
) -> None:
    done = route(write(tmp_path, data))
    assert done.code == 2
    assert done.out == ""
    assert len(done.err.splitlines()) == 1 and named in done.err


def test_missing_file_exits_2_naming_it(tmp_path: Path) -> None:
    done = route(tmp_path / "nowhere.json")
    assert (done.code, done.out) == (2, "")
    assert len(done.err.splitlines()) == 1 and "nowhere.json" in done.err


def test_lone_surrogate_is_rejected_or_routed(tmp_path: Path) -> None:
    # Valid JSON syntax, but "\\ud800" decodes to a lone surrogate that is not UTF-8 encodable.
    raw = json.dumps(payload()).replace("Momentum", "\\ud800omentum")
    done = route(write(tmp_path, raw))
    assert done.code == 2
    assert len(done.err.splitlines()) == 1 and "lone surrogate" in done.err


def test_output_is_byte_identical_across_runs(tmp_path: Path) -> None:
    data = payload(
        [claim(cites=(A1, A2)), claim("c2", "Value returns were 99% a year.", cites=(A2,))],
        prose=f"{BODY} Buy now 40%.",
        groundings={
            A1: {"type": "quote", "payload": {"body": BODY, "fulltext": SOURCE}},
            A2: {
                "type": "quote",
                "payload": {"body": "Value returns were 99%.", "fulltext": SOURCE},
            },
        },
        edges=[{"src": "mem:_memory:x", "dst": A1, "relation": "contradicts"}],
    )
    path = write(tmp_path, data)
    first, second = route(path, seed="1"), route(path, seed="2")
    assert first.code == 0, first.err
    assert first.out == second.out


def test_the_specification_wire_example_is_a_complete_routable_file() -> None:
    example = ROOT / "examples" / "wire" / "answer.json"
    text = example.read_text(encoding="utf-8")
    assert f"```json\n{text}```" in (ROOT / "docs" / "SPEC.md").read_text(encoding="utf-8")
    done = invoke("route", example)
    assert done.code == 0, done.err
    decision = json.loads(done.out)
    assert (decision["label"], decision["status"], decision["reasons"]) == (
        "ANSWER",
        "grounded",
        [],
    )
    assert decision["traceability"]["orphans"] == []

import json
from pathlib import Path

from tests.cli import invoke


def test_ask_prints_the_decision(lab_path: Path) -> None:
    question = (
        "Does buying past winners and selling past losers generate abnormal returns over 3 to 12 "
        "month holding periods?"
    )
    proc = invoke("ask", question, "--workspace", str(lab_path))
    assert proc.code == 0, proc.err
    out = json.loads(proc.out)
    for field in ("decision", "cited", "prose", "dag", "trace", "latency_ms"):
        assert field in out
    for field in ("verdict", "status", "reasons"):
        assert field in out["decision"]
    assert (out["decision"]["verdict"], out["decision"]["status"]) == ("answer", "grounded")
    assert out["cited"] == ["zk:finance:z-mom-01"]


def test_ask_budget_flags_bound_the_trace(lab_path: Path) -> None:
    proc = invoke(
        "ask", "Which sample did we use?", "--workspace", str(lab_path), "--max-steps", "2"
    )
    out = json.loads(proc.out)
    assert len(out["trace"]) <= 3


def test_batch_prints_one_line_per_question(lab_path: Path, tmp_path: Path) -> None:
    batch = tmp_path / "q.jsonl"
    batch.write_text(
        '{"id": "a", "question": "Does the momentum signal skip the most recent month?"}\n'
        "not json\n"
        '{"id": "b", "question": "What is the boiling point of water on Mars?"}\n'
    )
    proc = invoke("ask", "--batch", str(batch), "--workspace", str(lab_path))
    lines = [json.loads(line) for line in proc.out.splitlines()]
    assert [line["id"] for line in lines] == ["a", None, "b"]
    assert lines[0]["decision"]["label"] == "ANSWER" and "error" in lines[1]
    assert lines[2]["decision"]["verdict"] == "abstain"


def test_missing_workspace_exits_2(tmp_path: Path) -> None:
    proc = invoke("ask", "q", "--workspace", str(tmp_path / "nope"))
    assert proc.code == 2
    assert proc.err.strip().startswith("error:") and len(proc.err.strip().splitlines()) == 1


def test_single_and_batch_answers_carry_the_stance(lab_path: Path, tmp_path: Path) -> None:
    claim = (
        "Buying past winners and selling past losers generates abnormal returns over 3 to 12 "
        "month holding periods."
    )
    single = json.loads(invoke("ask", claim, "--workspace", str(lab_path)).out)
    batch = tmp_path / "q.jsonl"
    batch.write_text(
        json.dumps({"id": "claim", "question": claim})
        + "\n"
        + json.dumps({"id": "asks", "question": "Does the momentum signal skip a month?"})
        + "\n"
    )
    proc = invoke("ask", "--batch", str(batch), "--workspace", str(lab_path))
    stated, asked = (json.loads(line) for line in proc.out.splitlines())
    assert single["decision"]["label"] == "ANSWER" and single["stance"] == stated["stance"]
    assert set(stated["stance"]) == {
        "relation",
        "cue",
        "cue_kind",
        "confidence",
        "evidence",
        "measured",
        "tension",
        "asked",
        "overstated",
        "withheld_no",
        "reading",
        "denied",
    }
    assert stated["stance"]["relation"] in ("supports", "contradicts", "neither")
    assert not stated["stance"]["asked"]
    # A yes/no question is read as the claim it asks: its stance is its yes / no / mixed.
    assert asked["stance"] is not None and asked["stance"]["asked"]
    assert asked["stance"]["reading"] in ("yes", "no", "mixed")

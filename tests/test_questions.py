"""Questions are bounded and fair: a length cap, and no question holds another's back."""

from __future__ import annotations

import json
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from engine import MAX_QUESTION_CHARS, ConfigError, answer, question_problem
from engine.api import OpenWorkspace
from engine.workspace.opened import ANSWER_WORKERS, Worker
from tests.apptest import clear_caches  # noqa: F401 (empties Streamlit's caches per test)
from tests.cli import invoke
from tests.conftest import ROOT

SIGNAL = "Does the momentum signal skip the most recent month?"
# 48 KB of words, as a link `?q=…` can carry.
HUGE = ("momentum returns persist after costs " * 1400)[:48_000]
TOO_LONG = "x" * (MAX_QUESTION_CHARS + 1)


@pytest.mark.parametrize(
    ("question", "refused"),
    [(SIGNAL, False), ("y" * MAX_QUESTION_CHARS, False), (TOO_LONG, True), (HUGE, True)],
    ids=["short", "at-the-cap", "one-over", "48-kb"],
)
def test_the_cap_is_the_one_rule(question: str, refused: bool) -> None:
    problem = question_problem(question)
    assert (problem is not None) == refused
    if refused:
        assert problem is not None
        assert f"{len(question):,} characters" in problem and "2,000" in problem


def test_the_engine_refuses_a_question_over_the_cap(lab: OpenWorkspace) -> None:
    with pytest.raises(ConfigError, match="2,000"):
        answer(lab, HUGE)


def test_ask_refuses_a_question_over_the_cap_on_one_line(lab_path: Path) -> None:
    code, out, err = invoke("ask", TOO_LONG, "--workspace", lab_path)
    assert code == 2 and out == "" and err.startswith("error: the question is 2,001 characters")
    assert err.count("\n") == 1


def test_a_batch_line_over_the_cap_is_an_error_record_and_the_rest_answer(
    tmp_path: Path, lab_path: Path
) -> None:
    batch = tmp_path / "questions.jsonl"
    lines = [{"id": "a", "question": SIGNAL}, {"id": "b", "question": HUGE}]
    batch.write_text("".join(json.dumps(line) + "\n" for line in lines))
    code, out, _ = invoke("ask", "--batch", batch, "--workspace", lab_path)
    records = [json.loads(line) for line in out.splitlines()]
    assert code == 2 and [r["id"] for r in records] == ["a", "b"]
    assert "decision" in records[0] and "48,000 characters" in records[1]["error"]


def test_a_48_kb_link_is_refused_with_a_message_not_answered(
    lab_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SYNAPSE_WORKSPACE", str(lab_path))
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params["q"] = HUGE
    at.run()
    assert not at.exception
    errors = [e.value for e in at.error]
    assert any(e.startswith("Cannot ask: the question is 48,000 characters long") for e in errors)
    at.switch_page("pages/navigate.py").run()
    assert not at.exception
    assert any(c.value.startswith("Ask a question") for c in at.caption)


def test_a_long_answer_does_not_hold_back_the_others(lab_path: Path) -> None:
    worker = Worker(str(lab_path))
    release = threading.Event()
    started = threading.Event()

    def long_question() -> str:
        started.set()
        release.wait(600)  # stands for a slow answer; released only after the others finish
        return "long"

    try:
        worker.opened  # noqa: B018 (wait for the load)
        with ThreadPoolExecutor(max_workers=ANSWER_WORKERS) as sessions:
            slow = sessions.submit(worker.call_answer, long_question)
            assert started.wait(60)
            quick = [
                sessions.submit(worker.call_answer, answer, worker.opened, SIGNAL)
                for _ in range(ANSWER_WORKERS - 1)
            ]
            labels = [future.result(timeout=120).label for future in quick]
            assert not slow.done()
            release.set()
            assert slow.result(timeout=60) == "long"
        assert labels == ["ANSWER"] * (ANSWER_WORKERS - 1)
    finally:
        release.set()
        worker.close()


class Interrupted(Exception):
    """Stands for the exception a page gets when its user asks again or leaves."""


def test_a_session_asking_again_drops_its_queued_answer(lab_path: Path) -> None:
    worker = Worker(str(lab_path))
    release = threading.Event()
    ran: list[str] = []
    busy = threading.Barrier(ANSWER_WORKERS + 1)

    def occupy() -> None:
        busy.wait(60)
        release.wait(600)

    def tick() -> None:
        raise Interrupted  # the session asked again before its answer started

    try:
        held = [worker._answer_pool.submit(occupy) for _ in range(ANSWER_WORKERS)]
        busy.wait(60)  # every answer thread is busy: the next answer waits in the queue
        with pytest.raises(Interrupted):
            worker.call_answer(lambda: ran.append("queued"), tick=tick)
        release.set()
        for future in held:
            future.result(timeout=60)

        def next_call() -> str:
            ran.append("next")
            return "done"

        assert worker.call_answer(next_call) == "done"
        assert ran == ["next"]
    finally:
        release.set()
        worker.close()

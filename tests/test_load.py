"""Twenty concurrent sessions ask questions of one running app, and every one gets its answer.

One of the twenty asks through a model endpoint that trickles its reply: the 19 offline
sessions' answers come back while that call is still waiting. A server stopped mid-call
exits on SIGTERM, and asking again or leaving cancels a model call.

The sessions are real websocket clients of `streamlit run app.py` on loopback (see
`bench/bench_load.py` for why not AppTest threads or browsers). Each sets its own node
budget, so no answer comes from another session's cache entry: every ask runs the engine.
"""

from __future__ import annotations

import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.app_server import app_process, running_app
from bench.bench_load import (
    ASKS,
    SESSIONS,
    Asked,
    LoadRun,
    Session,
    drive,
    expected_banner,
    lab_questions,
    plan,
)
from tests.chat_server import ChatServer, stream_forever, trickle
from tests.workspaces import make_workspace

# Generous: the stopped server must be gone long before this, whatever the machine's load.
EXIT_BOUND_S = 15
# Well inside the model call's 30 s deadline, so only a cancel can end the call this soon.
CANCEL_BOUND_S = 15


@pytest.fixture(scope="module")
def load(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[LoadRun, dict[str, dict[str, Any]], Path, int]:
    """One app, twenty sessions driven to the end before any test looks.

    Session 0 asks once through an endpoint that trickles its reply until the call's
    deadline; the other 19 ask three questions each on the offline reasoner meanwhile.
    """
    tmp = tmp_path_factory.mktemp("load")
    lab = make_workspace(tmp, "momentum-lab")
    cases = {case["question"]: case for case in lab_questions()}
    plans = plan(list(cases), SESSIONS, ASKS)
    plans[0] = plans[0][:1]  # the model session: one ask, which waits out its deadline
    log = tmp / "app.log"
    with ChatServer(trickle('{"dag": {}}' + " " * 4000, 0.5)) as endpoint:
        with running_app(lab, log) as url:
            run = drive(url, plans, distinct_budgets=True, models={0: endpoint.base_url})
        reached = len(endpoint.chat_requests)
    return run, cases, log, reached


def offline_asks(run: LoadRun) -> list[Asked]:
    return [a for a in run.asked if a.reasoner == "offline"]


def test_every_offline_ask_finishes_without_error_and_sets_its_banner(
    load: tuple[LoadRun, dict[str, dict[str, Any]], Path, int],
) -> None:
    run, cases, _, _ = load
    offline = offline_asks(run)
    assert len(offline) == (SESSIONS - 1) * ASKS
    for asked in offline:
        assert asked.finished and asked.exceptions == (), asked
        [banner] = asked.banners
        assert banner.startswith(expected_banner(cases[asked.question])), asked


def test_each_session_downloads_its_own_decision(
    load: tuple[LoadRun, dict[str, dict[str, Any]], Path, int],
) -> None:
    run, _, _, _ = load
    assert len(run.asked) == (SESSIONS - 1) * ASKS + 1
    for asked in run.asked:
        assert asked.decision_question == asked.question, asked
        assert asked.decision_label is not None, asked
        assert asked.banners[0].startswith(asked.decision_label), asked


def test_the_server_logged_no_error(
    load: tuple[LoadRun, dict[str, dict[str, Any]], Path, int],
) -> None:
    _, _, log, _ = load
    text = Path(log).read_text()
    assert "Traceback" not in text and "Error" not in text, text[-2000:]


def test_offline_sessions_answer_while_a_model_call_trickles(
    load: tuple[LoadRun, dict[str, dict[str, Any]], Path, int],
) -> None:
    run, cases, _, reached = load
    assert reached >= 1, "the model session never reached its endpoint"
    [slow] = [a for a in run.asked if a.reasoner == "openai"]
    offline = offline_asks(run)
    # Offline answers came back while the model call was still trickling: a server that
    # queued them behind it would answer none before it gave up. (How many fit in its
    # 30 s depends on the machine's load, so the count is not the test.)
    firsts = [a for a in offline if a.question == plan(list(cases), SESSIONS, ASKS)[a.session][0]]
    assert len(firsts) == SESSIONS - 1
    assert any(a.finished_at < slow.finished_at for a in firsts)
    assert slow.finished and slow.banners and slow.banners[0].startswith("ABSTAIN"), slow


def test_the_server_stops_on_sigterm_during_an_endless_model_reply(tmp_path: Path) -> None:
    lab = make_workspace(tmp_path, "momentum-lab")
    question = lab_questions()[0]["question"]
    endless = ChatServer(stream_forever(0.05))
    with endless as endpoint, app_process(lab, tmp_path / "app.log") as (url, server):
        client = _model_session_waiting(url, endpoint, question)
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=EXIT_BOUND_S)
        except subprocess.TimeoutExpired:
            pytest.fail("the server ignored SIGTERM while a model call was streaming")
        client.close()


def _model_session_waiting(url: str, endpoint: ChatServer, question: str) -> Session:
    """A session on the model reasoner whose ask is waiting on `endpoint`'s reply."""
    client = Session(url)
    client.run()
    client.use_model(endpoint.base_url, "load-model")
    client.send(client.asking(question))
    assert endpoint.wait_asked(60), "the model call never started"
    return client


@pytest.fixture(scope="module")
def lab_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One app on momentum-lab for the cancel tests; each test is a session of its own."""
    tmp = tmp_path_factory.mktemp("cancel")
    lab = make_workspace(tmp, "momentum-lab")
    with running_app(lab, tmp / "app.log") as url:
        yield url


@pytest.mark.parametrize("leave", [False, True], ids=["asks-again", "leaves"])
def test_asking_again_or_leaving_cancels_the_model_call(lab_app: str, leave: bool) -> None:
    first, second = (case["question"] for case in lab_questions()[:2])
    # 200 s of reply: only a cancel, never the 30 s deadline, hangs up within the bound.
    slow = ChatServer(trickle('{"dag": {}}' + " " * 4000, 0.05))
    with slow as endpoint:
        client = _model_session_waiting(lab_app, endpoint, first)
        try:
            if leave:
                client.close()
            else:
                client.send(client.asking(second))
            assert endpoint.hung_up.wait(CANCEL_BOUND_S), "the model call ran on"
        finally:
            client.close()

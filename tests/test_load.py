"""Twenty concurrent sessions ask questions of one running app, and every one gets its answer.

The sessions are real websocket clients of `streamlit run app.py` on loopback (see
`bench/bench_load.py` for why not AppTest threads or browsers). Each sets its own node
budget, so no answer comes from another session's cache entry: every ask runs the engine.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bench.bench_load import (
    ASKS,
    SESSIONS,
    drive,
    expected_banner,
    lab_questions,
    plan,
    running_app,
)
from tests.conftest import MOMENTUM_LAB


@pytest.fixture(scope="module")
def load(tmp_path_factory):
    """One app, twenty sessions of three asks each, driven to the end before any test looks."""
    tmp = tmp_path_factory.mktemp("load")
    lab = tmp / "momentum-lab"
    shutil.copytree(MOMENTUM_LAB, lab, ignore=shutil.ignore_patterns(".synapse"))
    cases = {case["question"]: case for case in lab_questions()}
    log = tmp / "app.log"
    with running_app(lab, log) as url:
        run = drive(url, plan(list(cases), SESSIONS, ASKS), distinct_budgets=True)
    return run, cases, log


def test_every_ask_finishes_without_error_and_sets_its_banner(load):
    run, cases, _ = load
    assert len(run.asked) == SESSIONS * ASKS
    for asked in run.asked:
        assert asked.finished and asked.exceptions == (), asked
        [banner] = asked.banners
        assert banner.startswith(expected_banner(cases[asked.question])), asked


def test_each_session_downloads_its_own_decision(load):
    run, _, _ = load
    for asked in run.asked:
        assert asked.decision_question == asked.question, asked
        assert asked.banners[0].startswith(asked.decision_label), asked


def test_the_server_logged_no_error(load):
    _, _, log = load
    text = Path(log).read_text()
    assert "Traceback" not in text and "Error" not in text, text[-2000:]

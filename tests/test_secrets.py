"""The API key goes out only as the Authorization header; the app listens on 127.0.0.1 only."""

import json
import logging
import tomllib
from pathlib import Path

import pytest

from engine.api import ask, open_workspace
from engine.core.environment import ENV_LLM_API_KEY as ENV_API_KEY
from engine.core.environment import ENV_LLM_BASE_URL as ENV_BASE_URL
from engine.core.environment import ENV_LLM_MODEL as ENV_MODEL
from engine.models.llm import LLMConfig, OpenAIChat
from engine.navigation.reasoners.model_reasoner import ModelReasoner
from tests.chat_server import (
    ChatServer,
    Step,
    chat_server_fixture,  # noqa: F401 (registers the chat_server fixture)
    cut_mid_reply,
    reply,
    slow_first_byte,
    status,
    wrong_shape,
)
from tests.cli import Result, invoke
from tests.conftest import ROOT
from tests.test_endpoint_faults import closed_port_url, grounded_draft

KEY = "sk-test-SECRET-1234567890"
# Even a clipped head of the key counts as exposure.
KEY_HEAD = KEY[:12]
QUESTION = (
    "Does buying past winners and selling past losers generate abnormal returns over 3 to 12 "
    "month holding periods?"
)
CITED = "zk:finance:z-mom-01"
MESSAGES = [{"role": "user", "content": "Reply in JSON."}]
ECHO_401 = {"error": {"message": f"Incorrect API key provided: {KEY}", "key": KEY}}


def config(base_url: str) -> LLMConfig:
    return LLMConfig(base_url=base_url, model="m", api_key=KEY, timeout_s=1.0)


def assert_key_only_in_authorization(server: ChatServer) -> None:
    assert server.requests
    for request in server.requests:
        assert request.headers["authorization"] == f"Bearer {KEY}"
        others = "".join(v for k, v in request.headers.items() if k != "authorization")
        assert KEY not in request.raw + request.path + others


def test_config_shows_no_key() -> None:
    cfg = config("http://127.0.0.1:9/v1")
    assert KEY_HEAD not in repr(cfg) and KEY_HEAD not in json.dumps(cfg.to_dict())
    assert cfg.to_dict()["has_api_key"] is True


@pytest.mark.parametrize(
    ("step", "error"),
    [
        (status(401, ECHO_401), "refused the credentials (HTTP 401)"),
        (status(403, f"forbidden for key {KEY}"), "refused the credentials (HTTP 403)"),
        (status(500, f"upstream saw Authorization: Bearer {KEY}"), "HTTP 500"),
        (status(500, "x" * 180 + f" key {KEY}"), "HTTP 500"),
        (status(429, {"error": {"message": KEY}}, {"Retry-After": "30"}), "rate-limited"),
        (slow_first_byte(5, KEY), "timed out"),
        (cut_mid_reply(KEY * 20), "dropped the connection"),
        (wrong_shape({"echo": KEY}), "not a chat completion"),
        (None, "connection refused"),
    ],
    ids=[
        "401-echo",
        "403-echo",
        "500-echo",
        "500-echo-clipped",
        "429",
        "timeout",
        "cut",
        "wrong-shape",
        "refused",
    ],
)
def test_chat_errors_never_carry_the_key(
    chat_server: ChatServer, step: Step | None, error: str
) -> None:
    url = closed_port_url() if step is None else chat_server.script(step).base_url
    result = OpenAIChat(config(url)).complete(MESSAGES)
    assert not result.ok and error in result.error
    assert KEY_HEAD not in result.error
    if step is not None:
        assert_key_only_in_authorization(chat_server)


def test_logs_and_export_of_model_backed_asks_never_carry_the_key(
    lab_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    opened = open_workspace(lab_path)
    try:
        with ChatServer(status(401, ECHO_401), reply(grounded_draft(opened, CITED))) as server:
            reasoner = ModelReasoner(OpenAIChat(config(server.base_url)))
            failed, answered = (ask(opened, QUESTION, reasoner=reasoner) for _ in range(2))
    finally:
        opened.close()
    assert (failed.label, answered.label) == ("ABSTAIN", "ANSWER")
    assert "refused the credentials" in str(failed.failure)
    assert any(r.name == "engine.models.llm" for r in caplog.records)
    exposed = [caplog.text, failed.to_json(), answered.to_json()]
    exposed += [record.getMessage() for record in caplog.records]
    assert all(KEY_HEAD not in text for text in exposed)
    assert_key_only_in_authorization(server)


@pytest.mark.parametrize(
    ("echo", "label", "cause"),
    [(False, "ANSWER", None), (True, "ABSTAIN", "HTTP 500")],
    ids=["answer", "500-echoing-the-key"],
)
def test_cli_ask_with_the_openai_reasoner_never_prints_the_key(
    lab_path: Path, echo: bool, label: str, cause: str | None
) -> None:
    opened = open_workspace(lab_path)
    try:
        step = status(500, {"error": {"message": f"bad {KEY}"}}) if echo else None
        step = step or reply(grounded_draft(opened, CITED))
    finally:
        opened.close()
    with ChatServer(step) as server:
        proc = ask_openai_cli(lab_path, server)
    assert proc.code == 0, proc.err
    out = json.loads(proc.out)
    assert out["decision"]["label"] == label and out["reasoner"] == "openai"
    assert cause is None or cause in out["failure"]
    assert KEY_HEAD not in proc.out + proc.err
    assert_key_only_in_authorization(server)


def test_a_reply_repeating_the_key_never_reaches_the_output_or_the_export(lab_path: Path) -> None:
    opened = open_workspace(lab_path)
    try:
        valid = json.loads(grounded_draft(opened, CITED))
    finally:
        opened.close()
    # The model repeats the key in its prose and in a claim: the JSON printed with --full
    # (the export) and everything else must show it redacted.
    valid["prose"] = f"{valid['prose']} The key is {KEY}."
    valid["dag"]["claims"][0]["text"] += f" {KEY}"
    with ChatServer(reply(json.dumps(valid))) as server:
        proc = ask_openai_cli(lab_path, server)
    assert proc.code == 0, proc.err
    assert KEY_HEAD not in proc.out + proc.err
    assert "[redacted]" in proc.out


def test_streamlit_app_binds_to_loopback_and_sends_no_usage_stats() -> None:
    settings = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    assert settings["server"]["address"] == "127.0.0.1"
    assert settings["browser"]["gatherUsageStats"] is False


def ask_openai_cli(lab_path: Path, server: ChatServer) -> Result:
    """`ask --reasoner openai --full` in a subprocess, against `server`, with the test key."""
    env = {ENV_BASE_URL: server.base_url, ENV_MODEL: "m", ENV_API_KEY: KEY}
    args = ["ask", QUESTION, "--workspace", lab_path, "--reasoner", "openai", "--full"]
    return invoke(*args, env=env, timeout=60)

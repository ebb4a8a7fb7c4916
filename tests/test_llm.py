import json
import logging
import socket
import time
import urllib.request
from typing import Any

import pytest

from engine.core.errors import ConfigError
from engine.models.llm import (
    CONNECTION_CHECK_PROMPT,
    PLACEHOLDER_KEY,
    ChatReply,
    LLMConfig,
    OpenAIChat,
    check_connection,
    redact,
)
from tests.chat_server import (
    ChatServer,
    Step,
    chat_server_fixture,  # noqa: F401 (registers the chat_server fixture)
    cut_mid_reply,
    hang,
    reply,
    slow_first_byte,
    status,
    wrong_shape,
)

KEY = "sk-test-5f1d2c9a7b"
MESSAGES = [{"role": "user", "content": "Say something in JSON."}]


def config(server: ChatServer, **overrides: Any) -> LLMConfig:
    return LLMConfig(base_url=server.base_url, model="test-model", api_key=KEY, **overrides)


def closed_port_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


def test_valid_reply_is_returned_with_the_request_as_configured(chat_server: ChatServer) -> None:
    chat_server.script(reply('{"answer": 42}'))
    result = OpenAIChat(config(chat_server, max_tokens=64)).complete(MESSAGES)
    assert result == ChatReply.answered('{"answer": 42}', result.latency_ms)
    assert result.latency_ms >= 0
    sent = chat_server.chat_requests[0].body
    assert sent["model"] == "test-model" and sent["messages"] == MESSAGES
    assert sent["response_format"] == {"type": "json_object"}
    assert sent["max_tokens"] == 64 and sent["temperature"] == 0


def test_plain_mode_does_not_ask_for_json(chat_server: ChatServer) -> None:
    result = OpenAIChat(config(chat_server)).complete(MESSAGES, json_mode=False)
    assert result.ok
    assert "response_format" not in chat_server.chat_requests[0].body


@pytest.mark.parametrize(
    ("steps", "timeout_s", "error"),
    [
        ([status(500)], 5, "endpoint error: HTTP 500: scripted HTTP 500"),
        ([status(503, "upstream down")], 5, "endpoint error: HTTP 503: upstream down"),
        (
            [status(429, headers={"Retry-After": "30"})],
            2,
            "endpoint rate-limited (HTTP 429), retry after 30 s",
        ),
        ([status(429)], 5, "endpoint rate-limited (HTTP 429)"),
        (
            [status(429, headers={"Retry-After": "0"}), status(429, headers={"Retry-After": "0"})],
            5,
            "endpoint rate-limited (HTTP 429), retry after 0 s",
        ),
        ([status(401)], 5, "endpoint refused the credentials (HTTP 401): scripted HTTP 401"),
        ([hang(5)], 1, "endpoint timed out after 1.0 s"),
        ([slow_first_byte(5, "{}")], 1, "endpoint timed out after 1.0 s"),
        ([cut_mid_reply('{"answer": "' + "x" * 400 + '"}')], 5, "endpoint dropped the connection"),
        ([wrong_shape({"result": "hi"})], 5, "endpoint reply is not a chat completion"),
        ([wrong_shape({"choices": []})], 5, "endpoint reply is not a chat completion"),
        ([wrong_shape([1, 2])], 5, "endpoint reply is not a chat completion"),
        ([status(200, "<html>hi</html>")], 5, "endpoint reply is not valid JSON"),
        ([reply("   ")], 5, "empty reply"),
    ],
    ids=[
        "http-500",
        "http-503-text",
        "429-wait-beyond-timeout",
        "429-no-retry-after",
        "429-twice",
        "http-401",
        "hang-past-timeout",
        "slow-first-byte-past-timeout",
        "cut-mid-reply",
        "wrong-shape",
        "no-choices",
        "json-array",
        "not-json",
        "blank-content",
    ],
)
def test_failures_come_back_labelled(
    chat_server: ChatServer, steps: list[Step], timeout_s: int, error: str
) -> None:
    chat_server.script(*steps)
    result = OpenAIChat(config(chat_server, timeout_s=timeout_s)).complete(MESSAGES)
    assert not result.ok and result.text == ""
    assert result.error.startswith(error)


def test_a_hang_fails_well_within_three_timeouts(chat_server: ChatServer) -> None:
    chat_server.script(hang(10))
    started = time.monotonic()
    result = OpenAIChat(config(chat_server, timeout_s=1)).complete(MESSAGES)
    assert result.error == "endpoint timed out after 1.0 s"
    assert time.monotonic() - started < 3


def test_connection_refused_is_labelled() -> None:
    cfg = LLMConfig(base_url=closed_port_url(), model="m", api_key=KEY, timeout_s=2)
    result = OpenAIChat(cfg).complete(MESSAGES)
    assert result.error == "endpoint unreachable: connection refused"


def test_rate_limit_with_a_short_retry_after_is_retried_once(chat_server: ChatServer) -> None:
    chat_server.script(status(429, headers={"Retry-After": "1"}), reply('{"ok": true}'))
    result = OpenAIChat(config(chat_server, timeout_s=5)).complete(MESSAGES)
    assert result.ok and result.text == '{"ok": true}'
    assert len(chat_server.chat_requests) == 2


def test_rate_limit_beyond_the_budget_is_not_retried(chat_server: ChatServer) -> None:
    chat_server.script(status(429, headers={"Retry-After": "30"}), reply("{}"))
    OpenAIChat(config(chat_server, timeout_s=2)).complete(MESSAGES)
    assert len(chat_server.chat_requests) == 1


def test_json_mode_refused_with_400_is_dropped_for_this_endpoint(chat_server: ChatServer) -> None:
    chat_server.script(status(400, {"error": {"message": "response_format unsupported"}}))
    chat_server.script(reply('{"ok": true}'))
    chat = OpenAIChat(config(chat_server))
    assert chat.complete(MESSAGES).ok and chat.complete(MESSAGES).ok
    first, second, third = (r.body for r in chat_server.chat_requests)
    assert "response_format" in first
    assert "response_format" not in second and "response_format" not in third


def test_400_without_json_mode_is_a_labelled_failure(chat_server: ChatServer) -> None:
    chat_server.script(status(400, {"error": {"message": "bad messages"}}))
    result = OpenAIChat(config(chat_server)).complete(MESSAGES, json_mode=False)
    assert result.error == "endpoint error: HTTP 400: bad messages"
    assert len(chat_server.chat_requests) == 1


def test_slow_first_byte_within_the_timeout_succeeds(chat_server: ChatServer) -> None:
    chat_server.script(slow_first_byte(0.2, '{"ok": true}'))
    assert OpenAIChat(config(chat_server, timeout_s=5)).complete(MESSAGES).ok


def test_check_connection_sends_a_tiny_prompt(chat_server: ChatServer) -> None:
    assert check_connection(config(chat_server)).ok
    assert chat_server.chat_requests[0].body["messages"][0]["content"] == CONNECTION_CHECK_PROMPT


def test_the_key_never_leaks(chat_server: ChatServer, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    echo = {"error": {"message": f"Incorrect API key provided: {KEY}"}}
    chat_server.script(status(401, echo), status(500, f"boom {KEY}"), reply("{}"))
    cfg = config(chat_server, timeout_s=2)
    chat = OpenAIChat(cfg)
    replies = [chat.complete(MESSAGES) for _ in range(3)]
    replies.append(OpenAIChat(LLMConfig(closed_port_url(), "m", api_key=KEY)).complete(MESSAGES))
    assert [r.ok for r in replies] == [False, False, True, False]
    assert "Incorrect API key provided: [redacted]" in replies[0].error
    for text in [r.error for r in replies] + [repr(cfg), json.dumps(cfg.to_dict()), caplog.text]:
        assert KEY not in text
    assert all(KEY not in record.getMessage() for record in caplog.records)
    for request in chat_server.chat_requests:
        assert request.headers["authorization"] == f"Bearer {KEY}"
        others = [v for k, v in request.headers.items() if k != "authorization"]
        assert KEY not in request.raw + request.path + "".join(others)


def test_redact_removes_only_a_real_key() -> None:
    assert redact(f"a {KEY} b {KEY}", LLMConfig("http://h/v1", "m", api_key=KEY)) == (
        "a [redacted] b [redacted]"
    )
    assert redact("not-needed here", LLMConfig("http://h/v1", "m")) == "not-needed here"


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        (
            {"SYNAPSE_LLM_BASE_URL": "http://127.0.0.1:11434/v1", "SYNAPSE_LLM_MODEL": "llama"},
            ("http://127.0.0.1:11434/v1", "llama", PLACEHOLDER_KEY),
        ),
        (
            {
                "SYNAPSE_LLM_BASE_URL": " https://api.example.org/v1 ",
                "SYNAPSE_LLM_MODEL": "gpt",
                "SYNAPSE_LLM_API_KEY": KEY,
            },
            ("https://api.example.org/v1", "gpt", KEY),
        ),
    ],
    ids=["local-no-key", "remote-with-key"],
)
def test_config_from_env(env: dict[str, str], expected: tuple[str, str, str]) -> None:
    cfg = LLMConfig.from_env(env)
    assert (cfg.base_url, cfg.model, cfg.api_key) == expected
    assert cfg.timeout_s == 30 and cfg.max_tokens == 2048 and cfg.temperature == 0


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"SYNAPSE_LLM_MODEL": "llama"}, "SYNAPSE_LLM_BASE_URL is not set"),
        ({"SYNAPSE_LLM_BASE_URL": "http://127.0.0.1:1/v1"}, "SYNAPSE_LLM_MODEL is not set"),
        ({"SYNAPSE_LLM_BASE_URL": "localhost:1", "SYNAPSE_LLM_MODEL": "m"}, "must be an http"),
    ],
    ids=["no-base-url", "no-model", "not-a-url"],
)
def test_config_from_env_refuses_incomplete_settings(env: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        LLMConfig.from_env(env)


def test_server_answers_models_listing(chat_server: ChatServer) -> None:
    with urllib.request.urlopen(f"{chat_server.base_url}/models", timeout=5) as response:
        assert json.load(response)["data"][0]["id"] == "test-model"

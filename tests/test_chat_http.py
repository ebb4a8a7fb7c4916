"""The chat transport under attack: trickling and endless replies, redirects, echoed keys, size."""

import threading
from collections.abc import Callable
from typing import Any

import pytest

from engine.models.llm import CANCELLED, ChatReply, LLMConfig, OpenAIChat
from tests.chat_server import (
    ChatServer,
    Step,
    chat_server_fixture,  # noqa: F401 (registers the chat_server fixture)
    echo_key,
    redirect,
    reply,
    status,
    stream_forever,
    trickle,
)

KEY = "sk-test-9e8d7c6b5a4f"
MESSAGES = [{"role": "user", "content": "Say something in JSON."}]
# Replies that never complete: a trickle of one byte at a time, and a stream without end.
NEVER_COMPLETES = pytest.mark.parametrize(
    "step",
    [trickle('{"answer": "' + "x" * 200 + '"}', 0.3), stream_forever(0.05)],
    ids=["trickle-one-byte-at-a-time", "stream-without-end"],
)
# A generous bound: the call must be over long before this, whatever the machine's load.
HARNESS_S = 20


def config(server: ChatServer, **overrides: Any) -> LLMConfig:
    return LLMConfig(base_url=server.base_url, model="test-model", api_key=KEY, **overrides)


def complete_within_harness(
    chat: OpenAIChat, *, after_start: Callable[[], object] | None = None
) -> ChatReply:
    """Run one `complete`; fail the test if it is still running HARNESS_S after `after_start`."""
    out: dict[str, Any] = {}
    thread = threading.Thread(target=lambda: out.update(reply=chat.complete(MESSAGES)))
    thread.daemon = True
    thread.start()
    if after_start is not None:
        after_start()
    thread.join(HARNESS_S)
    assert not thread.is_alive(), "the call outlived its deadline or its cancel by far"
    reply: ChatReply = out["reply"]
    return reply


@NEVER_COMPLETES
def test_a_reply_that_never_completes_ends_at_the_total_deadline(
    chat_server: ChatServer, step: Step
) -> None:
    chat_server.script(step)
    result = complete_within_harness(OpenAIChat(config(chat_server, timeout_s=1)))
    assert not result.ok and result.error == "endpoint timed out after 1.0 s"


def test_a_redirect_to_another_origin_is_not_followed(chat_server: ChatServer) -> None:
    with ChatServer() as elsewhere:
        chat_server.script(redirect(elsewhere.base_url + "/chat/completions"))
        result = OpenAIChat(config(chat_server)).complete(MESSAGES)
        assert not result.ok and "another origin" in result.error
        assert elsewhere.requests == []


@pytest.mark.parametrize("code", [301, 302, 307, 308])
def test_a_same_origin_redirect_is_followed(chat_server: ChatServer, code: int) -> None:
    chat_server.script(redirect("/v1/chat/completions?moved=1", code), reply('{"ok": 1}'))
    result = OpenAIChat(config(chat_server)).complete(MESSAGES)
    assert result.ok and result.text == '{"ok": 1}'
    assert [r.path for r in chat_server.chat_requests][-1] == "/v1/chat/completions?moved=1"


def test_redirect_loops_end(chat_server: ChatServer) -> None:
    chat_server.script(redirect("/v1/chat/completions"))
    result = OpenAIChat(config(chat_server)).complete(MESSAGES)
    assert not result.ok and "redirected more than" in result.error


def test_a_reply_repeating_the_key_comes_back_redacted(chat_server: ChatServer) -> None:
    chat_server.script(echo_key())
    result = OpenAIChat(config(chat_server)).complete(MESSAGES)
    assert result.ok and KEY not in result.text
    assert result.text == '{"answer": "the key is [redacted]"}'


def test_an_oversized_reply_is_refused_before_parsing(chat_server: ChatServer) -> None:
    chat_server.script(reply("x" * 50_000))
    result = OpenAIChat(config(chat_server, max_reply_bytes=10_000)).complete(MESSAGES)
    assert not result.ok and result.error == (
        "endpoint reply is larger than 10,000 bytes; not read"
    )


def test_an_oversized_endless_stream_is_cut_at_the_cap(chat_server: ChatServer) -> None:
    chat_server.script(stream_forever(0.0))
    result = complete_within_harness(OpenAIChat(config(chat_server, max_reply_bytes=20_000)))
    assert not result.ok and "larger than 20,000 bytes" in result.error


def test_a_deeply_nested_reply_is_a_labelled_failure(chat_server: ChatServer) -> None:
    chat_server.script(reply("[" * 100_000))
    nested = '{"choices": ' + "[" * 5000 + "]" * 5000 + "}"
    chat_server.script(status(200, nested))
    chat = OpenAIChat(config(chat_server))
    first, second = chat.complete(MESSAGES), chat.complete(MESSAGES)
    assert first.ok  # the content is text; what it holds is the parser's business
    assert not second.ok and "nested deeper than" in second.error


@NEVER_COMPLETES
def test_cancelling_ends_a_call_in_progress_long_before_its_deadline(
    chat_server: ChatServer, step: Step
) -> None:
    chat_server.script(step)
    cancel = threading.Event()

    def cancel_once_asked() -> None:
        assert chat_server.wait_asked(HARNESS_S), "the request never reached the endpoint"
        cancel.set()

    chat = OpenAIChat(config(chat_server, timeout_s=600), cancel=cancel)
    result = complete_within_harness(chat, after_start=cancel_once_asked)
    assert not result.ok and result.error == CANCELLED


def test_a_cancelled_chat_sends_nothing(chat_server: ChatServer) -> None:
    chat_server.script(reply('{"answer": "yes"}'))
    cancel = threading.Event()
    cancel.set()
    result = OpenAIChat(config(chat_server), cancel=cancel).complete(MESSAGES)
    assert not result.ok and result.error == CANCELLED
    assert chat_server.chat_requests == []

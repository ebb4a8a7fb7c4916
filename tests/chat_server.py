"""A local server speaking the Chat Completions protocol, replaying a scripted queue of replies.

Tests drive the real `openai` client against it on 127.0.0.1: each `POST
/v1/chat/completions` takes the next scripted step (the last one repeats once the queue
is empty) and every request is recorded in `.requests`.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from enum import Enum
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

COMPLETIONS_PATH = "/v1/chat/completions"
MODELS_PATH = "/v1/models"
DEFAULT_MODEL = "test-model"


class StepKind(Enum):
    """What the server does with one chat request."""

    REPLY = "reply"
    STATUS = "status"
    HANG = "hang"
    SLOW_FIRST_BYTE = "slow_first_byte"
    CUT_MID_REPLY = "cut_mid_reply"
    WRONG_SHAPE = "wrong_shape"
    TRICKLE = "trickle"
    STREAM_FOREVER = "stream_forever"
    REDIRECT = "redirect"
    ECHO_KEY = "echo_key"


@dataclass(frozen=True)
class Step:
    """One scripted answer; build it with the functions below rather than directly."""

    kind: StepKind
    content: str = ""
    code: int = 200
    body: object = None
    headers: tuple[tuple[str, str], ...] = ()
    seconds: float = 0.0


def reply(content: str) -> Step:
    """A valid chat completion whose assistant message is `content`."""
    return Step(StepKind.REPLY, content=content)


def status(code: int, body: object = None, headers: Mapping[str, str] | None = None) -> Step:
    """An HTTP error `code`; `body` (str or JSON value) defaults to an OpenAI-style error."""
    if body is None:
        body = {"error": {"message": f"scripted HTTP {code}", "type": "server_error"}}
    return Step(StepKind.STATUS, code=code, body=body, headers=tuple((headers or {}).items()))


def hang(seconds: float) -> Step:
    """Say nothing for `seconds`, then close the connection without an answer."""
    return Step(StepKind.HANG, seconds=seconds)


def slow_first_byte(seconds: float, content: str) -> Step:
    """Wait `seconds` before sending anything, then answer like `reply(content)`."""
    return Step(StepKind.SLOW_FIRST_BYTE, content=content, seconds=seconds)


def cut_mid_reply(content: str) -> Step:
    """Send the headers and half of a valid reply's body, then close the socket."""
    return Step(StepKind.CUT_MID_REPLY, content=content)


def wrong_shape(data: object) -> Step:
    """HTTP 200 with valid JSON `data` that is not a Chat Completions response."""
    return Step(StepKind.WRONG_SHAPE, body=data)


def trickle(content: str, seconds_per_byte: float = 0.5) -> Step:
    """Send the headers of a valid reply, then its body one byte every `seconds_per_byte`."""
    return Step(StepKind.TRICKLE, content=content, seconds=seconds_per_byte)


def stream_forever(seconds_per_chunk: float = 0.05) -> Step:
    """A chunked `text/event-stream` reply that never ends (until the server stops)."""
    return Step(StepKind.STREAM_FOREVER, seconds=seconds_per_chunk)


def redirect(location: str, code: int = 307) -> Step:
    """An HTTP redirect `code` to `location` (absolute, or a path on this server)."""
    return Step(StepKind.REDIRECT, code=code, headers=(("Location", location),))


def echo_key(template: str = '{{"answer": "the key is {key}"}}') -> Step:
    """A valid reply whose content repeats the bearer token the request carried."""
    return Step(StepKind.ECHO_KEY, content=template)


@dataclass(frozen=True)
class RecordedRequest:
    """One request as the server saw it; `body` is the decoded JSON, or None."""

    method: str
    path: str
    headers: Mapping[str, str] = field(default_factory=dict)
    raw: str = ""
    body: Any = None


def completion(content: str, model: str = DEFAULT_MODEL) -> dict[str, Any]:
    """A minimal valid Chat Completions response carrying `content`."""
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


class ChatServer:
    """A context manager serving scripted chat replies on a free port of 127.0.0.1."""

    def __init__(self, *steps: Step, model: str = DEFAULT_MODEL) -> None:
        self.model = model
        self.requests: list[RecordedRequest] = []
        self._steps: list[Step] = list(steps)
        self._last = reply('{"ok": true}')
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        # Set when a client hangs up on a reply still being trickled or streamed.
        self.hung_up = threading.Event()
        self._asked = threading.Event()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        if self._httpd is None:
            raise RuntimeError("the server is not running; use it as a context manager")
        return f"http://127.0.0.1:{self._httpd.server_port}/v1"

    def script(self, *steps: Step) -> ChatServer:
        """Queue more steps after the ones not yet served."""
        with self._lock:
            self._steps.extend(steps)
        return self

    @property
    def chat_requests(self) -> list[RecordedRequest]:
        return [r for r in self.requests if r.path.split("?")[0] == COMPLETIONS_PATH]

    def __enter__(self) -> ChatServer:
        self._httpd = _Server(("127.0.0.1", 0), _Handler)
        self._httpd.chat = self
        # A short poll interval keeps `shutdown()` (which waits for one poll) fast.
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        # Wake handlers that are still waiting, so joining them below is quick.
        self._stopping.set()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def wait_asked(self, timeout: float) -> bool:
        """Wait up to `timeout` seconds for the first chat request; whether one arrived."""
        return self._asked.wait(timeout)

    def _record(self, request: RecordedRequest) -> None:
        with self._lock:
            self.requests.append(request)
        if request.path.split("?")[0] == COMPLETIONS_PATH:
            self._asked.set()

    def _next_step(self) -> Step:
        with self._lock:
            if self._steps:
                self._last = self._steps.pop(0)
            return self._last

    def _wait(self, seconds: float) -> None:
        self._stopping.wait(seconds)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = True
    chat: ChatServer

    def handle_error(self, request: object, client_address: object) -> None:
        # A client that gave up (timeout) leaves a broken pipe behind: expected here.
        pass


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def log_message(self, format: str, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        self._record(b"")
        if self.path.rstrip("/") == MODELS_PATH:
            data = {"object": "list", "data": [{"id": self.server.chat.model, "object": "model"}]}
            self._send_json(200, data)
        else:
            self._send_json(404, {"error": {"message": "not found"}})

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        self._record(self.rfile.read(length))
        if self.path.split("?")[0] != COMPLETIONS_PATH:
            self._send_json(404, {"error": {"message": "not found"}})
            return
        chat = self.server.chat
        step = chat._next_step()
        if step.kind is StepKind.REPLY:
            self._send_json(200, completion(step.content, chat.model))
        elif step.kind is StepKind.STATUS:
            self._send_json(step.code, step.body, dict(step.headers))
        elif step.kind is StepKind.HANG:
            chat._wait(step.seconds)
            self.close_connection = True
        elif step.kind is StepKind.SLOW_FIRST_BYTE:
            chat._wait(step.seconds)
            self._send_json(200, completion(step.content, chat.model))
        elif step.kind is StepKind.CUT_MID_REPLY:
            data = json.dumps(completion(step.content, chat.model)).encode()
            self._send_head(200, len(data), {})
            self.wfile.write(data[: len(data) // 2])
            self.wfile.flush()
            self.close_connection = True
        elif step.kind is StepKind.TRICKLE:
            self._trickle(json.dumps(completion(step.content, chat.model)).encode(), step.seconds)
        elif step.kind is StepKind.STREAM_FOREVER:
            self._stream_forever(step.seconds)
        elif step.kind is StepKind.REDIRECT:
            self._send_json(step.code, {"moved": True}, dict(step.headers))
        elif step.kind is StepKind.ECHO_KEY:
            token = self.headers.get("Authorization", "").removeprefix("Bearer ")
            self._send_json(200, completion(step.content.format(key=token), chat.model))
        else:
            self._send_json(200, step.body)

    def _trickle(self, data: bytes, seconds_per_byte: float) -> None:
        chat = self.server.chat
        self._send_head(200, len(data), {})
        try:
            for i in range(len(data)):
                if chat._stopping.is_set():
                    break
                self.wfile.write(data[i : i + 1])
                self.wfile.flush()
                chat._wait(seconds_per_byte)
        except OSError:  # the client gave up
            chat.hung_up.set()
        self.close_connection = True

    def _stream_forever(self, seconds_per_chunk: float) -> None:
        chat = self.server.chat
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.send_header("Connection", "close")
        self.end_headers()
        event = b'data: {"choices": [{"delta": {"content": "more "}}]}\n\n'
        try:
            while not chat._stopping.is_set():
                self.wfile.write(b"%x\r\n%s\r\n" % (len(event), event))
                self.wfile.flush()
                chat._wait(seconds_per_chunk)
        except OSError:  # the client gave up
            chat.hung_up.set()
        self.close_connection = True

    def _record(self, raw: bytes) -> None:
        text = raw.decode("utf-8", "replace")
        try:
            body = json.loads(text) if text else None
        except ValueError:
            body = None
        headers = {k.lower(): v for k, v in self.headers.items()}
        self.server.chat._record(RecordedRequest(self.command, self.path, headers, text, body))

    def _send_json(self, code: int, body: object, headers: Mapping[str, str] | None = None) -> None:
        data = body.encode() if isinstance(body, str) else json.dumps(body).encode()
        self._send_head(code, len(data), headers or {})
        self.wfile.write(data)

    def _send_head(self, code: int, length: int, headers: Mapping[str, str]) -> None:
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(length))
        # One request per connection: no idle keep-alive handler outlives a test.
        self.send_header("Connection", "close")
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()


@pytest.fixture(name="chat_server")
def chat_server_fixture() -> Iterator[ChatServer]:
    """A running `ChatServer` with an empty script (it answers `{"ok": true}`).

    Importing `chat_server_fixture` into a test module (or a conftest) registers it.
    """
    with ChatServer() as server:
        yield server

"""The seam to an OpenAI-compatible chat endpoint: settings, replies and a never-raising client."""

from __future__ import annotations

import email.utils
import json
import logging
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.message import Message
from typing import Any, Protocol
from urllib.parse import urlsplit

from engine.core import jsonsafe
from engine.core.environment import ENV_LLM_BASE_URL, ENV_LLM_MODEL, environment
from engine.core.errors import ConfigError
from engine.models.chat_http import (
    Cancelled,
    DeadlineExpired,
    HttpReply,
    TransportFailure,
    post_json,
)

log = logging.getLogger(__name__)

# Local servers (Ollama, llama.cpp, vLLM) ignore the key, but the client insists on one.
PLACEHOLDER_KEY = "not-needed"
REDACTED = "[redacted]"
CONNECTION_CHECK_PROMPT = 'Reply with {"ok": true}'
_DETAIL_CHARS = 200
MIN_REDACTED_KEY = 8
CANCELLED = "model call cancelled: the question was asked again or the page was left"


@dataclass(frozen=True)
class LLMConfig:
    """Where and how to ask a chat model; `api_key` is kept out of repr and `to_dict`."""

    base_url: str
    model: str
    api_key: str = field(default=PLACEHOLDER_KEY, repr=False)
    timeout_s: float = 30.0
    max_tokens: int = 2048
    temperature: float = 0.0
    max_reply_bytes: int = 4_000_000

    def __post_init__(self) -> None:
        parts = urlsplit(self.base_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ConfigError(
                f"LLM base URL {self.base_url!r} must be an http(s) URL such as "
                "http://127.0.0.1:11434/v1"
            )
        if not self.model.strip():
            raise ConfigError("LLM model name is empty")
        if not self.timeout_s > 0:
            raise ConfigError(f"LLM timeout must be positive, got {self.timeout_s}")
        if self.max_tokens < 1:
            raise ConfigError(f"LLM max_tokens must be at least 1, got {self.max_tokens}")
        if not 0 <= self.temperature <= 2:
            raise ConfigError(f"LLM temperature must lie in [0, 2], got {self.temperature}")
        if self.max_reply_bytes < 1:
            raise ConfigError(f"LLM reply cap must be at least 1 byte, got {self.max_reply_bytes}")

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> LLMConfig:
        """Read `SYNAPSE_LLM_BASE_URL`, `SYNAPSE_LLM_MODEL` and `SYNAPSE_LLM_API_KEY`.

        Raises `ConfigError` when the base URL or model is missing; an empty key means a
        local server that needs none.
        """
        settings = environment(environ)
        base_url, model = settings.llm_base_url, settings.llm_model
        if not base_url:
            raise ConfigError(
                f"{ENV_LLM_BASE_URL} is not set; point it at an OpenAI-compatible endpoint, "
                "e.g. http://127.0.0.1:11434/v1"
            )
        if not model:
            raise ConfigError(f"{ENV_LLM_MODEL} is not set; name the model to ask, e.g. llama3.1")
        api_key = settings.llm_api_key or PLACEHOLDER_KEY
        return cls(base_url=base_url, model=model, api_key=api_key)

    def to_dict(self) -> dict[str, Any]:
        """The settings safe to show or export: everything but the key."""
        return {
            "base_url": self.base_url,
            "model": self.model,
            "has_api_key": self.api_key != PLACEHOLDER_KEY,
            "timeout_s": self.timeout_s,
            "max_tokens": self.max_tokens,
            "temperature": self.temperature,
        }


def redact(text: str, config: LLMConfig) -> str:
    """`text` with every occurrence of the configured API key replaced.

    Keys shorter than `MIN_REDACTED_KEY` are left alone: they are no secret, and replacing
    every "k" of a model's reply would mangle it.
    """
    key = config.api_key
    if len(key) < MIN_REDACTED_KEY or key == PLACEHOLDER_KEY:
        return text
    return text.replace(key, REDACTED)


@dataclass(frozen=True)
class ChatReply:
    """The outcome of one chat request: the reply text, or a labelled, key-free error.

    Build it with `ChatReply.answered(text, latency_ms)` or
    `ChatReply.failed(error, latency_ms)`; `ok` says which it is.
    """

    ok: bool
    text: str = ""
    error: str = ""
    latency_ms: int = 0

    @classmethod
    def answered(cls, text: str, latency_ms: int = 0) -> ChatReply:
        return cls(ok=True, text=text, latency_ms=latency_ms)

    @classmethod
    def failed(cls, error: str, latency_ms: int = 0) -> ChatReply:
        return cls(ok=False, error=error, latency_ms=latency_ms)


class ChatModel(Protocol):
    """Anything that answers a chat conversation: the seam between reasoners and a model.

    `complete` receives the conversation as Chat Completions messages
    (`{"role": "system" | "user" | "assistant", "content": str}`, oldest first) and
    `json_mode`, a request that the reply be one JSON object (a hint: callers validate the
    reply themselves). It returns a `ChatReply`: `answered(text, latency_ms)`, or
    `failed(error, latency_ms)` for any transport, status or decoding problem, with an
    error that names the problem and never contains a key. It must not raise; a caller
    treats an exception as a failed reply. `OpenAIChat` is the production implementation;
    tests talk to a local Chat Completions server through it.
    """

    def complete(self, messages: list[dict[str, Any]], *, json_mode: bool = True) -> ChatReply: ...


class _Failure(Exception):
    """A labelled failure inside `OpenAIChat`, turned into a `ChatReply` at the edge."""


class _BadRequest(_Failure):
    """HTTP 400: the only status after which asking again (without JSON mode) can help."""


class _RateLimited(_Failure):
    """HTTP 429, with the wait the endpoint asked for (None when it gave none)."""

    def __init__(self, label: str, wait: float | None) -> None:
        super().__init__(label)
        self.wait = wait


class OpenAIChat:
    """A `ChatModel` speaking the Chat Completions protocol to `config.base_url`.

    One `complete` takes at most `config.timeout_s` in total, enforced by the client: a
    watchdog ends the exchange at the deadline however the server trickles or streams, and
    the two possible second requests (JSON mode refused with HTTP 400, after which this
    instance stops asking for it; HTTP 429 with a `Retry-After` that fits) only use what is
    left of that budget. Redirects are followed only within the base URL's origin, replies
    over `config.max_reply_bytes` are refused unread, and the API key is redacted from
    everything that comes back. Setting `cancel` ends a call in progress within a tick and
    fails every later one: the app sets it when the user asks again or leaves the page.
    """

    def __init__(self, config: LLMConfig, *, cancel: threading.Event | None = None) -> None:
        self.config = config
        self.cancel = cancel
        # Set once the endpoint refused JSON mode and answered without it.
        self._json_mode_refused = False

    def complete(self, messages: list[dict[str, Any]], *, json_mode: bool = True) -> ChatReply:
        """Ask the model; every failure comes back as `ChatReply.failed`, never raised."""
        started = time.monotonic()
        try:
            text = self._exchange(messages, json_mode, started + self.config.timeout_s)
        except _Failure as failure:
            return self._fail(str(failure), started)
        except Exception as exc:  # the seam promises never to raise into a page
            return self._fail(f"unexpected error: {type(exc).__name__}: {exc}", started)
        return ChatReply.answered(redact(text, self.config), _elapsed_ms(started))

    def _exchange(self, messages: list[dict[str, Any]], json_mode: bool, deadline: float) -> str:
        json_mode = json_mode and not self._json_mode_refused
        rate_limited_once = fell_back = False
        while True:
            if self.cancel is not None and self.cancel.is_set():
                raise _Failure(CANCELLED)
            if deadline - time.monotonic() <= 0:
                raise _Failure(self._timed_out())
            try:
                text = self._request(messages, json_mode, deadline)
                self._json_mode_refused = self._json_mode_refused or fell_back
                return text
            except _BadRequest:
                if not json_mode:
                    raise
                # Some servers do not support JSON mode; the prompt still asks for JSON.
                log.info("endpoint refused JSON mode (HTTP 400); asking again without it")
                json_mode = False
                fell_back = True
            except _RateLimited as limited:
                wait = limited.wait
                left = deadline - time.monotonic()
                if rate_limited_once or wait is None or wait >= left:
                    raise
                rate_limited_once = True
                log.info("endpoint rate-limited; retrying in %s", _seconds(wait))
                if self.cancel is not None:
                    self.cancel.wait(wait)
                else:
                    time.sleep(wait)

    def _request(self, messages: list[dict[str, Any]], json_mode: bool, deadline: float) -> str:
        body = {
            "model": self.config.model,
            "messages": messages,
            "max_tokens": self.config.max_tokens,
            "temperature": self.config.temperature,
        }
        if json_mode:
            body["response_format"] = {"type": "json_object"}
        headers = {
            "Content-Type": "application/json",
            "Accept": "application/json",
            "Authorization": f"Bearer {self.config.api_key}",
            "User-Agent": "synapse-review",
        }
        url = self.config.base_url.rstrip("/") + "/chat/completions"
        try:
            reply = post_json(
                url,
                json.dumps(body).encode("utf-8"),
                headers,
                deadline=deadline,
                max_bytes=self.config.max_reply_bytes,
                cancel=self.cancel,
            )
        except Cancelled:
            raise _Failure(CANCELLED) from None
        except DeadlineExpired:
            raise _Failure(self._timed_out()) from None
        except TransportFailure as exc:
            raise _Failure(str(exc)) from None
        if reply.status >= 300:
            raise self._status_failure(reply)
        try:
            data = jsonsafe.loads(reply.body)
        except ValueError as exc:  # a 200 whose body is not JSON at all
            raise _Failure(f"endpoint reply is not valid JSON: {exc}") from None
        return _content(data)

    def _timed_out(self) -> str:
        return f"endpoint timed out after {self.config.timeout_s:.1f} s"

    def _status_failure(self, reply: HttpReply) -> _Failure:
        code = reply.status
        if code == 429:
            wait = _retry_after(reply.headers)
            label = "endpoint rate-limited (HTTP 429)"
            if wait is not None:
                label += f", retry after {_seconds(wait)}"
            return _RateLimited(label, wait)
        if code in (401, 403):
            label = f"endpoint refused the credentials (HTTP {code})"
        elif code == 404:
            label = f"endpoint error: HTTP 404 (is the model {self.config.model!r} served there?)"
        else:
            label = f"endpoint error: HTTP {code}"
        # Redact before clipping: a clip through the key would leave its head unredactable.
        detail = _error_detail(_body_value(reply.body), self.config)
        label = f"{label}: {detail}" if detail else label
        return _BadRequest(label) if code == 400 else _Failure(label)

    def _fail(self, error: str, started: float) -> ChatReply:
        error = redact(error, self.config)
        where = redact(self.config.base_url, self.config)
        log.warning("chat request to %s failed: %s", where, error)
        return ChatReply.failed(error, _elapsed_ms(started))


def _content(data: object) -> str:
    """The assistant message of a Chat Completions body, or a labelled failure."""
    choices = data.get("choices") if isinstance(data, dict) else None
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise _Failure("endpoint reply is not a chat completion (no choices)")
    message = choices[0].get("message")
    content = message.get("content") if isinstance(message, dict) else None
    if content is not None and not isinstance(content, str):
        raise _Failure("endpoint reply is not a chat completion (content is not text)")
    if not content or not content.strip():
        raise _Failure("empty reply")
    return content


def _body_value(body: bytes) -> object:
    """An error body as JSON when it is JSON, else as text."""
    try:
        return jsonsafe.loads(body)
    except ValueError:
        return body.decode("utf-8", "replace")


def check_connection(config: LLMConfig) -> ChatReply:
    """Send one tiny request, for a "Test connection" button; never raises."""
    messages = [{"role": "user", "content": CONNECTION_CHECK_PROMPT}]
    return OpenAIChat(config).complete(messages, json_mode=True)


def _error_detail(body: object, config: LLMConfig) -> str:
    if isinstance(body, Mapping):
        error = body.get("error", body)
        message = error.get("message") if isinstance(error, Mapping) else error
        return _clip(redact(str(message), config)) if message else ""
    return _clip(redact(str(body), config)) if body else ""


def _retry_after(headers: Message) -> float | None:
    """Seconds to wait from `retry-after-ms` or `retry-after` (seconds or an HTTP date)."""
    raw_ms = headers.get("retry-after-ms")
    if raw_ms:
        try:
            return max(0.0, float(raw_ms) / 1000)
        except ValueError:
            pass
    raw = headers.get("retry-after")
    if not raw:
        return None
    try:
        return max(0.0, float(raw))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(raw)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - datetime.now(UTC)).total_seconds())


def _seconds(value: float) -> str:
    return f"{round(value, 1):g} s"


def _clip(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _DETAIL_CHARS else text[: _DETAIL_CHARS - 1] + "…"


def _elapsed_ms(started: float) -> int:
    return round((time.monotonic() - started) * 1000)

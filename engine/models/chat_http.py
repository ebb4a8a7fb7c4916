"""One JSON POST under a total deadline, a reply size cap and a same-origin redirect rule.

Per-read socket timeouts cannot bound a request: a server trickling one byte a second, or
streaming without end, answers every read in time. A watchdog therefore shuts the socket
down when the whole exchange (connect, headers, body, redirects) reaches its deadline, which
wakes any blocked read at once. Redirects are followed only to the same scheme, host and
port, so the prompt and the key never travel anywhere the user did not configure. A caller
may also pass a `cancel` event: setting it ends the exchange the same way, within a tick.
"""

from __future__ import annotations

import contextlib
import http.client
import socket
import ssl
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from email.message import Message
from urllib.parse import urljoin, urlsplit

REDIRECT_CODES = frozenset({301, 302, 303, 307, 308})
MAX_REDIRECTS = 3
_CHUNK = 64 * 1024
CANCEL_TICK = 0.05  # seconds between looks at a cancel event


class TransportFailure(Exception):
    """The exchange failed; the message is the label to show (it may still hold the key)."""


class DeadlineExpired(TransportFailure):
    """The total deadline passed before the reply was complete."""


class Cancelled(TransportFailure):
    """The caller set its cancel event before the reply was complete."""


@dataclass(frozen=True)
class HttpReply:
    """A complete HTTP reply: status, headers (case-insensitive lookups) and body bytes."""

    status: int
    headers: Message
    body: bytes


def origin(url: str) -> tuple[str, str, int]:
    """(scheme, host, port) of `url`, with the scheme's default port filled in."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    port = parts.port or (443 if scheme == "https" else 80)
    return scheme, (parts.hostname or "").lower(), port


def post_json(
    url: str,
    body: bytes,
    headers: Mapping[str, str],
    *,
    deadline: float,
    max_bytes: int,
    cancel: threading.Event | None = None,
) -> HttpReply:
    """POST `body` to `url` and return the whole reply before `deadline` (time.monotonic).

    Raises DeadlineExpired when time runs out, Cancelled once `cancel` is set, and
    TransportFailure for a refused connection, a cut reply, a reply over `max_bytes`, or a
    redirect leaving the origin of `url`.
    """
    home = origin(url)
    for _ in range(MAX_REDIRECTS + 1):
        reply = _exchange(url, body, headers, deadline=deadline, max_bytes=max_bytes, cancel=cancel)
        if reply.status not in REDIRECT_CODES:
            return reply
        location = reply.headers.get("location")
        if not location:
            return reply
        target = urljoin(url, location)
        if origin(target) != home:
            scheme, host, port = origin(target)
            raise TransportFailure(
                f"endpoint redirected (HTTP {reply.status}) to another origin "
                f"{scheme}://{host}:{port}; not followed"
            )
        url = target
    raise TransportFailure(f"endpoint redirected more than {MAX_REDIRECTS} times; not followed")


class _Watchdog:
    """Shuts the connection's socket down at the deadline or on cancel, waking any blocked read."""

    def __init__(self, seconds: float, cancel: threading.Event | None = None) -> None:
        self.expired = threading.Event()
        self.cancelled = False
        # Kept here: http.client drops `connection.sock` once a closing reply's headers arrive.
        self.sock: socket.socket | None = None
        self._lock = threading.Lock()
        self._end = time.monotonic() + max(seconds, 0.0)
        self._cancel = cancel
        self._over = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="synapse-watchdog", daemon=True)

    def __enter__(self) -> _Watchdog:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._over.set()

    def arm(self, sock: socket.socket | None) -> None:
        with self._lock:
            self.sock = sock
            if self.expired.is_set():
                self._shutdown()

    def _watch(self) -> None:
        while not self._over.is_set():
            if self._cancel is not None and self._cancel.is_set():
                self.cancelled = True
                self._fire()
                return
            left = self._end - time.monotonic()
            if left <= 0:
                self._fire()
                return
            self._over.wait(left if self._cancel is None else min(left, CANCEL_TICK))

    def _fire(self) -> None:
        with self._lock:
            self.expired.set()
            self._shutdown()

    def _shutdown(self) -> None:
        if self.sock is not None:
            with contextlib.suppress(OSError):
                self.sock.shutdown(socket.SHUT_RDWR)

    def failure(self, when: str) -> TransportFailure:
        """What ended the exchange `when` it ended early: the deadline or the cancel."""
        if self.cancelled:
            return Cancelled(f"cancelled {when}")
        return DeadlineExpired(f"deadline passed {when}")


def _exchange(
    url: str,
    body: bytes,
    headers: Mapping[str, str],
    *,
    deadline: float,
    max_bytes: int,
    cancel: threading.Event | None,
) -> HttpReply:
    if cancel is not None and cancel.is_set():
        raise Cancelled("cancelled before the request")
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        raise DeadlineExpired("deadline passed before the request")
    parts = urlsplit(url)
    scheme, host, port = origin(url)
    if scheme == "https":
        connection: http.client.HTTPConnection = http.client.HTTPSConnection(
            host, port, timeout=remaining, context=ssl.create_default_context()
        )
    else:
        connection = http.client.HTTPConnection(host, port, timeout=remaining)
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    watchdog = _Watchdog(remaining, cancel)
    try:
        with watchdog:
            try:
                connection.connect()
                watchdog.arm(connection.sock)
                if watchdog.expired.is_set():  # fired while connecting, before a socket existed
                    raise watchdog.failure("while connecting")
                connection.request("POST", path, body=body, headers=dict(headers))
                response = connection.getresponse()
                data = _read_capped(response, max_bytes)
            except TransportFailure:
                raise
            except TimeoutError:
                if watchdog.cancelled:
                    raise watchdog.failure("mid-reply") from None
                raise DeadlineExpired("socket timed out") from None
            except (http.client.HTTPException, OSError) as exc:
                if watchdog.expired.is_set():
                    raise watchdog.failure("mid-reply") from None
                raise TransportFailure(_label(exc)) from None
        if watchdog.expired.is_set():
            raise watchdog.failure("mid-reply")
        declared = response.getheader("content-length") or ""
        if declared.isdigit() and len(data) < int(declared):
            # http.client returns a short body rather than raising when the peer hangs up.
            raise TransportFailure("endpoint dropped the connection mid-reply")
        return HttpReply(response.status, response.headers, data)
    finally:
        connection.close()


def _read_capped(response: http.client.HTTPResponse, max_bytes: int) -> bytes:
    declared = response.getheader("content-length")
    if declared and declared.isdigit() and int(declared) > max_bytes:
        raise TransportFailure(f"endpoint reply is larger than {max_bytes:,} bytes; not read")
    chunks: list[bytes] = []
    size = 0
    while True:
        chunk = response.read(min(_CHUNK, max_bytes + 1 - size))
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        size += len(chunk)
        if size > max_bytes:
            raise TransportFailure(f"endpoint reply is larger than {max_bytes:,} bytes; not read")


def _label(exc: BaseException) -> str:
    if isinstance(exc, ConnectionRefusedError):
        return "endpoint unreachable: connection refused"
    if isinstance(exc, http.client.IncompleteRead | http.client.RemoteDisconnected):
        return "endpoint dropped the connection mid-reply"
    if isinstance(exc, ConnectionResetError | BrokenPipeError):
        return "endpoint dropped the connection mid-reply"
    if isinstance(exc, socket.gaierror):
        return f"endpoint unreachable: cannot resolve the host ({exc.strerror or exc})"
    if isinstance(exc, ssl.SSLError):
        return f"endpoint unreachable: TLS failed ({exc.reason or exc})"
    reason = " ".join(str(exc).split())[:200]
    return f"endpoint unreachable: {reason or type(exc).__name__}"

"""Run the app as a `streamlit run` server on loopback, for browser tests and the load check."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEADLINE = 120.0


def free_port() -> int:
    """A loopback TCP port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def running_app(workspace: Path, log: Path, *, deadline: float = DEADLINE) -> Iterator[str]:
    """`streamlit run app.py` on loopback against `workspace`; yields its URL once healthy."""
    with app_process(workspace, log, deadline=deadline) as (url, _):
        yield url


@contextmanager
def app_process(
    workspace: Path, log: Path, *, deadline: float = DEADLINE
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """Like `running_app`, yielding the server process too (to signal it)."""
    port = free_port()
    command = [
        sys.executable, "-m", "webapp.serve",
        "--server.port", str(port),
        "--server.address", "127.0.0.1",
        "--server.headless", "true",
        "--browser.gatherUsageStats", "false",
    ]  # fmt: skip
    env = {**os.environ, "SYNAPSE_WORKSPACE": str(workspace)}
    url = f"http://127.0.0.1:{port}"
    with log.open("w") as out:
        server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=out)
        try:
            _wait_healthy(url, server, log, deadline)
            yield url, server
        finally:
            if server.poll() is None:
                server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait(timeout=20)


def _wait_healthy(url: str, server: subprocess.Popen[bytes], log: Path, deadline: float) -> None:
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        if server.poll() is not None:
            raise RuntimeError(f"the app exited with {server.returncode}: {log.read_text()}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as reply:
                if reply.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.1)
    raise TimeoutError(f"the app did not answer /_stcore/health within {deadline:.0f}s")

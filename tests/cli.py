"""The one CLI harness: `python -m engine …` in this process, or as a real one where the
process boundary is what is tested; its exit code and output either way."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, NamedTuple

ROOT = Path(__file__).resolve().parents[1]
_TIMINGS = re.compile(
    r'"(latency_ms|median_latency_ms|ms|seconds|built_at|pages_per_second)": ("[^"]*"|[-0-9.e]+)'
)


def untimed(text: str) -> str:
    """`text` with every measured time taken out: two runs of one command differ only in these."""
    return _TIMINGS.sub(r'"\1": 0', text)


class Result(NamedTuple):
    """What one CLI run gave: exit code, standard output and standard error.

    A named tuple so that `code, out, err = run(...)` unpacks each with its own type.
    """

    code: int
    out: str
    err: str

    def json(self) -> Any:
        """Standard output decoded as JSON."""
        return json.loads(self.out)


class Running:
    """A CLI process started by `start`; `wait` collects its `Result`."""

    def __init__(self, proc: subprocess.Popen[str], stdin: str | None, timeout: float) -> None:
        self.proc, self.stdin, self.timeout = proc, stdin, timeout

    def wait(self) -> Result:
        try:
            out, err = self.proc.communicate(self.stdin, timeout=self.timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.communicate()
            raise
        return Result(self.proc.returncode, out, err)


def start(
    *argv: object,
    stdin: str | None = None,
    env: Mapping[str, str] | None = None,
    cwd: str | os.PathLike[str] = ROOT,
    timeout: float = 120,
    preexec: Callable[[], object] | None = None,
) -> Running:
    """Start `python -m engine *argv` (each argument as a string) without waiting for it.

    `env` is added to this process's environment; the repository is always importable,
    whatever `cwd` is.
    """
    environment = {**os.environ, **(env or {})}
    environment["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(ROOT), environment.get("PYTHONPATH", "")) if p
    )
    proc = subprocess.Popen(
        [sys.executable, "-m", "engine", *map(str, argv)],
        cwd=cwd,
        env=environment,
        stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=preexec,
    )
    return Running(proc, stdin, timeout)


def run(
    *argv: object,
    stdin: str | None = None,
    env: Mapping[str, str] | None = None,
    cwd: str | os.PathLike[str] = ROOT,
    timeout: float = 120,
    preexec: Callable[[], object] | None = None,
) -> Result:
    """Run `python -m engine *argv` to the end; a hang past `timeout` fails the test."""
    return start(*argv, stdin=stdin, env=env, cwd=cwd, timeout=timeout, preexec=preexec).wait()


def invoke(
    *argv: object,
    stdin: str | None = None,
    env: Mapping[str, str] | None = None,
    cwd: str | os.PathLike[str] | None = None,
    timeout: float | None = None,
) -> Result:
    """Run the CLI's `main` in this process with captured output: the same `Result` as `run`.

    For everything but the process boundary (signals, pipes, start-up, resource limits).
    `env` is added to the environment and `cwd` entered for the call only; `timeout` is
    accepted for the same signature as `run` and not enforced in process.
    """
    del timeout
    from engine.cli import main

    out, err = io.StringIO(), io.StringIO()
    feed = io.TextIOWrapper(io.BytesIO((stdin or "").encode("utf-8")), encoding="utf-8")
    with (
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
        _stdin(feed),
        _environment(env or {}),
        contextlib.chdir(cwd or os.getcwd()),
    ):
        try:
            code = main([str(a) for a in argv])
        except SystemExit as exc:  # argparse's usage errors
            code = exc.code if isinstance(exc.code, int) else 2
    return Result(code, out.getvalue(), err.getvalue())


@contextlib.contextmanager
def _environment(extra: Mapping[str, str]) -> Iterator[None]:
    saved = {name: os.environ.get(name) for name in extra}
    os.environ.update(extra)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


@contextlib.contextmanager
def _stdin(feed: io.TextIOBase) -> Iterator[None]:
    saved = sys.stdin
    sys.stdin = feed
    try:
        yield
    finally:
        sys.stdin = saved

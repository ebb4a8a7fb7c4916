import io
import json
import os
import pty
import select
import subprocess
import sys
from pathlib import Path
from typing import IO

from engine.commands.progress import Progress
from tests.conftest import ROOT


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_terminal_gets_one_line_redrawn_per_percent_and_ended_when_done() -> None:
    stream = Terminal()
    line = Progress("typing pairs", stream=stream)
    for done in range(0, 401):
        line(done, 400)
    text = stream.getvalue()
    assert text.count("\r") == 101 and text.count("\n") == 1
    assert text.endswith("\rtyping pairs: 400/400 (100%)\n")
    assert "\rtyping pairs: 200/400 (50%)" in text


def test_a_pipe_gets_nothing() -> None:
    stream = io.StringIO()
    line = Progress("asking", stream=stream)
    line(1, 2)
    line(2, 2)
    line.note("done")
    assert stream.getvalue() == ""


def test_an_empty_job_ends_its_line() -> None:
    stream = Terminal()
    Progress("importing", stream=stream)(0, 0)
    assert stream.getvalue() == "\rimporting: 0/0 (100%)\n"


def test_quiet_overrides_a_terminal() -> None:
    stream = Terminal()
    line = Progress("x", stream=stream, enabled=False)
    line(1, 1)
    line.note("phase")
    assert stream.getvalue() == ""


def _ask_batch(workspace: Path, batch: Path, *, stdout: IO[bytes] | int) -> tuple[str, int]:
    """Run `ask --batch` with stderr on a pseudo-terminal; what that terminal got, and the exit."""
    leader, follower = pty.openpty()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "engine", "ask", "--workspace", str(workspace), "--batch",
             str(batch)],
            cwd=ROOT, stdout=stdout, stderr=follower, timeout=120,
        )  # fmt: skip
    finally:
        os.close(follower)
    seen = b""
    while select.select([leader], [], [], 0)[0]:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the terminal closed once the child exited
            break
        if not chunk:
            break
        seen += chunk
    os.close(leader)
    return seen.decode(), done.returncode


def test_a_redirected_batch_shows_how_far_it_got_on_the_terminal(
    lab_path: Path, tmp_path: Path
) -> None:
    batch = tmp_path / "questions.jsonl"
    lines = [json.dumps({"id": i, "question": "Does momentum persist?"}) for i in range(3)]
    batch.write_text("\n".join(lines) + "\n\n")
    with (tmp_path / "out.jsonl").open("wb") as out:
        seen, status = _ask_batch(lab_path, batch, stdout=out)
    assert status == 0
    assert "asking: 1/3 (33%)" in seen and seen.rstrip().endswith("asking: 3/3 (100%)")
    assert len((tmp_path / "out.jsonl").read_text().splitlines()) == 3


def test_a_batch_into_a_pipe_keeps_the_terminal_quiet_when_stdout_is_one_too(
    lab_path: Path, tmp_path: Path
) -> None:
    batch = tmp_path / "questions.jsonl"
    batch.write_text(json.dumps({"id": 1, "question": "Does momentum persist?"}) + "\n")
    leader, follower = pty.openpty()
    try:
        seen, status = _ask_batch(lab_path, batch, stdout=follower)
    finally:
        os.close(follower)
        os.close(leader)
    assert status == 0 and "asking:" not in seen

import io

from engine.commands.progress import Progress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_terminal_gets_one_line_redrawn_per_percent_and_ended_when_done():
    stream = Terminal()
    line = Progress("typing pairs", stream=stream)
    for done in range(0, 401):
        line(done, 400)
    text = stream.getvalue()
    assert text.count("\r") == 101 and text.count("\n") == 1
    assert text.endswith("\rtyping pairs: 400/400 (100%)\n")
    assert "\rtyping pairs: 200/400 (50%)" in text


def test_a_pipe_gets_nothing():
    stream = io.StringIO()
    line = Progress("asking", stream=stream)
    line(1, 2)
    line(2, 2)
    line.note("done")
    assert stream.getvalue() == ""


def test_an_empty_job_ends_its_line():
    stream = Terminal()
    Progress("importing", stream=stream)(0, 0)
    assert stream.getvalue() == "\rimporting: 0/0 (100%)\n"


def test_quiet_overrides_a_terminal():
    stream = Terminal()
    line = Progress("x", stream=stream, enabled=False)
    line(1, 1)
    line.note("phase")
    assert stream.getvalue() == ""

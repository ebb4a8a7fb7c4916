"""An answer shown in the app follows the files it rests on, in every session."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.apptest import clear_caches  # noqa: F401 (empties Streamlit's caches per test)
from tests.test_app import APP, ask, banner
from webapp import services

WINNERS = (
    "Does buying past winners and selling past losers generate abnormal returns over 3 to 12 "
    "month holding periods?"
)
SAID = "generated significant abnormal returns"
CORRECTED = "did not generate significant abnormal returns"


def correct_on_disk(root: Path) -> None:
    """The note's quote and its source both say the opposite now; no time is touched."""
    for relative in (".zettelkasten/finance/z-mom-01.md", "sources/jt1993.txt"):
        path = root / relative
        path.write_text(path.read_text("utf-8").replace(SAID, CORRECTED), "utf-8")


def prose(at: AppTest) -> str:
    return "\n".join(m.value for m in at.markdown) + "\n".join(h.value for h in at.html)


def test_a_corrected_note_and_source_re_route_the_answer_shown(
    lab_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SYNAPSE_WORKSPACE", str(lab_path))
    at = AppTest.from_file(APP, default_timeout=120).run()
    ask(at, WINNERS)
    assert banner(at).startswith("ANSWER") and SAID in prose(at)
    correct_on_disk(lab_path)
    # The workspace's watcher checks at its interval; its file watch then runs the page.
    services.worker(str(lab_path.resolve())).watcher.check()
    at.run()
    assert not at.exception
    assert SAID not in prose(at), "the old green is still shown"
    assert any(c.value.startswith("Re-routed: a note or source") for c in at.caption)


def test_a_new_session_never_gets_the_stale_answer(
    lab_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SYNAPSE_WORKSPACE", str(lab_path))
    first = AppTest.from_file(APP, default_timeout=120).run()
    ask(first, WINNERS)
    assert SAID in prose(first)
    correct_on_disk(lab_path)
    second = AppTest.from_file(APP, default_timeout=120).run()
    ask(second, WINNERS)
    assert not second.exception
    assert SAID not in prose(second)

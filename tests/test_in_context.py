"""A quoted sentence in its source: its neighbours, its page as the page stands, its mark."""

from pathlib import Path

import pytest

from engine.workspace.in_context import InContext, in_context
from engine.workspace.stores import load_workspace
from tests.workspaces import make_workspace

HEADING = "Results"
SENTENCE = "Students who slept after learning recalled 20 percent more word pairs."
PAGE = (
    "Sleep and memory   consolidation\n\n"
    f"{HEADING}\n\n\n"
    "Students who slept after learning recalled\n20 percent more word pairs. "
    "The effect did not depend on caffeine intake.\n"
)


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """The momentum lab with z-mom-01's source given a page of a heading and a paragraph.

    As the PDF importer writes a page: a heading its own paragraph, a paragraph's lines
    broken where the page broke them.
    """
    root = make_workspace(tmp_path)
    (root / "sources" / "jt1993.txt").write_text("A first page.\f" + PAGE, encoding="utf-8")
    return root


def test_the_page_keeps_its_lines_and_paragraphs(workspace: Path) -> None:
    found = in_context(load_workspace(workspace), "zk:finance:z-mom-01", SENTENCE)
    assert found is not None and found.page == 2
    assert found.sentence == SENTENCE
    # The heading stays on its own line, never run into the sentence after it.
    assert found.page_text.startswith(f"Sleep and memory consolidation\n\n{HEADING}\n\nStudents")
    assert f"{HEADING} Students" not in found.page_text


def test_the_sentence_is_marked_across_a_line_break(workspace: Path) -> None:
    found = in_context(load_workspace(workspace), "zk:finance:z-mom-01", SENTENCE)
    assert found is not None
    parts = found.page_parts()
    assert parts is not None
    before, sentence, after = parts
    assert before.endswith(f"{HEADING}\n\n") and " ".join(sentence.split()) == SENTENCE
    assert after.startswith(" The effect did not depend")
    assert before + sentence + after == found.page_text


@pytest.mark.parametrize(
    ("page", "sentence"),
    [("", "Anything."), ("A page.", "Not on it."), ("A page.", "")],
    ids=["no-page", "not-on-the-page", "no-sentence"],
)
def test_no_parts_when_the_sentence_is_not_on_the_page(page: str, sentence: str) -> None:
    item = InContext("zk:x:y", "x", 1, "", sentence, "", page)
    assert item.page_parts() is None

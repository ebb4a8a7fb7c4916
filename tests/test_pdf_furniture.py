"""A paper's furniture (running lines, headings, tables, captions, footnote marks) never
joins its prose: the passages the importer's text gives hold only sentences."""

import pytest

from engine.evaluation.pdf_tricks import pages_pdf, text_ops
from engine.importers.pdf import PdfText, extract_pdf
from engine.workspace.notes import FileStamp
from engine.workspace.passage_cache import PassageCache
from engine.workspace.passages import passage_notes
from engine.workspace.source_texts import SourceText

HEADER = "Journal of Sleep Studies 12 (2024)"


def _page(n: int, body: list[bytes]) -> bytes:
    # The footer is drawn between the body's lines, as some typesetters do.
    footer = text_ops(f"Sleep Review Summary December 1998 Page {n}", 40, size=9)
    header = text_ops(HEADER, 805, size=9)
    return b"\n".join([header, *body[:1], footer, *body[1:]])


def _table(y: float) -> list[bytes]:
    rows = [("Group", "Recall", "Sleep"), ("A", "12.5", "7.1"), ("B", "10.2", "6.3")]
    return [
        text_ops(cell, y - 16 * r, x=56 + 150 * c)
        for r, row in enumerate(rows)
        for c, cell in enumerate(row)
    ]


_FOOTNOTE = (
    b"BT /F1 11 Tf 56 600 Td (The act was signed into law by) Tj "
    b"/F1 6 Tf 4 Ts (1) Tj /F1 11 Tf 0 Ts ( President Clinton in 1998.) Tj ET"
)
PAGES = [
    [
        text_ops("Sleep and memory in adolescents", 700, size=16),
        text_ops("We studied 240 students in two schools.", 670),
        text_ops("Sleep improved recall in every school.", 654),
        _FOOTNOTE,
    ],
    [
        text_ops("Recall was measured twice in each group.", 700),
        *_table(670),
        text_ops("Figure 1: Mean recall by group", 600, size=9),
        text_ops("Recall rose with sleep in both groups.", 570),
    ],
    [text_ops("Longer sleep went with better recall in the final test.", 700)],
]


@pytest.fixture(scope="module")
def sentences() -> list[str]:
    read = extract_pdf(pages_pdf([_page(n, body) for n, body in enumerate(PAGES, 1)]))
    assert isinstance(read, PdfText)
    text = read.fulltext
    source = SourceText("paper", text, FileStamp.of(text.encode(), mtime_ns=0))
    notes = passage_notes([source], {}, PassageCache())
    return [" ".join(quote.body.split()) for note in notes.values() for quote in note.quotes]


def test_running_headers_and_footers_are_in_no_sentence(sentences: list[str]) -> None:
    said = " ".join(sentences)
    assert "Journal of Sleep" not in said and "December 1998" not in said
    assert "Longer sleep went with better recall in the final test." in sentences


def test_a_heading_is_not_joined_to_the_next_sentence(sentences: list[str]) -> None:
    assert "We studied 240 students in two schools." in sentences
    assert not any("adolescents" in s for s in sentences)


def test_table_rows_are_not_sentences(sentences: list[str]) -> None:
    assert not any("12.5" in s or "Recall Sleep" in s for s in sentences)
    assert "Recall was measured twice in each group." in sentences


def test_a_caption_is_not_joined_to_prose(sentences: list[str]) -> None:
    assert "Recall rose with sleep in both groups." in sentences
    assert not any("Mean recall by group" in s for s in sentences)


def test_a_footnote_mark_glued_to_a_word_is_left_out(sentences: list[str]) -> None:
    assert "The act was signed into law by President Clinton in 1998." in sentences


def test_a_short_page_s_heading_and_running_lines_stay_out_of_its_sentences() -> None:
    # Every line at the top of the page, as a short paper or a generated one sets it: the
    # header and the page number are running lines, "Results" a heading of its own.
    from tests.builders.pdfgen import pdf_bytes

    body = [
        ["Sleep and memory in adolescents", "We studied 240 students."],
        ["Methods", "Recall was measured twice in each group."],
        ["Results", "Students who slept longer recalled more word pairs."],
    ]
    pages = [[HEADER, *lines, f"Page {n}"] for n, lines in enumerate(body, 1)]
    read = extract_pdf(pdf_bytes(pages))
    assert isinstance(read, PdfText) and read.running_lines == 6
    text = read.fulltext
    source = SourceText("paper", text, FileStamp.of(text.encode(), mtime_ns=0))
    notes = passage_notes([source], {}, PassageCache())
    said = [" ".join(q.body.split()) for note in notes.values() for q in note.quotes]
    assert "Students who slept longer recalled more word pairs." in said
    assert "Recall was measured twice in each group." in said
    assert not any("Results" in s or "Methods" in s or "Journal" in s for s in said), said


@pytest.mark.parametrize(
    ("paragraph", "furniture"),
    [
        ("Results", True),
        ("Group Recall Sleep\nA 12.5 7.1", True),
        ("Figure 1: Mean recall by group", True),
        ("Sleep helped recall in every school.\nPage 2", False),
        ("Memory consolidation depends on slow-wave sleep.", False),
    ],
    ids=["heading", "table-rows", "caption", "sentence-then-page-number", "short-sentence"],
)
def test_a_short_paragraph_is_furniture_only_when_no_sentence_ends_in_it(
    paragraph: str, furniture: bool
) -> None:
    from engine.text.sentences import is_furniture

    assert is_furniture(paragraph) is furniture

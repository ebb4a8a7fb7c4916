import io

import pytest
from pypdf import PdfReader, PdfWriter

from engine.importers.pdf import PdfFailure, PdfFailureKind, PdfText, clean_page_text, extract_pdf
from tests.builders.pdfgen import pdf_bytes


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("the ﬁrst eﬀect", "the first effect"),
        ("a treat-\nment works", "a treatment works"),
        ("soft\u00ad\nhyphen", "softhyphen"),
        ("COVID-\n19 cases", "COVID-\n19 cases"),
        ("Anglo-\nSaxon", "Anglo-\nSaxon"),
        ("ER+ and −0.5 stay", "ER+ and −0.5 stay"),
        ("one\fpage", "one page"),
        ("trailing   \nspaces", "trailing\nspaces"),
        ("five titles: ! Title I\n! Title II", "five titles: • Title I\n• Title II"),
        ("It works! Yes ! no", "It works! Yes • no"),
    ],
    ids=[
        "ligatures",
        "hyphen",
        "soft-hyphen",
        "digits",
        "capital",
        "signs",
        "form-feed",
        "spaces",
        "symbol-bullet",
        "typed-exclamation",
    ],
)
def test_page_text_is_cleaned_without_touching_meaning(raw: str, clean: str) -> None:
    assert clean_page_text(raw) == clean


def test_pages_come_back_in_order_with_labels() -> None:
    data = pdf_bytes(
        [["Preface text that is long enough."], ["First chapter begins here, treat-", "ment."]],
        labels=[(0, "r", 1), (1, "D", 12)],
        title="A Book",
    )
    text = extract_pdf(data)
    assert isinstance(text, PdfText)
    assert text.pages[1] == "First chapter begins here, treatment."
    assert text.labels == ("i", "12") and text.custom_labels
    assert text.fulltext.count("\f") == 1 and text.title == "A Book"


def _encrypt(data: bytes, user: str) -> bytes:
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    writer.encrypt(user, owner_password="owner", algorithm="RC4-128")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


LINES = [["Enough words on this page to count as a text layer."]]


@pytest.mark.parametrize(
    ("data", "kind"),
    [
        (_encrypt(pdf_bytes(LINES), "secret"), PdfFailureKind.ENCRYPTED),
        (pdf_bytes([None, None]), PdfFailureKind.NO_TEXT),
        (b"%PDF-1.4\n1 0 obj << /Type /Catalog >> garbage", PdfFailureKind.MALFORMED),
        (pdf_bytes(LINES)[:200], PdfFailureKind.MALFORMED),
        (b"<html>not a pdf</html>", PdfFailureKind.MALFORMED),
    ],
    ids=["encrypted", "image-only", "garbage", "truncated", "not-pdf"],
)
def test_bad_pdfs_give_a_specific_failure(data: bytes, kind: PdfFailureKind) -> None:
    result = extract_pdf(data)
    assert isinstance(result, PdfFailure) and result.kind is kind and result.message


def test_an_empty_user_password_opens() -> None:
    text = extract_pdf(_encrypt(pdf_bytes(LINES), ""))
    assert isinstance(text, PdfText) and "text layer" in text.pages[0]


def test_limits_make_a_pdf_too_large() -> None:
    data = pdf_bytes(LINES * 3)
    for failed in (extract_pdf(data, max_pages=2), extract_pdf(data, max_bytes=100)):
        assert isinstance(failed, PdfFailure) and failed.kind is PdfFailureKind.TOO_LARGE


def test_a_partly_scanned_pdf_names_its_empty_pages() -> None:
    text = extract_pdf(pdf_bytes([LINES[0], None, LINES[0]]))
    assert isinstance(text, PdfText) and text.empty_pages == (2,)


def test_a_whole_pdf_loses_its_running_lines_and_rejoins_split_words() -> None:
    from engine.core.quote import verify_quote

    pages = [
        [f"Journal of Testing {n}", *body, f"Page {n} of 4"]
        for n, body in enumerate(
            [
                ["We use clas -", "sification methods in this study."],
                ["The long-", "term effect was large; a long-term view helps."],
                ["The classi-", "fication held across samples."],
                ["Results -", "which were mixed - follow."],
            ],
            start=1,
        )
    ]
    text = extract_pdf(pdf_bytes(pages))
    assert isinstance(text, PdfText) and text.running_lines == 8
    assert "Journal of Testing" not in text.fulltext and "Page 1 of 4" not in text.fulltext
    assert "We use classification methods in this study." in text.fulltext
    assert "The long-term effect was large" in text.fulltext
    assert "The classification held" in text.fulltext
    assert "Results -\nwhich were mixed" in text.fulltext  # a dash at a line end stays
    for quote in ("We use classification methods in this study.", "The long-term effect"):
        assert verify_quote(quote, text.fulltext).verified, quote

import io

import pytest
from pypdf import PdfReader, PdfWriter
from pypdf.generic import ArrayObject, DictionaryObject, FloatObject, NameObject, NumberObject

from engine.evaluation.pdf_tricks import TOP, one_page_pdf, text_ops
from engine.importers.pdf import PdfText, extract_pdf

LINE = "Zorbex lowered mortality in the ARC trial."


def _read(ops: bytes) -> PdfText:
    text = extract_pdf(one_page_pdf(ops))
    assert isinstance(text, PdfText)
    return text


@pytest.mark.parametrize(
    ("ops", "kept"),
    [
        (text_ops(LINE, TOP) + b" 0 g 50 763 300 0.8 re f", True),
        (b"q 0 0 0 1 k " + text_ops(LINE, TOP) + b" Q", True),
        (b"0 g 40 750 520 30 re f " + text_ops(LINE, TOP), False),
        (b"q 300 0 0 30 50 750 cm /Im1 Do Q 1 g " + text_ops(LINE, TOP), True),
        (b"q 1 0 0 1 0 0 cm 40 700 520 100 re W n " + text_ops(LINE, TOP) + b" Q", True),
        (b"q 0 0 1 1 re W n " + text_ops(LINE, TOP) + b" Q", False),
        (b"0 0 0 0 k " + text_ops(LINE, TOP), False),
        (text_ops(LINE, TOP) + b" 1 g 40 750 m 560 750 l 560 780 l 40 780 l h f", False),
        (b"0 g 40 750 520 30 re 42 752 516 26 re f* " + text_ops(LINE, TOP), True),
        (text_ops(LINE, TOP) + b" 0 g 40 750 520 1 re 40 780 520 1 re f", True),
    ],
    ids=[
        "strikethrough-rule",
        "cmyk-black",
        "black-on-black",
        "white-over-image",
        "clip-around-it",
        "clip-elsewhere",
        "cmyk-white",
        "white-outline-box-over-it",
        "black-frame-around-it",
        "rules-above-and-below",
    ],
)
def test_a_glyph_is_kept_when_a_reader_sees_it(ops: bytes, kept: bool) -> None:
    filler = text_ops("A first line a reader always sees on this page.", TOP + 40)
    text = _read(filler + b"\n" + ops)
    assert (LINE in text.pages[0]) is kept
    assert text.hidden_lines == ((0,) if kept else (1,))


def test_a_glyph_painted_twice_reads_once_and_a_superscript_stays_on_its_line() -> None:
    bold = text_ops(LINE, TOP) + b"\n" + text_ops(LINE, TOP, x=56.3)
    assert _read(bold).pages[0] == LINE
    marked = b"BT /F1 11 Tf 56 760 Td (mortality) Tj 4 Ts (1) Tj 0 Ts ( in the trial.) Tj ET"
    assert _read(marked).pages[0] == "mortality1 in the trial."


def test_two_columns_drawn_one_after_the_other_stay_apart() -> None:
    left = [text_ops(f"Left line {n}.", TOP - 16 * n) for n in range(2)]
    right = [text_ops(f"Right line {n}.", TOP - 16 * n, x=320) for n in range(2)]
    text = _read(b"\n".join(left + right))
    assert text.pages[0] == "Left line 0.\nLeft line 1.\nRight line 0.\nRight line 1."


def test_a_type3_font_is_as_large_as_its_own_matrix_makes_it() -> None:
    # Set at 1 pt, its matrix (0.011 a unit) makes it 11 pt: text to read, not a speck.
    shown = b"BT /T3 1 Tf 56 760 Td (Zorbex lowered mortality.) Tj ET"
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(one_page_pdf(shown))))
    font = {
        "/Type": NameObject("/Font"),
        "/Subtype": NameObject("/Type3"),
        "/FontBBox": ArrayObject([NumberObject(0)] * 4),
        "/FontMatrix": ArrayObject([FloatObject(v) for v in (0.011, 0, 0, 0.011, 0, 0)]),
        "/CharProcs": DictionaryObject(),
        "/Encoding": NameObject("/WinAnsiEncoding"),
        "/FirstChar": NumberObject(32),
        "/Widths": ArrayObject([NumberObject(50)] * 95),
    }
    resource = DictionaryObject({NameObject(k): v for k, v in font.items()})
    resources = writer.pages[0]["/Resources"]
    assert isinstance(resources, DictionaryObject)
    fonts = resources["/Font"]
    assert isinstance(fonts, DictionaryObject)
    fonts[NameObject("/T3")] = writer._add_object(resource)
    out = io.BytesIO()
    writer.write(out)
    text = extract_pdf(out.getvalue())
    assert isinstance(text, PdfText) and text.pages[0] == "Zorbex lowered mortality."


def _tj(words: list[str], space: int = -278) -> bytes:
    """A TJ array that sets `words` with no space glyph, each gap a kern of `space`."""
    return b"[" + f" {space} ".join(f"({w})" for w in words).encode() + b"] TJ"


def _spread(words: list[str], letter: int, space: int = -278) -> bytes:
    """A TJ array that sets each letter apart by a kern of `letter` (a line spread letter
    by letter, as some producers justify), and each word by `letter` plus `space`."""
    kern = f" {letter} ".encode()
    spelled = [kern.join(b"(" + c.encode() + b")" for c in w) for w in words]
    return b"[" + f" {letter + space} ".encode().join(spelled) + b"] TJ"


SIGNED = ["signed", "into", "law", "by", "President", "Clinton", "on", "October", "28"]


@pytest.mark.parametrize(
    ("ops", "line"),
    [
        (b"BT /F1 11 Tf 56 760 Td " + _tj(SIGNED) + b" ET", " ".join(SIGNED)),
        (b"BT /F1 11 Tf 1.5 Tc 56 760 Td " + _tj(SIGNED) + b" ET", " ".join(SIGNED)),
        (b"BT /F1 11 Tf 56 760 Td " + _spread(SIGNED, -150) + b" ET", " ".join(SIGNED)),
        (b"BT /F1 11 Tf 56 760 Td " + _spread(SIGNED, -300) + b" ET", " ".join(SIGNED)),
        (b"BT /F1 11 Tf 5 Tc 56 760 Td (RESULTS AND DISCUSSION) Tj ET", "RESULTS AND DISCUSSION"),
        (
            b"BT /F1 11 Tf 56 760 Td [(signed into law b) -200 (y President Clinton)] TJ ET",
            "signed into law b y President Clinton",
        ),
        (b"BT /F1 11 Tf 1.5 Tc 56 760 Td " + _tj(["I", "a", "b", "c"]) + b" ET", "I a b c"),
    ],
    ids=[
        "set-tight",
        "tracked-by-tc",
        "spread-letter-by-letter",
        "spread-wide",
        "tracked-heading-with-spaces",
        "one-kern-in-a-tight-line-is-a-space",
        "too-few-gaps-to-measure",
    ],
)
def test_a_letter_spaced_line_keeps_its_words_whole(ops: bytes, line: str) -> None:
    filler = text_ops("A first line a reader always sees on this page.", TOP + 40)
    assert _read(filler + b"\n" + ops).pages[0].splitlines()[-1] == line

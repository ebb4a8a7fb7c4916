import random
import re

import pytest

from engine.text.fold import fold_text as _fold
from engine.text.fold import local_cut
from engine.text.sentences import _BREAK, _breaks, sentences, whole_sentences_at
from engine.text.tokens import (
    _TOKEN,
    TOKEN_ALTERNATIVES,
    reads_as_lowered,
    token_spans,
    tokens,
    word_sequence,
)


def split(text: str) -> list[str]:
    return [text[s.start : s.end] for s in sentences(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("It rose. It fell! Did it? Yes.", ["It rose.", "It fell!", "Did it?", "Yes."]),
        ("Pain fell by 3.5 points. Fever too.", ["Pain fell by 3.5 points.", "Fever too."]),
        ("Smith et al. found it, e.g. in mice.", ["Smith et al. found it, e.g. in mice."]),
        ("See Fig. 2 vs. Fig. 3, i.e. both.", ["See Fig. 2 vs. Fig. 3, i.e. both."]),
        ("Dr. J. R. Smith agreed. Next.", ["Dr. J. R. Smith agreed.", "Next."]),
        ("It was approx. 5 cf. No. 7 here.", ["It was approx. 5 cf. No. 7 here."]),
        (
            "Seen in approx. Ten sites, see refs. The end.",
            ["Seen in approx. Ten sites, see refs. The end."],
        ),
        ("The answer is no. Next.", ["The answer is no.", "Next."]),
        ("Wait... it rose. Done.", ["Wait... it rose.", "Done."]),
        ('He said "yes." Then left.', ['He said "yes."', "Then left."]),
        ("A, B, etc. Then C.", ["A, B, etc.", "Then C."]),
        ("Made by Acme corp.", ["Made by Acme corp."]),
        ("First para\n\nSecond para", ["First para", "Second para"]),
        ("one line\nwraps here.", ["one line\nwraps here."]),
        ("  padded.  ", ["padded."]),
        ("   ", []),
        ("It needs PI3K. Then AKT.", ["It needs PI3K.", "Then AKT."]),
        ("Bound to E2F. Loss of Rb.", ["Bound to E2F.", "Loss of Rb."]),
        ("Rate was 5 microm2/ms. Next.", ["Rate was 5 microm2/ms.", "Next."]),
        ("Kept at 37°C. Cells grew.", ["Kept at 37°C.", "Cells grew."]),
        ("Treat P. falciparum malaria. Next.", ["Treat P. falciparum malaria.", "Next."]),
        ("Seen in Deinococcus spp. are hardy.", ["Seen in Deinococcus spp. are hardy."]),
        ("Many Bacillus spp. Others too.", ["Many Bacillus spp.", "Others too."]),
        ("Met Ms. Jones at 40 ms. Then left.", ["Met Ms. Jones at 40 ms.", "Then left."]),
        (
            "RESULTS Pain fell. CONCLUSIONS It works.",
            ["RESULTS", "Pain fell.", "CONCLUSIONS", "It works."],
        ),
        ("MAIN OUTCOME MEASURES Pain at 6 weeks.", ["MAIN OUTCOME MEASURES", "Pain at 6 weeks."]),
        ("HIV Infection rose.", ["HIV Infection rose."]),
        ("RESULTS were mixed.", ["RESULTS were mixed."]),
    ],
    ids=[
        "terminators",
        "decimal",
        "et-al-eg",
        "fig-vs-ie",
        "initials",
        "approx-cf-no",
        "long-abbreviation-before-a-capital",
        "no-as-word",
        "ellipsis",
        "closing-quote",
        "etc-before-capital",
        "abbreviation-at-the-end",
        "paragraph",
        "line-wrap",
        "trimmed",
        "blank",
        "gene-token",
        "gene-token-digit",
        "unit-after-slash",
        "degrees",
        "species-initial",
        "spp-before-lowercase",
        "spp-before-capital",
        "title-versus-milliseconds",
        "headings",
        "multi-word-heading",
        "capitalised-term-is-no-heading",
        "heading-word-in-a-sentence",
    ],
)
def test_sentences(text: str, expected: list[str]) -> None:
    assert split(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Pain fell 12% and 12 %", ("pain", "fell", "12%", "and", "12%")),
        ("3.5 and .05 and 0.05", ("3.5", "and", "0.05", "and", "0.05")),
        ("1,000 vs 1000", ("1000", "vs", "1000")),
        ("-5 and +5", ("-5", "and", "5")),
        ("5-10 or 5 - 10", ("5", "10", "or", "5", "10")),
        ("long-term don't", ("long", "term", "don't")),
        ("5mg p53 COVID-19", ("5", "mg", "p53", "covid", "19")),
        ("Hello, World!", ("hello", "world")),
        (
            "p < 0.05, p<=.05, p ≥ 1, a ≠ b",
            ("p", "<", "0.05", "p", "≤", "0.05", "p", "≥", "1", "a", "≠", "b"),
        ),
        ("38 +/- 13 and ~5 and 2 × 3", ("38", "±", "13", "and", "≈", "5", "and", "2", "×", "3")),
        ("ER+ HER2− Aire(+) ER-positive", ("er+", "her2-", "aire+", "er", "positive")),
        ("CD4+CD25+ and CD4-CD25+", ("cd4+", "cd25+", "and", "cd4", "cd25+")),
        ("CD4+3− and CD4+3+ cells", ("cd4+", "3-", "and", "cd4+", "3+", "cells")),
        ("Nlrp3−/− apoe−/− Casp-1/− +/+", ("nlrp3-/-", "apoe-/-", "casp", "1/-", "+/+")),
        ("CI .48+.76 or .48-.76", ("ci", "0.48", "+", "0.76", "or", "0.48", "0.76")),
        ("at –5, ‒5, —5, ―5, −5 or -5", ("at", "-5", "-5", "-5", "-5", "-5", "or", "-5")),
        ("0.5%-13% and 5–10", ("0.5%", "13%", "and", "5", "10")),
        ("10⁻³ 10^-3 10^(-3)", ("10^-3",) * 3),
        ("10³ 10^3 10-3 103", ("10^3", "10^3", "10", "3", "103")),
    ],
    ids=[
        "percent",
        "decimals",
        "thousands",
        "signs",
        "ranges",
        "hyphen-apostrophe",
        "mixed",
        "case",
        "comparators",
        "plus-minus-approx-times",
        "markers",
        "marker-before-a-letter",
        "marker-on-a-number",
        "genotypes",
        "sum-is-not-range",
        "every-dash-signs",
        "ranges-after-percent-and-en-dash",
        "negative-exponents",
        "exponent-is-not-range-or-digits",
    ],
)
def test_word_sequence(text: str, expected: tuple[str, ...]) -> None:
    assert word_sequence(text) == expected


def test_numbers_and_offsets() -> None:
    text = "Dose 10 mg cut pain by 30 %."
    found = [t for t in tokens(text) if t.is_number]
    assert [t.norm for t in found] == ["10", "30%"]
    assert [text[t.start : t.end] for t in found] == ["10", "30 %"]


def test_unicode_folding_keeps_original_offsets() -> None:
    text = "“We don’t” say ﬁne −2 in ＭＩＣＥ café"
    assert word_sequence(text) == word_sequence('"We don\'t" say fine -2 in mice cafe\u0301')
    assert [text[t.start : t.end] for t in tokens(text)] == [
        "We",
        "don’t",
        "say",
        "ﬁne",
        "−2",
        "in",
        "ＭＩＣＥ",
        "café",
    ]


@pytest.mark.parametrize(
    "text",
    [
        "“We don’t” say ﬁne −2 in ＭＩＣＥ café",
        "Plain ASCII 5% and ER- and p<0.05, CD4+3− cells.",
        "Mixed µm 10⁻³ –5% and İstanbul",
        "",
    ],
    ids=["expanding-fold", "ascii", "length-keeping-fold", "empty"],
)
def test_token_spans_are_the_tokens(text: str) -> None:
    full = [(t.norm, t.is_number, t.start, t.end) for t in tokens(text)]
    assert [tuple(t) for t in token_spans(text)] == full


ABBREVIATION_CASES = {
    "acronym-in-capitals-ends": (
        "Expenditure exceeds that of both PF and CF. In a separate cohort, insulin rose.",
        2,
    ),
    "small-initialism-before-a-capitalised-word-ends": (
        "Imaging at 0.5, 1, and 2 h p.i. The tumor accumulation rose.",
        2,
    ),
    "cf-in-small-letters-continues": ("See the results, cf. Table 2.", 1),
    "viz-continues": ("The groups, viz. The first and second, differ.", 1),
    "e-g-continues": ("Samples e.g. The blood were taken.", 1),
    "capital-initialism-continues": ("The U.S. Army funded it.", 1),
    "small-initialism-before-a-number-continues": ("Cells were counted 2 h p.i. 5 times.", 1),
}


@pytest.mark.parametrize(
    ("text", "count"), ABBREVIATION_CASES.values(), ids=ABBREVIATION_CASES.keys()
)
def test_abbreviation_like_tokens_before_a_capitalised_word(text: str, count: int) -> None:
    assert len(sentences(text)) == count, [text[s.start : s.end] for s in sentences(text)]


FORMAT_CASES = {
    "bidi-override-is-a-token": ("lowered\u202e", ("lowered", "\u202e")),
    "isolate-is-a-token": ("12 \u2066months", ("12", "\u2066", "months")),
    "zero-width-space-is-a-token": ("no\u200bt", ("no", "\u200b", "t")),
    "soft-hyphen-folds-away": ("treat\u00adment", ("treatment",)),
    "modifier-minus-is-a-sign": ("p \u02d70.5", ("p", "-0.5")),
    "heavy-minus-is-a-sign": ("\u27965%", ("-5%",)),
    "line-extension-is-a-sign": ("\u23af3", ("-3",)),
    "arrow-is-a-token": ("IL-6\u2191", ("il", "6", "\u2191")),
    "per-mille-is-a-token": ("5\u2030", ("5", "\u2030")),
    "angle-quote-like-less-than-is-a-token": ("p \u2039 0.05", ("p", "\u2039", "0.05")),
    "guillemets-stay-quotes": ("\u00abtext\u00bb", ("text",)),
}


@pytest.mark.parametrize(("text", "norms"), FORMAT_CASES.values(), ids=FORMAT_CASES.keys())
def test_what_is_displayed_is_compared(text: str, norms: tuple[str, ...]) -> None:
    assert word_sequence(text) == norms


def test_the_scans_look_ahead_skips_only_where_no_token_starts() -> None:
    # The tokeniser's look-ahead passes characters no alternative can start at; a character
    # it wrongly passed would drop a token. Every character up to U+2FFF, in the contexts a
    # sign, a marker, a prime or a number reads, matches as the bare alternatives match.
    bare = re.compile(TOKEN_ALTERNATIVES, re.VERBOSE)
    for code in range(0x3000):
        char = chr(code)
        for text in (char, f"{char}5", f"5{char}", f"a{char} ", f"ER{char}", f"{char}{char}x"):
            got = [(m.span(), m.lastgroup) for m in _TOKEN.finditer(text)]
            assert got == [(m.span(), m.lastgroup) for m in bare.finditer(text)], repr(text)


WHOLE_AT = {
    "plain": "Cells grew. Mice died in 3 days. Rats lived.",
    "ellipsis-folds-longer": "Cells grew\u2026 and died. Mice died in 3 days. Rats lived.",
    "ligature-folds-longer": "The \ufb01nal dose was given. Mice died in 3 days. Rats lived.",
    "combining-mark-folds-shorter": "Cells grew in Mu\u0308nster. Mice died in 3 days. Rats lived.",
    "ends-at-the-text-end": "Cells grew \ufb01ne. Mice died in 3 days.",
}


@pytest.mark.parametrize("text", WHOLE_AT.values(), ids=WHOLE_AT.keys())
def test_the_local_whole_sentence_test_agrees_with_the_split(text: str) -> None:
    spans = sentences(text)
    runs = {(a.start, b.end) for i, a in enumerate(spans) for b in spans[i : i + 2]}
    # Every run of whole sentences after a folded character is found locally.
    assert all(whole_sentences_at(text, a, b) for a, b in runs if a > 12)
    # It never says yes where the split does not cut, a cut one character off included.
    for a in range(len(text)):
        for b in range(a + 1, len(text) + 1):
            if whole_sentences_at(text, a, b):
                assert a in {s.start for s in spans} and b in {s.end for s in spans}


def test_an_end_inside_a_folded_character_is_no_sentence_end() -> None:
    text = "Mice died in Mu\u0308nster. Rats lived."
    # "Mu" ends before the combining mark its letter folds with: no cut can fall there.
    assert not whole_sentences_at(text, 0, text.index("\u0308"))
    assert whole_sentences_at(text, 0, text.index(" Rats"))


def test_breaks_are_the_patterns_matches() -> None:
    for text in ("e.g. 5.5 mg... Done!? Yes.\n\nNext", "a.b. .. ?!\n \n. x", "", "..."):
        assert [m.span() for m in _breaks(text)] == [m.span() for m in _BREAK.finditer(text)]


LOWERED = {
    "plain-ascii": ("Mice died in 3 days.", "mice died in 3 days.", True),
    "greek-lower-stays": ("TNF-\u03b1 rose 2 \u00b5g.", "tnf-\u03b1 rose 2 \u03bcg.", True),
    "minus-sign-folded": ("pH fell by \u22120.5 units.", "ph fell by -0.5 units.", True),
    "a-marker-asks-for-its-capital": ("naive IgD- B cells", "naive igd- b cells", False),
    "a-folded-marker-too": ("ER\u2212 tumours", "er- tumours", False),
    "a-bracketed-marker": ("Aire(-) cells", "aire(-) cells", False),
    "a-capital-outside-ascii": ("\u0394 rose", "\u03b4 rose", False),
    "dotted-capital-i-lowers-longer": ("\u0130stanbul", "i\u0307stanbul", False),
    "not-its-lower-case": ("Mice died.", "rats died.", False),
    "a-run-of-spaces-as-one": ("Figure 1    Top: burns", "figure 1 top: burns", True),
    "a-tab-as-one-space": ("Mice\tdied.", "mice died.", True),
    "a-spaced-dash-is-no-marker": ("not defined - large", "not defined - large", True),
    "a-line-break-is-not-a-space": ("5\n% of mice", "5 % of mice", False),
    "a-run-a-number-reads-past": ("5" + " " * 40 + "-3 mg", "5 -3 mg", False),
}


@pytest.mark.parametrize(("text", "lowered", "shown"), LOWERED.values(), ids=LOWERED.keys())
def test_reads_as_lowered_says_yes_only_where_it_shows(
    text: str, lowered: str, shown: bool
) -> None:
    assert reads_as_lowered(text, lowered) is shown
    if shown:
        assert word_sequence(text) == word_sequence(lowered)


def test_reads_as_lowered_never_says_yes_for_other_words() -> None:
    # Cased letters outside ASCII, a capital that lowers longer, markers, signs the fold
    # rewrites, combining marks and superscripts, in random strings and in every case.
    alphabet = list("abAB Z-\u2212+()%.,'\u2019\u00b5\u0394\u0130\u00df\u1e9e\u01c5\u03a3")
    alphabet += list("\u03c2\ufb01\u207b\u00b3\u208b\u0301e\u00c9\u2160\u24b6\t\n\u00d7~<=^_/")
    rng = random.Random(5)
    said = 0
    for _ in range(20_000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 12)))
        for lowered in (text.lower(), text.lower().replace("\u2212", "-")):
            if reads_as_lowered(text, lowered):
                said += 1
                assert word_sequence(text) == word_sequence(lowered), (text, lowered)
    assert said > 1_000  # the shortcut is taken, not only refused


def test_the_character_fold_is_local_between_two_ascii_letters_or_digits() -> None:
    # What a window rests on: cut there, the two folds joined are the whole fold.
    rng = random.Random(3)
    alphabet = list("ab19 .-\u0301\u0308\u00e9\ufb01\u2026\u207b\u00b3\u00b2\u208b\u00b5\u2212")
    cuts = 0
    for _ in range(4_000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(2, 30)))
        for at in range(1, len(text)):
            if local_cut(text, at, 1) == at:
                cuts += 1
                assert _fold(text[:at]).text + _fold(text[at:]).text == _fold(text).text, text
    assert cuts > 1_000


FILLER = "Cells were grown in medium for three days before the assay was run. "
WINDOW_EDGES = {
    "a-gene-like-word-past-the-window": (
        "Dose was 5 \u00b5g. " + FILLER * 2 + "Cells grew in vitro. " + "a" * 100 + "5 rose.",
        "Cells grew in vitro.",
    ),
    "white-space-past-the-window": (
        "Dose was 5 \u00b5g. " + FILLER * 2 + "Cells died." + " " * 150 + "Mice grew. " + FILLER,
        "Mice grew.",
    ),
    "an-abbreviation-past-the-window": (
        "Dose was 5 \u00b5g. "
        + FILLER * 2
        + "We refer to Fig."
        + " " * 150
        + "Mice grew. "
        + FILLER,
        "Mice grew.",
    ),
    "an-interior-sentence": (
        "Dose was 5 \u00b5g. " + FILLER * 3 + "Mice grew \ufb01ne. " + FILLER * 3,
        "Mice grew \ufb01ne.",
    ),
}


@pytest.mark.parametrize(("text", "span"), WINDOW_EDGES.values(), ids=WINDOW_EDGES.keys())
def test_a_window_reads_the_sentence_test_as_the_whole_text_does(text: str, span: str) -> None:
    start = text.index(span)
    cuts = {(s.start, s.end) for s in sentences(text)}
    for a, b in ((start, start + len(span)), (start + 1, start + len(span))):
        assert whole_sentences_at(text, a, b) is ((a, b) in cuts), (a, b)


TEXT_ENDS = {
    "a-plain-word": ("Mice died of the disease.", True),
    "an-abbreviation-ending-one-only-before-a-capital": ("Made by Acme corp.", False),
    "an-abbreviation": ("The dose was approx.", False),
}


@pytest.mark.parametrize(("text", "whole"), TEXT_ENDS.values(), ids=TEXT_ENDS.keys())
def test_a_terminator_at_the_text_end_ends_a_sentence_by_the_word_before(
    text: str, whole: bool
) -> None:
    assert whole_sentences_at(text, 0, len(text)) is whole


def test_reads_as_lowered_never_says_yes_across_runs_of_white_space() -> None:
    # Numbers, signs, percents and markers around runs of spaces and tabs of every length:
    # where the shortcut says yes, the words are the same.
    rng = random.Random(12)
    pieces = ["5", "12", "-", "- ", "%", "IgD", "Aire", "(-)", "mg", "A", ".", "\u2212", "+"]
    said = 0
    for _ in range(20_000):
        parts = []
        for _ in range(rng.randint(1, 8)):
            parts.append(rng.choice(pieces))
            parts.append(rng.choice([" ", "  ", "\t", " " * rng.randint(2, 40), "\n", ""]))
        text = "".join(parts)
        lowered = " ".join(text.split()).lower()
        if reads_as_lowered(text, lowered):
            said += 1
            assert word_sequence(text) == word_sequence(lowered), text
    assert said > 1_000

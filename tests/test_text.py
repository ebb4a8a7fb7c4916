import pytest

from engine.core.text import (
    clause_atoms,
    extractively_licensed,
    numbers,
    sentences,
    tokens,
    word_sequence,
)


def split(text):
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
        ("The answer is no. Next.", ["The answer is no.", "Next."]),
        ("Wait... it rose. Done.", ["Wait... it rose.", "Done."]),
        ('He said "yes." Then left.', ['He said "yes."', "Then left."]),
        ("A, B, etc. Then C.", ["A, B, etc.", "Then C."]),
        ("First para\n\nSecond para", ["First para", "Second para"]),
        ("one line\nwraps here.", ["one line\nwraps here."]),
        ("  padded.  ", ["padded."]),
        ("   ", []),
    ],
    ids=[
        "terminators",
        "decimal",
        "et-al-eg",
        "fig-vs-ie",
        "initials",
        "approx-cf-no",
        "no-as-word",
        "ellipsis",
        "closing-quote",
        "etc-before-capital",
        "paragraph",
        "line-wrap",
        "trimmed",
        "blank",
    ],
)
def test_sentences(text, expected):
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
    ],
)
def test_word_sequence(text, expected):
    assert word_sequence(text) == expected


def test_numbers_and_offsets():
    text = "Dose 10 mg cut pain by 30 %."
    assert numbers(text) == ("10", "30%")
    found = [t for t in tokens(text) if t.is_number]
    assert [text[t.start : t.end] for t in found] == ["10", "30 %"]


def test_unicode_folding_keeps_original_offsets():
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
    ("claim", "atoms"),
    [
        ("Aspirin cut pain.", ("Aspirin cut pain.",)),
        ("A rose; B fell.", ("A rose", "B fell.")),
        ("A rose, but B fell, and C held.", ("A rose", "B fell", "C held.")),
        ("A rose whereas B fell. C held.", ("A rose", "B fell.", "C held.")),
        ("While A rose, B fell.", ("While A rose, B fell.",)),
        ("A, B and C rose.", ("A, B and C rose.",)),
    ],
    ids=[
        "single",
        "semicolon",
        "comma-connectives",
        "whereas-and-sentences",
        "leading-while",
        "list",
    ],
)
def test_clause_atoms(claim, atoms):
    assert clause_atoms(claim) == atoms


@pytest.mark.parametrize(
    ("claim", "source", "expected"),
    [
        ("pain fell by 30%", "In trial A, Pain fell by 30 %, then rose.", True),
        ("rise", "the sunrise came", False),
        ("pain rose", "pain fell, rose", False),
        ("", "anything", False),
        ("...", "anything ...", False),
    ],
    ids=["contiguous-run", "inside-word", "gap", "empty", "no-words"],
)
def test_extractively_licensed(claim, source, expected):
    assert extractively_licensed(claim, source) is expected

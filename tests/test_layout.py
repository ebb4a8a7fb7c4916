import pytest

from engine.importers.page_layout import goes_on, rejoin_hyphenation, strip_running_lines


@pytest.mark.parametrize(
    ("page", "cleaned"),
    [
        ("a treat-\nment works", "a treatment works"),
        ("safe for adults-\nnot for children", "safe for adults- not for children"),
        ("safe for adults-\nunsafe for children", "safe for adults- unsafe for children"),
        ("the pheno-\ntype differs; each phenotype", "the phenotype differs; each phenotype"),
        ("the heart-\nrate rose; the rate fell", "the heart-\nrate rose; the rate fell"),
        ("a long-\nterm view; long-term", "a long-term view; long-term"),
        ("we can-\nnot say; we cannot", "we cannot say; we cannot"),
    ],
    ids=["fragment", "not", "un-word", "seen-whole", "right-is-a-word", "compound", "cannot"],
)
def test_a_line_end_split_joins_only_without_changing_meaning(page: str, cleaned: str) -> None:
    assert rejoin_hyphenation([page])[0] == cleaned


@pytest.mark.parametrize(
    ("line", "continues"),
    [
        ("We found no evidence that", True),
        ("In this study,", True),
        ("Zorbex was compared with", True),
        ("Journal of Zorbex Studies", False),
        ("Page 3 of 12", False),
        ("The results were clear.", False),
    ],
    ids=["that", "comma", "with", "journal", "page-number", "sentence"],
)
def test_a_line_that_stops_mid_sentence_goes_on(line: str, continues: bool) -> None:
    assert goes_on(line) is continues


def test_a_running_line_goes_only_from_the_page_s_top_or_bottom_band() -> None:
    pages = [f"Journal of Zorbex Studies\nBody text {n}." for n in range(3)]
    at_top = [frozenset({"Journal of Zorbex Studies"})] * 3
    kept, removed = strip_running_lines(pages, at_top)
    assert removed == 3 and all(page.startswith("Body") for page in kept)
    kept, removed = strip_running_lines(pages, [frozenset()] * 3)
    assert removed == 0 and kept == tuple(pages)

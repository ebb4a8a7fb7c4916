import random

import pytest

from engine.core.quote import verify_quote
from engine.core.quote_find import find_unnegated, found_in_window
from engine.core.quote_fold import fold

FILLER = "Cells were grown in medium for three days before the assay was run. "
WIDE = list("\u03a3\u03c3\u0130\u00df\u0301\u0308\u00e9\ufb01\u2026\u207b\u00b3\u00b5\u2212\u00ad")
WIDE += list("\u00a0\t\n\r-\u2010\u2019")


def test_the_fold_is_local_between_two_ascii_letters_or_digits() -> None:
    # What the window rests on: cut there, the two folds joined are the whole fold, with
    # white space runs, line-break hyphens, combining marks, superscripts, a final sigma
    # and a capital that lowers longer anywhere around the cut.
    rng = random.Random(2)
    alphabet = [*WIDE, *"abAB19 .-"]
    cuts = 0
    for _ in range(4_000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(2, 30)))
        for at in range(1, len(text)):
            left, right = text[at - 1], text[at]
            if left.isascii() and right.isascii() and left.isalnum() and right.isalnum():
                cuts += 1
                assert fold(text[:at]).text + fold(text[at:]).text == fold(text).text, text
    assert cuts > 1_000


CASES = {
    "written-as-in-the-source": (FILLER * 3 + "Mice gained 12 g on the diet. " + FILLER, True),
    "at-the-text-start": ("Mice gained 12 g on the diet. " + FILLER * 3, True),
    "at-the-text-end": (FILLER * 3 + "Mice gained 12 g on the diet.", True),
    "a-negation-before": (FILLER * 3 + "No mice gained 12 g on the diet. " + FILLER, False),
    "a-word-glued-before": (FILLER * 3 + "Micemice gained 12 g on the diet. " + FILLER, False),
}


@pytest.mark.parametrize(("source", "found"), CASES.values(), ids=CASES.keys())
def test_a_window_settles_a_quote_written_as_the_source_writes_it(source: str, found: bool) -> None:
    needle = fold("mice gained 12 g on the diet.").text
    assert found_in_window(source, needle) is found
    assert (find_unnegated(fold(source).text, needle) >= 0) is found


def test_a_sign_far_before_a_number_is_read_inside_the_window() -> None:
    # The sign rule reads up to 57 characters back: "5 mg" is not "-5 mg".
    source = FILLER * 2 + "The dose was -   5 mg a day. " + FILLER
    assert not found_in_window(source, "5 mg a day.")
    assert not verify_quote("5 mg a day.", source).verified


def test_the_window_says_yes_only_where_the_whole_fold_does() -> None:
    rng = random.Random(9)
    quote = "serum levels rose by 5 mg"
    pieces = [*WIDE, " ", "no ", "not ", "-", "5", ".", "'", "\u207b", "Serum levels rose by 5 mg"]
    said = 0
    for _ in range(3_000):
        source = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 20)))
        if found_in_window(source, quote):
            said += 1
            assert find_unnegated(fold(source).text, quote) >= 0, source
    assert said > 100

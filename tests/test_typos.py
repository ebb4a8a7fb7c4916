import pytest

from engine.core.quote import verify_quote
from engine.core.typos import negation, same_marks, typo_in, typo_of


@pytest.mark.parametrize(
    ("said", "source", "forgiven"),
    [
        ("coavtivator", "coactivator", True),
        ("recieved", "received", True),
        ("IL6", "IL6", True),
        ("increased", "decreased", False),
        ("hypertension", "hypotension", False),
        ("symptomatic", "asymptomatic", False),
        ("tumor-associated", "tumor-unassociated", False),
        ("10", "100", False),
        ("kinase-2", "kinase-3", False),
        ("not", "now", False),
        ("paternal", "maternal", False),
        ("misfolded", "folded", False),
    ],
    ids=[
        "transposed-letters", "swapped-vowels", "identical", "opposite-stem", "opposite-prefix",
        "negating-prefix", "negated-compound-part", "changed-number", "changed-digit-in-word",
        "negation-word", "other-parent", "mis-prefix",
    ],
)  # fmt: skip
def test_a_typo_is_forgiven_only_when_it_cannot_change_the_meaning(
    said: str, source: str, forgiven: bool
) -> None:
    assert typo_of(said, source) is forgiven


@pytest.mark.parametrize(
    ("word", "negates"),
    [("not", True), ("can't", True), ("never", True), ("note", False), ("now", False)],
    ids=["not", "cant", "never", "note", "now"],
)
def test_negation_words(word: str, negates: bool) -> None:
    assert negation(word) is negates


def test_marks_compare_numbers_signs_and_markers() -> None:
    assert same_marks("ER+ tumours grew 10%", "ER+ tumors grew 10%")
    assert not same_marks("ER+ tumours", "ER- tumours")
    assert not same_marks("10⁻³ M", "10^3 M")


GLUTAMATE = (
    "Thus, this study establishes glutamate as the primary neurotransmitter that mediates"
    " MC4Rs on Sim1 neurons in body weight regulation."
)


@pytest.mark.parametrize(
    ("quote", "source"),
    [
        (GLUTAMATE.replace("this ", "", 1), GLUTAMATE),
        ("Thus study establishes glutamate as key", "This study establishes glutamate as key."),
        ("Stromal cells form the marrow reached it", "Stromal cells from the marrow reached it."),
        ("Mice that lose weight in the trial gained", "Mice that lost weight in the trial gained."),
        ("The cause was reported to the board", "The case was reported to the board."),
        ("Only there patients relapsed", "Only three patients relapsed."),
        ("Every patients took the drug daily", "40 patients. Every patient took the drug daily."),
        ("Thus, study establishes glutamate", "Thus, this study establishes glutamate."),
        ("In these mice the nodules from", "In these mice the nodules form from stromal cells."),
    ],
    ids=[
        "dropped-word-shifted-window", "thus-this", "form-from", "lose-lost", "cause-case",
        "common-word", "word-of-the-document", "dropped-word-at-start", "dropped-word-at-end",
    ],
)  # fmt: skip
def test_a_real_word_for_another_is_a_word_change_not_a_typo(quote: str, source: str) -> None:
    assert not verify_quote(quote, "Preamble text here. " + source + " More text.").verified


@pytest.mark.parametrize(
    ("quote", "source"),
    [
        ("Winner portfolois earned 1.2% a month", "Winner portfolios earned 1.2% a month."),
        ("the rnortality in the cornbined group", "the mortality in the combined group."),
        ("the treat-ment arm improved markedly", "the treat- ment arm improved markedly."),
        ("Thus, this study estabilshes glutamate", "Thus, this study establishes glutamate."),
    ],
    ids=["seed-typo", "ocr-in-long-words", "hyphenation", "typo-beside-close-short-words"],
)
def test_a_typo_inside_a_long_word_still_verifies(quote: str, source: str) -> None:
    match = verify_quote(quote, "Preamble text here. " + source + " More text.")
    assert (match.verified, match.method) == (True, "fuzzy")


@pytest.mark.parametrize(
    ("said", "source", "known", "forgiven"),
    [
        ("portfolois", "portfolios", {"portfolios"}, True),
        ("patients", "patient", {"patient", "patients"}, False),
        ("there", "three", {"three"}, False),
        ("form", "from", {"from"}, False),
        ("teh", "the", {"the"}, False),
        ("il6", "il-6", {"il-6"}, True),
        ("fifteen", "fifteenth", {"fifteenth"}, False),
    ],
    ids=["long-word-typo", "word-of-the-text", "common-word", "short-word", "short-typo",
         "spelling", "number-word"],
)  # fmt: skip
def test_a_typo_in_a_text_is_no_word_of_it_and_no_short_word(
    said: str, source: str, known: set[str], forgiven: bool
) -> None:
    assert typo_in(said, source, known) is forgiven

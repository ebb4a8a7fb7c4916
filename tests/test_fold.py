"""The one Unicode fold: the quote matcher and the tokenizer compare characters alike."""

import pytest

from engine.core.quote import quote_needle, verify_quote
from engine.text.tokens import word_sequence

# text -> what the quote matcher searches for (case folded). The tokenizer must read the
# text exactly as it reads the folded form.
FOLDS = {
    "curly-apostrophe-folds": ("don’t stop", "don't stop"),
    "modifier-apostrophe-folds": ("donʼt stop", "don't stop"),
    "curly-double-quotes-fold": ("a “b” c", 'a "b" c'),
    "combining-mark-composes": ("cafe\u0301 au lait", "café au lait"),
    "ligature-expands": ("ﬁne cells", "fine cells"),
    "superscript-is-an-exponent": ("10⁻³ fold", "10^-3 fold"),
    "superscript-run-is-one-exponent": ("10¹² cells", "10^12 cells"),
    "soft-hyphen-folds-away": ("treat\u00adment arm", "treatment arm"),
    "minus-sign-folds": ("\u22125 mg", "-5 mg"),
    "heavy-minus-folds": ("\u27965 mg", "-5 mg"),
    "en-dash-folds": ("\u20135 mg", "-5 mg"),
    "low-9-quote-stays": ("a ‚b‘ c", "a ‚b' c"),
    "angle-quotes-stay": ("a «b» c", "a «b» c"),
    "grave-accent-stays": ("a `b' c", "a `b' c"),
    "zero-width-space-stays": ("a\u200bb c", "a\u200bb c"),
    "arrow-stays": ("a → b", "a → b"),
    "per-mille-stays": ("5‰ of cells", "5‰ of cells"),
    "private-use-stays": ("a \ue000 b", "a \ue000 b"),
}


@pytest.mark.parametrize(("text", "folded"), FOLDS.values(), ids=FOLDS.keys())
def test_quote_matcher_and_tokenizer_fold_alike(text: str, folded: str) -> None:
    assert quote_needle(text) == folded
    assert word_sequence(text) == word_sequence(folded)


# Where the two folds used to disagree, the sounder reading now holds for both.
AGREED = {
    "modifier-apostrophe-is-an-apostrophe": ("donʼt stop the trial", "don't stop the trial", True),
    "decomposed-accent-is-the-accent": (
        "the cafe\u0301 trial ended",
        "the café trial ended",
        True,
    ),
    "caret-exponent-is-the-superscript": ("risk rose 10⁻³ fold", "risk rose 10^-3 fold", True),
    "split-off-exponent-is-not": ("risk rose 10³ fold", "risk rose 10 3 fold", False),
    "low-9-quote-is-not-an-apostrophe": (
        "the patient‚s dose fell",
        "the patient's dose fell",
        False,
    ),
    "grave-accent-is-not-an-apostrophe": (
        "the patient`s dose fell",
        "the patient's dose fell",
        False,
    ),
}


@pytest.mark.parametrize(("source", "quote", "verified"), AGREED.values(), ids=AGREED.keys())
def test_quotes_verify_by_the_one_fold(source: str, quote: str, verified: bool) -> None:
    found = verify_quote(quote, f"Preamble text here. In the cohort {source} here. More text.")
    assert found.verified is verified, found


# White space the quote matcher rewrites, beside text it leaves alone: a text with no such
# space skips the rewriting scan, and must fold as if it had run.
SPACES = {
    "plain-spaces-stay": ("a b c", "a b c"),
    "double-space-is-one": ("a  b", "a b"),
    "tab-is-a-space": ("a\tb", "a b"),
    "line-break-is-a-space": ("a\nb", "a b"),
    "next-line-is-a-space": ("a\x85b", "a b"),
    "line-separator-is-a-space": ("a\u2028b", "a b"),
    "no-break-space-is-a-space": ("a\u00a0b", "a b"),
    "line-end-hyphen-joins": ("treat-\nment", "treatment"),
    "line-end-hyphen-before-a-number-stays": ("covid-\n19", "covid-19"),
    "edge-space-goes": (" a b ", "a b"),
    "odd-and-space-together": ("don’t\u2028stop", "don't stop"),
}


@pytest.mark.parametrize(("text", "folded"), SPACES.values(), ids=SPACES.keys())
def test_quote_matcher_folds_white_space(text: str, folded: str) -> None:
    assert quote_needle(text) == folded
    assert verify_quote(folded, f"Before. {text} after.").verified

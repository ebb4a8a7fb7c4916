import pytest

from engine.core.typos import negation, same_marks, typo_of


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
    ],
    ids=[
        "transposed-letters", "swapped-vowels", "identical", "opposite-stem", "opposite-prefix",
        "negating-prefix", "negated-compound-part", "changed-number", "changed-digit-in-word",
        "negation-word",
    ],
)  # fmt: skip
def test_a_typo_is_forgiven_only_when_it_cannot_change_the_meaning(said, source, forgiven):
    assert typo_of(said, source) is forgiven


@pytest.mark.parametrize(
    ("word", "negates"),
    [("not", True), ("can't", True), ("never", True), ("note", False), ("now", False)],
    ids=["not", "cant", "never", "note", "now"],
)
def test_negation_words(word, negates):
    assert negation(word) is negates


def test_marks_compare_numbers_signs_and_markers():
    assert same_marks("ER+ tumours grew 10%", "ER+ tumors grew 10%")
    assert not same_marks("ER+ tumours", "ER- tumours")
    assert not same_marks("10⁻³ M", "10^3 M")

"""The one number reader: signs as displayed, ranges, intervals, ratios, exponents, figures."""

from decimal import Decimal

import pytest

from engine.text.numbers import (
    RANGE_JOINTS,
    Joint,
    Reading,
    is_year,
    read,
    value_of,
)
from engine.text.tokens import token_spans
from engine.text.units import digit_figures, spelled_figures

D = Decimal


def readings(text: str, joints: frozenset[Joint] | None = None) -> tuple[Reading, ...]:
    spans = token_spans(text)
    return read(text, spans) if joints is None else read(text, spans, joints=joints)


@pytest.mark.parametrize(
    ("text", "sign", "value"),
    [
        ("earned -1.2% a month", "-", D("-1.2")),
        ("earned \u22121.2% a month", "\u2212", D("-1.2")),
        ("earned \u2212 1.2% a month", "\u2212", D("-1.2")),
        ("earned \u2212\u20091.2% a month", "\u2212", D("-1.2")),
        ("earned \u2212\u00a01.2% a month", "\u2212", D("-1.2")),
        ("earned \u2013\u202f1.2% a month", "\u2013", D("-1.2")),
        ("earned +1.2% a month", "+", D("1.2")),
        ("earned 1.2% a month", "", D("1.2")),
        ("after COVID-19 began", "", D("19")),
    ],
    ids=["hyphen", "minus", "spaced-minus", "thin-space", "no-break-space", "narrow-en-dash",
         "plus", "unsigned", "word-glued-dash-is-no-sign"],
)  # fmt: skip
def test_a_sign_is_read_as_displayed(text: str, sign: str, value: Decimal) -> None:
    (found,) = readings(text)
    (number,) = found.parts
    assert (number.sign, number.value) == (sign, value)
    assert found.text.startswith(sign) and found.text.endswith(("%", "19"))


@pytest.mark.parametrize(
    ("text", "reader", "ranges", "bounds"),
    [
        ("from 1.2\u20133.4 mg", ["1.2\u20133.4"], ["1.2\u20133.4"], (D("1.2"), D("3.4"))),
        ("from 5-10 mg", ["5-10"], ["5-10"], (D(5), D(10))),
        ("from 5 - 10 mg", ["5", "10"], ["5 - 10"], None),
        ("from 5 to 10 mg", ["5", "10"], ["5 to 10"], None),
        ("from 5\u221210 mg", ["5\u221210"], ["5", "10"], (D(5), D(10))),
        ("OR 2.1 (95% CI 0.8 to 1.2)", ["2.1", "95% CI 0.8 to 1.2"], ["2.1", "95%", "0.8 to 1.2"],
         None),
        ("HR 0.8; 95% CI, 0.6-0.9.", ["0.8", "95% CI, 0.6-0.9"], ["0.8", "95%", "0.6-0.9"], None),
    ],
    ids=["en-dash-range", "hyphen-range", "spaced-hyphen", "to", "tight-minus",
         "ci-with-to", "ci-with-dash"],
)  # fmt: skip
def test_ranges_and_intervals_by_view(
    text: str, reader: list[str], ranges: list[str], bounds: tuple[Decimal, Decimal] | None
) -> None:
    assert [r.label for r in readings(text)] == reader
    assert [r.text for r in readings(text, RANGE_JOINTS)] == ranges
    if bounds is not None:
        assert readings(text)[0].bounds == bounds


def test_an_interval_s_bounds_are_its_last_two_parts() -> None:
    (_, interval) = readings("OR 2.1 (95% CI 0.8 to 1.2)")
    assert interval.joints == (Joint.INTERVAL, Joint.TO)
    assert interval.bounds == (D("0.8"), D("1.2"))


@pytest.mark.parametrize(
    ("text", "labels", "joints"),
    [
        ("Of 10/66 patients.", ["10/66"], (Joint.RATIO,)),
        ("A 3:1 ratio.", ["3:1"], (Joint.RATIO,)),
        ("Group 1: 45 patients.", ["1", "45"], ()),
        ("Survival was 18\u00b72 months.", ["18\u00b72"], (Joint.DECIMAL_POINT,)),
        ("Weight 4 \u00b1 1 kg.", ["4 \u00b1 1"], (Joint.PLUS_MINUS,)),
        ("Doses of 10, 20 and 30 mg.", ["10", "20", "30"], ()),
        ("A 5 \u00d7 3 grid.", ["5", "3"], ()),
    ],
    ids=[
        "fraction",
        "ratio",
        "label-colon-is-two",
        "middle-dot-decimal",
        "plus-minus",
        "list",
        "times-a-number-is-two",
    ],
)
def test_what_joins_numbers_into_one(
    text: str, labels: list[str], joints: tuple[Joint, ...]
) -> None:
    found = readings(text)
    assert [r.label for r in found] == labels
    assert found[0].joints == joints


@pytest.mark.parametrize(
    ("text", "label", "amount"),
    [
        ("p = 1.2 \u00d7 10^-3 here", "1.2 \u00d7 10^-3", D("0.0012")),
        ("p = 1.2 \u00d7 10\u207b\u00b3 here", "1.2 \u00d7 10\u207b\u00b3", D("0.0012")),
        ("p = 1e-3 here", "1e-3", D("0.001")),
        ("p = 2.5E+04 here", "2.5E+04", D("25000")),
        ("p = -1e-3 here", "-1e-3", D("-0.001")),
        ("p = 10^-3 here", "10^-3", D("0.001")),
    ],
    ids=["times-ten", "superscript-exponent", "e-notation", "e-plus", "signed-mantissa",
         "bare-power"],
)  # fmt: skip
def test_exponents_are_read_with_their_base(text: str, label: str, amount: Decimal) -> None:
    (found,) = readings(text)
    assert found.label == label
    assert found.amount == amount


@pytest.mark.parametrize(
    ("norm", "value"),
    [
        ("-1.2%", D("-1.2")),
        ("0.05", D("0.05")),
        ("1000", D(1000)),
        ("10^-3", None),
        ("3-", None),
        ("er+", None),
        ("inf", None),
        ("nan", None),
    ],
    ids=["percent", "decimal", "integer", "exponent", "marked", "word", "infinity", "nan"],
)
def test_the_value_a_norm_states(norm: str, value: Decimal | None) -> None:
    assert value_of(norm) == value


@pytest.mark.parametrize(
    ("text", "norms", "percent"),
    [
        ("cut pain by 30 %", ["30%"], True),
        ("cut pain by 30%", ["30%"], True),
        ("we counted 1,234 cells", ["1234"], False),
        ("p < .05", ["0.05"], False),
    ],
    ids=["spaced-percent", "percent", "thousands", "bare-decimal"],
)
def test_norms_and_percents(text: str, norms: list[str], percent: bool) -> None:
    found = readings(text)
    assert [r.label for r in found] == norms
    assert found[0].parts[0].percent is percent


@pytest.mark.parametrize(
    ("text", "figures"),
    [
        ("spreads of 20 bps", [("20", "bp")]),
        ("up 5 percentage points", [("5", "pp")]),
        ("a rise of 4 percent", [("4", "%")]),
        ("costs of 2 million", [("2000000", "")]),
        ("a fall of \u2212 3%", [("-3", "%")]),
        ("from 10 - 20%", [("10", ""), ("20", "%")]),
    ],
    ids=["basis-points", "percentage-points", "percent-word", "scale", "spaced-minus",
         "range-dash-is-no-sign"],
)  # fmt: skip
def test_digit_figures_with_units(text: str, figures: list[tuple[str, str]]) -> None:
    assert [(f.norm, f.unit) for f in digit_figures(text)] == figures


@pytest.mark.parametrize(
    ("text", "figures"),
    [
        ("two million users", [("2000000", "")]),
        ("twenty percent of them", [("20", "%")]),
        ("four hundred basis points", [("400", "bp")]),
        ("twenty-five thousand cells", [("25000", "")]),
        ("a million cells", [("1000000", "")]),
        ("one of our decisions", []),
    ],
    ids=["scale", "unit", "basis-points", "hyphenated", "a-million", "bare-cardinal-is-prose"],
)
def test_spelled_figures_through_the_lexicon(text: str, figures: list[tuple[str, str]]) -> None:
    found = list(spelled_figures(text))
    assert [(f.norm, f.unit) for f in found] == figures
    assert all(f.spelled and text[f.start : f.end] == f.text for f in found)


@pytest.mark.parametrize(
    ("text", "label"),
    [("The angle was 40\u2032 wide.", "40"), ("The angle was 40\u2033 wide.", "40")],
    ids=["prime", "double-prime"],
)
def test_primes_are_not_part_of_a_number(text: str, label: str) -> None:
    (found,) = readings(text)
    assert found.label == label
    assert found.text == "40"


@pytest.mark.parametrize(
    ("norm", "year"),
    [("2019", True), ("1850", True), ("1750", False), ("2019.5", False), ("20190", False)],
    ids=["this-century", "nineteenth-century", "too-early", "decimal", "five-digits"],
)
def test_years(norm: str, year: bool) -> None:
    assert is_year(norm) is year

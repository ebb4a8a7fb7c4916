"""A sentence's own figures read for significance: P values and intervals, every one of them."""

from __future__ import annotations

import pytest

from engine.reading.significance import reports_no_significance


@pytest.mark.parametrize(
    ("sentence", "none_significant"),
    [
        ("Vitamin D reduced falls in nursing home residents (P = .34).", True),
        ("Risk fell (P=0.21).", True),
        ("No difference was seen (p > 0.05).", True),
        ("Stroke risk fell (hazard ratio, 0.91; 95% CI, 0.78-1.06).", True),
        ("Falls fell by 12% (95% CI, -3% to 25%).", True),
        ("The difference was 1.2 (95% CI, \u22120.5 to 2.9).", True),
        ("Risk fell (relative risk 0.52; 95% confidence interval [CI] 0.24-1.12, p = 0.09).", True),
        ("Aspirin reduced mortality (RR 0.8, 95% CI 0.7-0.9, P < .001).", False),
        ("Mortality fell by 20% (95% confidence interval [CI], 5% to 33%).", False),
        ("Risk fell (HR 0.80 [95% CI 0.70\u20130.92]).", False),
        ("Levels were higher (P = 0.05).", False),
        ("Scores fell (P < .05).", False),
        ("Two loci were associated (P < 1 \u00d7 10\u22123).", False),
        ("The SNP was associated (p=1.7x10(-15)).", False),
        ("X lowered Y (odds ratio 0.5; 95% CI 0.3 to 0.8) but not Z (P = .4).", False),
        ("Aspirin reduced mortality.", False),
    ],
    ids=["p-34", "p-21-unspaced", "p-above", "ratio-interval", "difference-interval",
         "unicode-minus", "ratio-and-p", "significant-ratio", "significant-difference",
         "en-dash", "p-at-05", "p-below-05", "power-of-ten", "power-of-ten-bracketed",
         "one-significant-among-others", "no-figures"],
)  # fmt: skip
def test_a_sentence_reports_no_significance_only_when_every_figure_says_so(
    sentence: str, none_significant: bool
) -> None:
    assert reports_no_significance(sentence) is none_significant

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
        ("Orlistat reduced weight, with a P value of 0.08.", True),
        ("Orlistat reduced weight (p-value = 0.3).", True),
        ("Orlistat reduced weight (P value 0.21).", True),
        ("Orlistat reduced weight (P-value: .4).", True),
        ("Orlistat reduced weight, P = 0.08.", True),
        ("Orlistat reduced weight (P value < 0.001).", False),
        ("Orlistat reduced weight, with a p value of 0.01.", False),
        ("Loss of p53 raised tumour growth.", False),
        ("Loss of p 53 raised tumour growth.", False),
        ("Aspirin reduced mortality (95% CI 0.8 to 1.1).", True),
        ("Aspirin reduced mortality (95% CI 0.6 to 0.9).", False),
        ("Weight fell by 2.1 kg (95% CI 1.4 to 2.8).", False),
        ("Weight fell by 2% (95% CI 0.5% to 3.1%).", False),
    ],
    ids=["p-34", "p-21-unspaced", "p-above", "ratio-interval", "difference-interval",
         "unicode-minus", "ratio-and-p", "significant-ratio", "significant-difference",
         "en-dash", "p-at-05", "p-below-05", "power-of-ten", "power-of-ten-bracketed",
         "one-significant-among-others", "no-figures", "p-value-of", "p-value-equals",
         "p-value-bare", "p-value-colon", "p-closing-the-sentence", "p-value-below",
         "p-value-of-significant", "p53", "p-spaced-53", "unnamed-across-1",
         "unnamed-below-1", "unnamed-above-1", "percent-across-1"],
)  # fmt: skip
def test_a_sentence_reports_no_significance_only_when_every_figure_says_so(
    sentence: str, none_significant: bool
) -> None:
    assert reports_no_significance(sentence) is none_significant


@pytest.mark.parametrize(
    ("sentence", "none_significant"),
    [
        ("Zinc shortened cold duration (not significant).", True),
        ("Lithium reduced suicide attempts, although the difference did not reach statistical "
         "significance.", True),
        ("Weight did not differ significantly between groups.", True),
        ("Scores fell, a non-significant trend.", True),
        ("Pain fell (NS).", True),
        ("Survival was 82% against 85% (P = NS).", True),
        ("Benefit failed to reach significance.", True),
        ("Yoga reduced back pain, with no significant effect on disability.", False),
        ("Aspirin significantly reduced stroke.", False),
        ("Aspirin significantly reduced stroke, but bleeding was not significant.", False),
        ("Geranylgeraniol, but not farnesol, significantly reduced cell death.", False),
        ("There was no significant disagreement among scientists.", False),
        ("Resulting NS cells proliferate continuously.", False),
        ("Risk fell (RR 0.74, 0.60 to 0.92), with no significant effect on other outcomes.",
         False),
    ],
    ids=["not-significant", "did-not-reach", "did-not-differ-significantly", "non-significant",
         "ns-bracketed", "p-equals-ns", "failed-to-reach", "names-another-outcome",
         "significantly", "one-significant-among-others", "negation-of-another-thing",
         "size-not-test", "ns-cells", "other-outcomes"],
)  # fmt: skip
def test_words_are_verdicts_too_when_they_speak_of_a_test(
    sentence: str, none_significant: bool
) -> None:
    assert reports_no_significance(sentence) is none_significant

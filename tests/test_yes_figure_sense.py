"""Figures that say no change, or a change the other way, withhold the yes beside them."""

from __future__ import annotations

import pytest

from engine.core.stance import Overstated
from engine.review.yes_figure_sense import figures_against
from engine.review.yes_rules import overstates
from engine.text.tokens import word_sequence


@pytest.mark.parametrize(
    ("claim", "sentence", "rule"),
    [
        ("Metformin reduces weight.", "Metformin reduced weight by 0% in obese adults.",
         Overstated.NOT_SIGNIFICANT),
        ("Metformin reduces weight.", "Metformin reduced weight by 0.0 percent.",
         Overstated.NOT_SIGNIFICANT),
        ("Metformin reduces weight.", "Metformin produced a 0% reduction in weight.",
         Overstated.NOT_SIGNIFICANT),
        ("Metformin reduces mortality.", "Metformin reduced mortality (RR 1.00).",
         Overstated.NOT_SIGNIFICANT),
        ("Metformin increases weight.", "Metformin increased weight by -2 kg.",
         Overstated.DIRECTION),
        ("Metformin reduces mortality.",
         "Metformin reduced mortality (HR 1.20, 95% CI 1.05-1.37).", Overstated.DIRECTION),
        ("Metformin reduces mortality.",
         "Metformin reduced mortality (hazard ratio 1.35; 95% CI 1.10 to 1.66).",
         Overstated.DIRECTION),
        ("Metformin increases mortality.",
         "Metformin increased mortality (OR 0.75, 95% CI 0.60-0.90).", Overstated.DIRECTION),
        ("Metformin reduces weight.", "Metformin reduced weight (mean difference 0.0 kg).",
         Overstated.NOT_SIGNIFICANT),
        ("Metformin reduces weight.", "Metformin reduced weight by a non-significant 2%.",
         Overstated.NOT_SIGNIFICANT),
        ("Metformin reduces weight.", "Metformin reduced weight from 80 kg to 82 kg.",
         Overstated.DIRECTION),
        ("Metformin increases HbA1c.", "Metformin increased HbA1c from 8.1% to 7.2%.",
         Overstated.DIRECTION),
        ("Metformin reduces weight.", "Metformin reduced weight (mean change +1.2 kg).",
         Overstated.DIRECTION),
        ("Metformin reduces weight gain.", "Metformin reduced weight gain (OR 1.6).",
         Overstated.DIRECTION),
        ("Metformin reduces weight.", "Metformin reduced weight from 90 kg to 85 kg.", None),
        ("Metformin reduces weight gain.", "Metformin reduced the odds of weight gain (OR 0.6).",
         None),
        ("Metformin reduces weight.", "Metformin reduced weight by 5% in obese adults.", None),
        ("Metformin reduces mortality.",
         "Metformin reduced mortality (HR 0.80, 95% CI 0.70-0.91).", None),
        ("Metformin improves survival.",
         "Metformin improved survival (HR 0.70, 95% CI 0.55-0.89).", None),
        ("Metformin increases survival.", "Metformin increased survival (HR 0.70).", None),
        ("Metformin reduces weight or glucose.",
         "Metformin reduced weight or glucose in 2 trials (OR 0.8).", None),
        ("Metformin reduces weight.", "Metformin reduced weight by 5% versus 6% with placebo.",
         Overstated.DIRECTION),
        ("Metformin reduces weight.", "Metformin reduced weight by 5% versus 5% with placebo.",
         Overstated.NOT_SIGNIFICANT),
        ("Metformin reduces weight.",
         "Metformin reduced weight by a mean of 2.1 kg vs 3.0 kg in the placebo group.",
         Overstated.DIRECTION),
        ("Metformin reduces weight.",
         "Metformin produced a 5% reduction in weight versus 6% in controls.",
         Overstated.DIRECTION),
        ("Metformin reduces HbA1c.",
         "Metformin reduced HbA1c to 7.9% compared with 7.2% with placebo.",
         Overstated.DIRECTION),
        ("Metformin increases HDL.",
         "Metformin increased HDL to 40 mg/dL versus 45 mg/dL with placebo.",
         Overstated.DIRECTION),
        ("Metformin reduces weight.", "Metformin reduced weight by 5% versus 1% with placebo.",
         None),
        ("Metformin reduces HbA1c.",
         "Metformin reduced HbA1c to 6.9% compared with 7.2% with placebo.", None),
        ("Metformin reduces mortality.", "Metformin reduced mortality (HR for death 1.30).",
         Overstated.DIRECTION),
        ("Metformin increases survival.", "Metformin increased survival (HR for death 1.30).",
         Overstated.DIRECTION),
        ("Metformin improves survival.",
         "Metformin improved survival (hazard ratio for death, 1.25; 95% CI 1.05 to 1.49).",
         Overstated.DIRECTION),
        ("Metformin reduces relapse.", "Metformin reduced relapse (odds ratio of relapse 1.4).",
         Overstated.DIRECTION),
        ("Metformin increases survival.", "Metformin increased survival (HR for death 0.70).",
         None),
        ("Metformin reduces stroke.",
         "Metformin reduced stroke (HR for stroke 0.80; HR for death 1.10).", None),
        ("Metformin reduces mortality.",
         "Metformin reduced mortality (HR, adjusted for age, 1.30).", Overstated.DIRECTION),
        ("Metformin reduces mortality.",
         "Metformin reduced mortality (odds ratio after adjustment for sex, 1.4).",
         Overstated.DIRECTION),
        ("Metformin reduces mortality.",
         "Metformin reduced mortality (HR, adjusted for age, 0.70).", None),
    ],
    ids=["by-zero-percent", "by-zero-point-zero", "zero-reduction", "ratio-of-one",
         "by-a-negative", "hr-above-one", "hazard-ratio-above-one", "or-below-one",
         "mean-difference-zero", "by-a-non-significant", "from-to-up", "from-to-down",
         "signed-change", "first-change-of-the-claim", "from-to-control", "odds-control",
         "by-five-percent", "hr-below-one", "survival-hr-below-one", "survival-increased",
         "or-the-word", "control-reduced-more", "control-reduced-as-much", "control-in-kg",
         "control-after-reduction-in", "control-level-lower", "control-level-two-word-unit",
         "control-reduced-less",
         "control-level-higher", "hr-for-death-above-one", "survival-hr-for-death-above-one",
         "improved-survival-hr-for-death", "or-of-relapse-above-one",
         "survival-hr-for-death-below-one", "hr-of-another-outcome", "hr-adjusted-above-one",
         "or-after-adjustment-above-one", "hr-adjusted-below-one"],
)  # fmt: skip
def test_figures_against_the_word_withhold_the_yes(
    claim: str, sentence: str, rule: Overstated | None
) -> None:
    assert overstates(claim, [sentence]) is rule


@pytest.mark.parametrize(
    ("sentence", "rule"),
    [
        ("Aspirin reduced mortality (7% vs 6% with placebo).", Overstated.DIRECTION),
        ("Aspirin reduced the incidence of stroke (12% vs 9% in controls).", Overstated.DIRECTION),
        ("Aspirin reduced mortality (5% vs 7% with placebo).", None),
        ("Aspirin reduced body weight (5% vs 6% with placebo).", Overstated.DIRECTION),
        ("Aspirin reduced body weight by 6% versus 5% with placebo.", None),
        ("Aspirin reduced mortality (hazard ratio adjusted for confounders 1.40).",
         Overstated.DIRECTION),
        ("Aspirin reduced mortality (relative risk after adjustment 1.25).", Overstated.DIRECTION),
        ("Aspirin reduced mortality (hazard ratio adjusted for age 0.75).", None),
    ],
    ids=["rate-higher", "incidence-higher", "rate-lower", "either-reading", "sizes",
         "ratio-adjusted-no-comma", "after-adjustment", "ratio-adjusted-below-one"],
)  # fmt: skip
def test_arms_and_adjusted_ratios_are_read_against_the_claim(
    sentence: str, rule: Overstated | None
) -> None:
    claim = "Aspirin reduces mortality." if "mortality" in sentence else "Aspirin reduces weight."
    if "stroke" in sentence:
        claim = "Aspirin reduces the incidence of stroke."
    assert figures_against(word_sequence(claim), word_sequence(sentence), sentence) is rule

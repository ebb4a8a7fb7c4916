"""Figures that say no change, or a change the other way, withhold the yes beside them."""

from __future__ import annotations

import pytest

from engine.core.stance import Overstated
from engine.review.yes_rules import overstates


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
    ],
    ids=["by-zero-percent", "by-zero-point-zero", "zero-reduction", "ratio-of-one",
         "by-a-negative", "hr-above-one", "hazard-ratio-above-one", "or-below-one",
         "mean-difference-zero", "by-a-non-significant", "from-to-up", "from-to-down",
         "signed-change", "first-change-of-the-claim", "from-to-control", "odds-control",
         "by-five-percent", "hr-below-one", "survival-hr-below-one", "survival-increased",
         "or-the-word"],
)  # fmt: skip
def test_figures_against_the_word_withhold_the_yes(
    claim: str, sentence: str, rule: Overstated | None
) -> None:
    assert overstates(claim, [sentence]) is rule

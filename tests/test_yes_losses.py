"""What the claim says acts, named by the evidence only as lost, removed or blocked."""

from __future__ import annotations

import pytest

from engine.review.yes_losses import lost_actor
from engine.text.tokens import word_sequence


@pytest.mark.parametrize(
    ("claim", "sentence", "lost"),
    [
        ("SIRT1 increases steatosis.", "SIRT1 deficiency increased steatosis.", True),
        ("Cisplatin increases tumour growth.", "Resistance to cisplatin increased tumour growth.",
         True),
        ("Aspirin reduces mortality.", "Stopping aspirin reduced mortality.", True),
        ("Aspirin reduces mortality.", "Withholding aspirin reduced mortality.", True),
        ("Gluten reduces fatigue.", "Gluten avoidance reduced fatigue.", True),
        ("Aspirin reduces mortality.", "Aspirin dose reduction reduced mortality.", True),
        ("Sodium lowers blood pressure.", "Sodium restriction lowered blood pressure.", True),
        ("Aspirin reduces mortality.", "Aspirin reduced mortality.", False),
        ("Aspirin stops bleeding.", "Aspirin stopped bleeding after surgery.", False),
        ("Aspirin reduces mortality.", "Aspirin use reduced mortality.", False),
        ("Aspirin reduces mortality.", "High-dose aspirin reduced mortality.", False),
    ],
    ids=["deficiency", "resistance-to", "stopping", "withholding", "avoidance",
         "dose-reduction", "restriction", "present", "stopped-by-it", "use", "high-dose"],
)  # fmt: skip
def test_a_word_said_only_as_lost_is_named(claim: str, sentence: str, lost: bool) -> None:
    assert lost_actor(word_sequence(claim), [sentence]) is lost

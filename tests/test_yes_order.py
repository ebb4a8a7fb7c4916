"""A claim keeps the evidence's words in their order; a scope it opens on may close the claim."""

from __future__ import annotations

import pytest

from engine.review.yes_order import reordered


@pytest.mark.parametrize(
    ("claim", "evidence", "moved"),
    [
        ("metformin reduced tumour growth in mice", "In mice, metformin reduced tumour growth.",
         False),
        ("glucagon increased output in the absence of insulin",
         "In the absence of insulin, glucagon increased output.", False),
        ("tumour growth reduced metformin in mice", "In mice, metformin reduced tumour growth.",
         True),
        ("Depression predicts later chronic pain.", "Chronic pain predicted later depression.",
         True),
        ("Aspirin reduces pain in warfarin users.", "In aspirin users, warfarin reduced pain.",
         True),
        ("Warfarin reduces pain in aspirin users.", "In aspirin users, warfarin reduced pain.",
         False),
    ],
    ids=["scope-at-the-end", "condition-at-the-end", "words-moved", "roles-turned",
         "scope-swapped", "scope-kept"],
)  # fmt: skip
def test_a_claim_keeps_the_order_and_may_move_an_opening_scope(
    claim: str, evidence: str, moved: bool
) -> None:
    assert reordered(claim, [evidence]) is moved

"""Whether the sentence after a finding takes it back, and which sentence follows a claim."""

from __future__ import annotations

import pytest

from engine.core.model import Claim, ClaimKind
from engine.core.stance import Overstated, StanceRelation
from engine.review.claim_stance import stance_toward
from engine.review.next_withdrawal import following_sentences, withdrawn_after

FINDING = "Statins reduced LDL cholesterol in older adults."


@pytest.mark.parametrize(
    ("following", "withdrawn"),
    [
        ("However, this reduction was not statistically significant.", True),
        ("This reduction disappeared after adjustment for diet.", True),
        ("The difference was attenuated after adjustment for age.", True),
        ("This reduction was not sustained beyond six months.", True),
        ("However, this effect is no longer observed after adjusting for weight.", True),
        ("It did not reach statistical significance.", True),
        ("This reduction was not explained by diet.", False),
        ("This effect could not be fully explained by changes in diet.", False),
        ("The effect on mortality was not significant.", False),
        ("This reduction was sustained for two years.", False),
        ("This effect was abolished by knockdown of the LDL receptor.", False),
        ("This may explain the fall in cardiovascular events.", False),
        ("Patients tolerated statins well.", False),
    ],
    ids=["not-significant", "disappeared-after-adjustment", "attenuated-after-adjustment",
         "not-sustained", "no-longer-after-adjusting", "it-not-significant",
         "not-explained-by", "could-not-be-explained", "another-outcome", "sustained",
         "abolished-by-an-experiment", "may-explain", "no-pointer"],
)  # fmt: skip
def test_a_next_sentence_takes_back_only_what_it_points_at(following: str, withdrawn: bool) -> None:
    assert withdrawn_after(FINDING, following) is withdrawn


def test_the_following_sentence_is_read_from_the_cited_body() -> None:
    body = f"We ran a trial. {FINDING} However, this reduction was not significant."
    claim = Claim("c0", FINDING, ClaimKind.RESTATEMENT, cites=("zk:a",))
    last = Claim("c1", "However, this reduction was not significant.", ClaimKind.RESTATEMENT,
                 cites=("zk:a",))  # fmt: skip
    elsewhere = Claim("c2", FINDING, ClaimKind.RESTATEMENT, cites=("zk:b",))
    found = following_sentences([claim, last, elsewhere], {"zk:a": body, "zk:b": "Other text."})
    assert found == {FINDING: "However, this reduction was not significant."}


def test_a_yes_the_next_sentence_takes_back_reads_neither() -> None:
    claim = "Statins reduce LDL cholesterol in older adults."
    taken = {FINDING: "However, this reduction was not statistically significant."}
    kept = {FINDING: "This reduction was sustained for two years."}
    read = stance_toward(claim, [FINDING], after=taken)
    assert read is not None
    assert (read.relation, read.overstated) == (StanceRelation.NEITHER, Overstated.NEXT_SENTENCE)
    plain = stance_toward(claim, [FINDING], after=kept)
    assert plain is not None and plain.relation is StanceRelation.SUPPORTS

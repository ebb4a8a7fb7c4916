"""What a no must keep: each rule names the way a negation in the evidence is no firm no."""

from __future__ import annotations

import pytest

from engine.core.stance import Overstated, StanceRelation
from engine.review.claim_stance import stance_toward
from engine.review.no_rules import overstated_no


@pytest.mark.parametrize(
    ("claim", "sentence", "rule"),
    [
        ("Atorvastatin lowers LDL cholesterol.",
         "Atorvastatin did not lower LDL cholesterol more than rosuvastatin did.",
         Overstated.COMPARED),
        ("Cognitive therapy is effective for depression.",
         "Cognitive therapy was no less effective than medication for depression.",
         Overstated.COMPARED),
        ("Aspirin reduces mortality.",
         "Mortality was not reduced further by adding clopidogrel to aspirin.",
         Overstated.COMPARED),
        ("Homeopathy improves symptoms.", "Homeopathy was not better than placebo for symptoms.",
         None),
        ("Patients with migraine respond to triptans.",
         "Not all patients with migraine responded to triptans.", Overstated.PARTIAL),
        ("Smoking increases lung cancer risk.",
         "It is not surprising that smoking increases lung cancer risk.", Overstated.FRAMED),
        ("Antibiotics cure streptococcal pharyngitis.",
         "Antibiotics did not fail to cure streptococcal pharyngitis.", Overstated.FRAMED),
        ("Insulin lowers glucose.",
         "Insulin did not lower glucose in the first hour, but did thereafter.",
         Overstated.OTHER_CLAUSE),
        ("Vitamin E prevents cataracts.", "Vitamin E did not prevent cataracts.", None),
        ("Statins reduce dementia.", "Statins failed to reduce dementia.", None),
        ("Denosumab increases bone mineral density.",
         "Denosumab prevented the decline in bone mineral density.", Overstated.DIRECTION),
        ("Aspirin increases stroke.", "Aspirin reduced stroke.", None),
        ("Vitamin C affects cold incidence in marathon runners.",
         "Vitamin C had no effect on cold incidence, except in marathon runners.",
         Overstated.SET_ASIDE),
        ("Vitamin C affects cold incidence.",
         "Vitamin C had no effect on cold incidence, except in marathon runners.", None),
        ("Smoking causes lung cancer.", "There is no doubt that smoking causes lung cancer.",
         Overstated.FRAMED),
        ("Smoking causes lung cancer.", "It is not a myth that smoking causes lung cancer.",
         Overstated.FRAMED),
        ("Fluoride lowers IQ.", "No study has shown that fluoride lowers IQ.",
         Overstated.DOUBTED),
        ("Fluoride lowers IQ.", "It has not been proven that fluoride lowers IQ.",
         Overstated.DOUBTED),
        ("Vitamin E prevents cataracts.",
         "Our trial did not show that vitamin E prevents cataracts.", None),
        ("Ibuprofen has side effects.", "None of the side effects of ibuprofen were serious.",
         Overstated.QUALITY),
        ("Ibuprofen causes serious side effects.",
         "None of the side effects of ibuprofen were serious.", None),
        ("Treated mice develop tumours.", "None of the treated mice developed tumours.", None),
        ("Aspirin causes bleeding.", "None of the participants taking aspirin had bleeding.",
         None),
        ("Dexamethasone reduces mortality.",
         "Mortality was higher with placebo than with dexamethasone.", Overstated.SET_ASIDE),
        ("Dexamethasone reduces mortality.",
         "Dexamethasone did not reduce mortality compared with placebo.", None),
        ("Benzene causes leukaemia.", "Benzene cannot be excluded as a cause of leukaemia.",
         Overstated.FRAMED),
        ("Smoking causes lung cancer.", "Smoking is not the only cause of lung cancer.",
         Overstated.FRAMED),
        ("Montelukast causes neuropsychiatric events.",
         "Montelukast did not cause serious neuropsychiatric events.", Overstated.QUALITY),
        ("Gabapentin reduces pain.", "Gabapentin did not strongly reduce pain.",
         Overstated.QUALITY),
        ("Gabapentin reduces pain.", "Gabapentin did not reduce pain until the second week.",
         Overstated.QUALITY),
        ("Gabapentin reduces pain.", "Gabapentin did not reduce pain at the lowest dose.",
         Overstated.QUALITY),
        ("Gabapentin reduces pain.", "Gabapentin did not reduce pain in every patient.",
         Overstated.PARTIAL),
        ("Gabapentin reduces pain.", "Gabapentin did not reduce pain as much as pregabalin.",
         Overstated.COMPARED),
        ("Gabapentin reduces pain.", "Gabapentin did not significantly reduce pain.", None),
        ("Metformin reduces weight.", "Metformin was not ineffective in reducing weight.",
         Overstated.FRAMED),
        ("Metformin affects weight.", "Metformin was not without effect on weight.",
         Overstated.FRAMED),
        ("Statins are ineffective against stroke.",
         "Statins were not ineffective against stroke.", None),
        ("Metformin reduces weight.",
         "Metformin did not reduce weight, although a trend was noted.", Overstated.TAKEN_BACK),
        ("Metformin reduces weight.",
         "Metformin did not reduce weight; the difference approached significance.",
         Overstated.TAKEN_BACK),
        ("Metformin reduces weight.",
         "Metformin did not reduce weight, and there was no trend toward lower weight.", None),
        ("Metformin reduces weight.",
         "Metformin did not reduce weight; the difference did not approach significance.",
         None),
    ],
    ids=["more-than-an-active-drug", "no-less-than", "not-further", "not-better-than-placebo",
         "not-all", "not-surprising", "did-not-fail-to", "but-did-thereafter", "plain-no",
         "failed-to", "prevented-the-decline", "opposite-direction", "except-in-the-scope",
         "except-elsewhere", "no-doubt", "not-a-myth", "no-study-has-shown",
         "not-been-proven", "our-trial-did-not-show", "none-serious", "none-serious-asked",
         "none-developed", "none-had", "actor-after-than", "actor-first",
         "cannot-be-excluded", "not-the-only", "not-serious", "not-strongly", "not-until",
         "not-at-the-lowest-dose", "not-in-every", "not-as-much-as", "not-significantly",
         "not-ineffective", "not-without-effect", "not-ineffective-asked", "trend-noted",
         "approached-significance", "no-trend", "did-not-approach"],
)  # fmt: skip
def test_a_no_is_firm_only_where_the_negation_denies_the_finding(
    claim: str, sentence: str, rule: Overstated | None
) -> None:
    assert overstated_no(claim, sentence) is rule


def test_a_no_withheld_reads_neither_and_names_its_rule() -> None:
    found = stance_toward(
        "Atorvastatin lowers LDL cholesterol.",
        ["Atorvastatin did not lower LDL cholesterol more than rosuvastatin did."],
    )
    assert found is not None
    assert (found.relation, found.overstated) == (StanceRelation.NEITHER, Overstated.COMPARED)

"""A yes keeps where and how strongly a sentence found it: a model, a part, a degree."""

from __future__ import annotations

import pytest

from engine.core.stance import Overstated
from engine.review.yes_rules import overstates


@pytest.mark.parametrize(
    ("claim", "evidence", "rule"),
    [
        ("Ivermectin inhibits SARS-CoV-2 replication.",
         ["Ivermectin inhibited SARS-CoV-2 replication in vitro."], Overstated.CONDITION),
        ("Ivermectin inhibits SARS-CoV-2 replication in vitro.",
         ["Ivermectin inhibited SARS-CoV-2 replication in vitro."], None),
        ("Ivermectin inhibits SARS-CoV-2 replication.",
         ["Ivermectin inhibited SARS-CoV-2 replication in vitro.",
          "In hamsters, ivermectin inhibited SARS-CoV-2 replication."], None),
        ("Mical alters F-actin dynamics.",
         ["Mical altered F-actin dynamics in vivo and in vitro."], None),
        ("Smoking cessation halves the risk of stroke.",
         ["Smoking cessation halved the risk of stroke in simulations."], Overstated.CONDITION),
        ("Omega-3 supplements reduce triglycerides.",
         ["Omega-3 supplements reduced triglycerides in 2 of 10 patients."],
         Overstated.PARTIAL),
        ("Rituximab reduces disease activity.",
         ["Rituximab reduced disease activity in a minority of patients."], Overstated.PARTIAL),
        ("Rituximab reduces disease activity in some patients.",
         ["Rituximab reduced disease activity in some patients."], None),
        ("Exercise reduces pain.", ["Exercise reduced pain in the majority of patients."],
         None),
        ("Physiotherapy reduces back pain.", ["Physiotherapy did little to reduce back pain."],
         Overstated.HEDGE),
        ("Physiotherapy reduces back pain.", ["Physiotherapy hardly reduced back pain."],
         Overstated.HEDGE),
        ("Probiotics reduce diarrhoea.", ["Probiotics should reduce diarrhoea."],
         Overstated.HEDGE),
        ("Caffeine reduces anxiety.", ["Caffeine increased rather than reduced anxiety."],
         Overstated.DIRECTION),
        ("Caffeine reduces anxiety.", ["Caffeine reduced anxiety rather than increasing it."],
         None),
        ("Melatonin reduces reaction time.",
         ["Melatonin improved sleep quality and caffeine reduced reaction time."],
         Overstated.OTHER_CLAUSE),
        ("Melatonin reduces reaction time.",
         ["Melatonin improved sleep quality and reduced reaction time."], None),
        ("Probiotics reduce diarrhoea.", ["It is a myth that probiotics reduce diarrhoea."],
         Overstated.DOUBTED),
        ("Aspirin reduces the risk to 4%.", ["Aspirin reduced the risk from 4% to 2%."],
         Overstated.EXACT),
        ("Aspirin reduces the risk to 2%.", ["Aspirin reduced the risk from 4% to 2%."], None),
        ("Aspirin reduces the risk by 20%.", ["Aspirin reduced the risk (20%)."], None),
        ("BRCA1 increases breast cancer risk.",
         ["Mutations in BRCA1 increase breast cancer risk."], Overstated.LOST),
        ("KRAS promotes tumour growth.", ["KRAS mutations promote tumour growth."],
         Overstated.LOST),
        ("Exercise reduces depression scores.",
         ["Exercise reduced depression scores before but not after adjustment for baseline."],
         Overstated.TAKEN_BACK),
        ("Only aspirin reduces stroke.", ["Aspirin reduced stroke."], Overstated.EXACT),
        ("Metformin is the most effective treatment for diabetes.",
         ["Metformin was an effective treatment for diabetes."], Overstated.EXACT),
        ("Gastrointestinal events are the most common adverse events.",
         ["Gastrointestinal events were the most common."], None),
        ("Gastrointestinal events are the most common adverse events.",
         ["Mild gastrointestinal events were most common among adverse events."], None),
        ("South Australia has the most expensive electricity.",
         ["South Australia has the highest electricity prices."], None),
    ],
    ids=["in-vitro", "in-vitro-kept", "in-vitro-and-in-hamsters", "in-vivo-and-in-vitro",
         "in-simulations",
         "in-2-of-10-patients", "in-a-minority", "in-some-kept", "in-the-majority",
         "did-little-to", "hardly", "should", "rather-than-the-direction",
         "rather-than-the-other", "second-subject", "second-verb", "a-myth", "from-for-to",
         "to-kept", "by-without-a-role", "mutations-in", "mutations-after",
         "not-after-adjustment", "only-added", "superlative-added", "superlative-kept",
         "most-without-the", "another-superlative"],
)  # fmt: skip
def test_a_yes_keeps_the_scope_and_degree_of_the_finding(
    claim: str, evidence: list[str], rule: Overstated | None
) -> None:
    assert overstates(claim, evidence) is rule

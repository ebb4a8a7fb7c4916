"""A yes keeps where and how strongly a sentence found it: a model, a part, a degree."""

from __future__ import annotations

import pytest

from engine.core.stance import Overstated
from engine.review.yes_conditions import in_animals_only
from engine.review.yes_rules import overstates
from engine.text.tokens import word_sequence


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
        ("Fish oil reduces arrhythmias.", ["Many patients believe fish oil reduces arrhythmias."],
         Overstated.HEDGE),
        ("Fish oil reduces arrhythmias.", ["The label claims that fish oil reduces arrhythmias."],
         Overstated.HEDGE),
        ("Fish oil reduces arrhythmias.",
         ["Fish oil reduces arrhythmias, according to the manufacturer."], Overstated.HEDGE),
        ("Fish oil reduces arrhythmias.",
         ["The trial was designed to show that fish oil reduces arrhythmias."],
         Overstated.HEDGE),
        ("Sepsis incidence increased.", ["Sepsis incidence per claims increased."], None),
        ("Fish oil reduces arrhythmias.",
         ["Previous reports that fish oil reduces arrhythmias were not confirmed."],
         Overstated.DOUBTED),
        ("Varenicline is effective.", ["Varenicline was less effective than bupropion."],
         Overstated.DIRECTION),
        ("Varenicline is effective.", ["Varenicline was less effective than expected."], None),
        ("Nivolumab improves survival.",
         ["Nivolumab improved progression-free survival but not overall survival."],
         Overstated.CONDITION),
        ("Nivolumab improves progression-free survival.",
         ["Nivolumab improved progression-free survival but not overall survival."], None),
        ("Smoking cessation prevents deaths.",
         ["Smoking cessation prevented deaths in 30% of simulations."], Overstated.PARTIAL),
        ("Lithium reduces mood scores.", ["Lithium reduced the variance of mood scores."],
         Overstated.ATTRIBUTE),
        ("Lithium reduces the variance of mood scores.",
         ["Lithium reduced the variance of mood scores."], None),
        ("Exercise reduces memory.", ["Exercise reduced the decline in memory."],
         Overstated.ATTRIBUTE),
        ("Insulin reduces hypoglycaemia.",
         ["Insulin reduced the incidence of hypoglycaemia unawareness."], Overstated.ATTRIBUTE),
        ("Aspirin reduces stroke.", ["Aspirin reduced the risk of stroke."], None),
        ("Screening reduces deaths.", ["Screening reduced projected deaths."],
         Overstated.ATTRIBUTE),
        ("Aspirin reduces bleeding risk.", ["Aspirin reduced perceived bleeding risk."],
         Overstated.ATTRIBUTE),
        ("Screening reduces projected deaths.", ["Screening reduced projected deaths."], None),
        ("Statins reduce LDL.", ["Statins reduced serum levels of LDL."], None),
        ("The vaccine reduces hospitalisation by 90% in children.",
         ["The vaccine reduced hospitalisation by 90% in adults but by 40% in children."],
         Overstated.EXACT),
        ("The vaccine reduces hospitalisation by 90% in adults.",
         ["The vaccine reduced hospitalisation by 90% in adults but by 40% in children."], None),
        ("PD-1 triggering enhances IL-10 production by monocytes.",
         ["PD-1 triggering on monocytes induced IL-10 production and T cell dysfunction."],
         None),
        ("Metformin reduces HbA1c.", ["Metformin initially reduced HbA1c."],
         Overstated.CONDITION),
        ("Metformin reduces HbA1c.", ["Either metformin or exercise reduced HbA1c."],
         Overstated.CONDITION),
        ("Metformin reduces HbA1c.", ["Metformin reduced HbA1c in responders."],
         Overstated.CONDITION),
        ("Metformin reduces HbA1c.", ["Metformin reduced HbA1c in a hypothetical cohort."],
         Overstated.CONDITION),
        ("Metformin reduces HbA1c.", ["Metformin reduced HbA1c in either group."], None),
        ("Metformin reduces HbA1c.", ["A transient rash was seen; metformin reduced HbA1c."],
         None),
        ("Metformin reduces glucose.", ["Metformin reduced weight and glucose increased."],
         Overstated.DIRECTION),
        ("Metformin reduces glucose.",
         ["Metformin reduced weight and glucose levels were decreased."], None),
    ],
    ids=["in-vitro", "in-vitro-kept", "in-vitro-and-in-hamsters", "in-vivo-and-in-vitro",
         "in-simulations",
         "in-2-of-10-patients", "in-a-minority", "in-some-kept", "in-the-majority",
         "did-little-to", "hardly", "should", "rather-than-the-direction",
         "rather-than-the-other", "second-subject", "second-verb", "a-myth", "from-for-to",
         "to-kept", "by-without-a-role", "mutations-in", "mutations-after",
         "not-after-adjustment", "only-added", "superlative-added", "superlative-kept",
         "most-without-the", "another-superlative", "believe", "claims-that",
         "according-to", "designed-to", "claims-a-noun", "reports-not-confirmed",
         "less-than-an-active-drug", "less-than-expected", "but-not-another-kind",
         "the-kind-named", "in-30-percent-of", "variance-of", "variance-named",
         "decline-in", "property-after", "risk-of", "projected", "perceived",
         "projected-named", "levels-of", "figure-of-another-scope",
         "figure-of-its-scope", "number-in-a-name", "initially", "either-or", "responders",
         "hypothetical-cohort", "in-either-group", "transient-elsewhere", "object-rose",
         "object-fell"],
)  # fmt: skip
def test_a_yes_keeps_the_scope_and_degree_of_the_finding(
    claim: str, evidence: list[str], rule: Overstated | None
) -> None:
    assert overstates(claim, evidence) is rule


@pytest.mark.parametrize(
    ("claim", "evidence", "animals"),
    [
        ("Resveratrol extends lifespan.", ["Resveratrol extended lifespan in obese mice."], True),
        ("Aspirin reduces mortality.", ["Aspirin reduced mortality in septic rats."], True),
        ("Aspirin reduces mortality.", ["Murine sepsis mortality fell with aspirin."], True),
        ("Resveratrol extends lifespan in mice.",
         ["Resveratrol extended lifespan in obese mice."], False),
        ("Aspirin reduces mortality.",
         ["Aspirin reduced mortality in mice and in patients with sepsis."], False),
        ("Aspirin reduces mortality.",
         ["Aspirin reduced mortality in mice.", "Aspirin reduced mortality in adults."], False),
        ("Aspirin reduces mortality.", ["Aspirin reduced mortality."], False),
    ],
    ids=["mice", "rats", "murine", "claim-names-mice", "people-too", "a-sentence-of-people",
         "no-species"],
)  # fmt: skip
def test_a_finding_in_animals_answers_only_a_question_naming_them(
    claim: str, evidence: list[str], animals: bool
) -> None:
    assert in_animals_only(word_sequence(claim), evidence) is animals


def test_part_of_an_analysis_holds_back_only_where_every_sentence_names_one() -> None:
    claim = "Ultrasound reduces traumatic procedures."
    subgroup = "Ultrasound reduced traumatic procedures in a subgroup analysis."
    whole = "Ultrasound reduced traumatic procedures."
    assert overstates(claim, [subgroup]) is Overstated.CONDITION
    assert overstates(claim, [whole, subgroup]) is None


@pytest.mark.parametrize(
    ("sentence", "rule"),
    [
        ("Varenicline reduced relapse in former smokers.", Overstated.UNMARKED),
        ("Varenicline reduced relapse in ex-smokers.", Overstated.UNMARKED),
        ("Varenicline reduced relapse in never smokers.", Overstated.UNMARKED),
        ("Varenicline reduced relapse in smokers, past the first week.", None),
    ],
    ids=["former", "ex", "never", "past-the"],
)  # fmt: skip
def test_those_who_no_longer_are_what_the_claim_names_are_marked(
    sentence: str, rule: Overstated | None
) -> None:
    assert overstates("Varenicline reduces relapse in smokers.", [sentence]) is rule

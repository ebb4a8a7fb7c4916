"""A yes withheld where the sentence gives a question word another role: what acts only as
withdrawn, resisted or targeted, what changes only as who was studied, and a finding only
as an aim, a use or a prospect."""

from __future__ import annotations

import pytest

from engine.core.stance import Overstated
from engine.review.no_rules import overstated_no
from engine.review.yes_populations import population_only
from engine.review.yes_rules import overstates
from engine.text.tokens import word_sequence


@pytest.mark.parametrize(
    ("claim", "evidence", "rule"),
    [
        ("Steroids increase relapse.", "Withdrawal of steroids increased relapse.",
         Overstated.LOST),
        ("Steroids increase relapse.", "Steroid withdrawal increased relapse.", Overstated.LOST),
        ("Statins increase cardiovascular events.",
         "Discontinuation of statins increased cardiovascular events.", Overstated.LOST),
        ("Cisplatin increases tumour growth.", "Resistance to cisplatin increased tumour growth.",
         Overstated.LOST),
        ("Insulin increases hepatic glucose output.",
         "Insulin resistance increased hepatic glucose output.", Overstated.LOST),
        ("TNF reduces arthritis.", "Antibodies against TNF reduced arthritis.", Overstated.LOST),
        ("TNF reduces arthritis.", "Anti-TNF antibodies reduced arthritis.", Overstated.LOST),
        ("TNF reduces arthritis.", "Neutralizing TNF reduced arthritis.", Overstated.LOST),
        ("Smoking cessation reduces mortality.", "Smoking cessation reduced mortality.", None),
        ("Resistance training reduces blood pressure.",
         "Resistance training reduced blood pressure.", None),
        ("Antibiotics reduce infection.", "Antibiotics reduced infection.", None),
        ("Sirt1 mice have increased susceptibility to diet-induced obesity.",
         "Mutant mice are resistant to diet-induced obesity; Sirt1 mice have increased "
         "susceptibility to diet-induced obesity.", None),
    ],
    ids=["withdrawal-of", "steroid-withdrawal", "discontinuation", "resistance-to",
         "insulin-resistance", "antibodies-against", "anti-hyphen", "neutralizing",
         "claim-keeps-cessation", "claim-keeps-resistance", "antibiotics-not-anti",
         "resistant-to-is-not-lost"],
)  # fmt: skip
def test_what_acts_only_as_withdrawn_resisted_or_targeted_is_no_yes(
    claim: str, evidence: str, rule: Overstated | None
) -> None:
    assert overstates(claim, [evidence]) is rule


@pytest.mark.parametrize(
    ("claim", "evidence", "withheld"),
    [
        ("Statins increase the risk of diabetes.",
         "Statins increased the risk of death in patients with diabetes.", True),
        ("Statins increase diabetes.", "Statins increased mortality among diabetes patients.",
         True),
        ("Smoking increases asthma.", "Smoking increased infection in people who had asthma.",
         True),
        ("Metformin reduces type 2 diabetes.",
         "In patients with type 2 diabetes, metformin reduced cardiovascular events.", True),
        ("Statins increase the risk of death.",
         "Statins increased the risk of death in patients with diabetes.", False),
        ("Statins increase the risk of diabetes.",
         "Statins increased the risk of diabetes in patients with heart disease.", False),
        ("Obesity increases diabetes.",
         "Obesity increased diabetes and the mortality of patients with diabetes.", False),
        ("Aspirin reduces the risk of stroke in patients with stroke.",
         "Aspirin reduced the risk of stroke in patients with stroke.", False),
        ("Metformin reduces glucose.", "Metformin was given with food and reduced glucose.",
         False),
        ("Inhaled steroids reduce anxiety in children with asthma.",
         "Inhaled steroids reduced anxiety in the parents of children with asthma.", True),
        ("Aspirin reduces mortality in sepsis.",
         "Aspirin reduced the mortality of physicians treating sepsis.", True),
        ("Aspirin reduces depression in people with dementia.",
         "Aspirin reduced depression in caregivers of people with dementia.", True),
        ("Aspirin reduces mortality in sepsis patients.",
         "Aspirin reduced mortality among doctors caring for sepsis patients.", True),
        ("Inhaled steroids reduce anxiety in the parents of children with asthma.",
         "Inhaled steroids reduced anxiety in the parents of children with asthma.", False),
        ("Statins reduce mortality in patients with heart failure.",
         "Statins reduced the mortality of patients with heart failure.", False),
    ],
    ids=["with-diabetes", "diabetes-patients", "who-had", "opening-population",
         "outcome-itself", "population-of-another-word", "also-the-outcome",
         "claim-keeps-the-population", "with-without-a-population", "parents-of",
         "physicians-treating", "caregivers-of", "doctors-caring-for", "claim-names-the-parents",
         "mortality-of-patients"],
)  # fmt: skip
def test_what_changes_only_as_who_was_studied_is_no_yes(
    claim: str, evidence: str, withheld: bool
) -> None:
    assert population_only(word_sequence(claim), [evidence]) is withheld
    if withheld:
        assert overstates(claim, [evidence]) is Overstated.POPULATION


@pytest.mark.parametrize(
    ("evidence", "rule"),
    [
        ("Metformin is used to reduce glucose.", Overstated.HEDGE),
        ("Metformin was given to reduce glucose.", Overstated.HEDGE),
        ("Metformin is recommended to reduce glucose.", Overstated.HEDGE),
        ("Metformin has the potential to reduce glucose.", Overstated.HEDGE),
        ("Metformin is being investigated to reduce glucose.", Overstated.HEDGE),
        ("Metformin is predicted to reduce glucose.", Overstated.HEDGE),
        ("Metformin was proposed to reduce glucose.", Overstated.HEDGE),
        ("Metformin purportedly reduced glucose.", Overstated.HEDGE),
        ("Metformin apparently reduced glucose.", Overstated.HEDGE),
        ("Metformin is widely held to reduce glucose.", Overstated.HEDGE),
        ("Many clinicians think metformin reduces glucose.", Overstated.HEDGE),
        ("Metformin reduced glucose in none of the trials.", Overstated.DROPPED),
        ("Metformin reduced glucose in neither arm.", Overstated.DROPPED),
        ("Metformin reduced glucose in one patient.", Overstated.PARTIAL),
        ("Metformin reduced glucose in a single case.", Overstated.PARTIAL),
        ("Trials predicted that metformin reduces glucose.", Overstated.HEDGE),
        ("Metformin given to patients reduced glucose.", None),
        ("Metformin used in 30 clinics reduced glucose.", None),
        ("Metformin reduced glucose in patients studied to date.", None),
    ],
    ids=["used-to", "given-to", "recommended-to", "potential-to", "investigated-to",
         "predicted-to", "proposed-to", "purportedly", "apparently", "held-to", "think",
         "in-none-of", "in-neither", "in-one-patient", "in-a-single-case", "predicted-that",
         "given-to-patients", "used-in", "studied-to-date"],
)  # fmt: skip
def test_an_aim_a_use_or_a_prospect_is_no_finding(evidence: str, rule: Overstated | None) -> None:
    assert overstates("Metformin reduces glucose.", [evidence]) is rule


def test_an_estimate_of_a_thing_is_not_the_thing() -> None:
    evidence = ["Metformin reduced the mortality estimate by correcting a coding error."]
    assert overstates("Metformin reduces mortality.", evidence) is Overstated.ATTRIBUTE
    assert overstates("Metformin reduces mortality.", ["Metformin reduced mortality."]) is None


@pytest.mark.parametrize(
    ("claim", "evidence", "rule"),
    [
        ("Obesity is a risk factor for asthma.",
         "Obesity was a risk factor for mortality in patients with asthma.",
         Overstated.POPULATION),
        ("Exercise is a risk factor for heart disease.",
         "Exercise is a risk factor for injury but protects against heart disease.",
         Overstated.OTHER_CLAUSE),
        ("Alcohol raises HDL cholesterol.", "Alcohol at low doses raised HDL cholesterol.",
         Overstated.CONDITION),
        ("Aspirin reduces stroke.", "Aspirin at 300 mg reduced stroke.", Overstated.CONDITION),
        ("Aspirin reduces stroke.", "Aspirin reduced stroke at the highest dose.",
         Overstated.CONDITION),
        ("Obesity is a risk factor for asthma.", "Obesity was a risk factor for asthma.", None),
        ("Metformin lowers glucose.", "Metformin reduced weight but also lowered glucose.",
         None),
        ("Aspirin reduces stroke.", "Aspirin reduced stroke at all doses.", None),
        ("Aspirin reduces stroke.", "Aspirin reduced stroke at 12 months.", None),
        ("Beige fat controls energy homeostasis.",
         "Beige fat controls energy homeostasis via calcium cycling.", None),
    ],
    ids=["link-to-a-population", "risk-on-one-side-the-disease-on-the-other", "at-low-doses",
         "at-300-mg", "at-the-highest-dose", "link-control", "but-also",
         "at-all-doses", "at-a-time", "controls-is-a-verb"],
)  # fmt: skip
def test_links_contrasts_and_doses(claim: str, evidence: str, rule: Overstated | None) -> None:
    assert overstates(claim, [evidence]) is rule


@pytest.mark.parametrize(
    ("evidence", "rule"),
    [
        ("Metformin reduced glucose in an earlier trial later found to be flawed.",
         Overstated.DOUBTED),
        ("Our objective was to show that metformin reduces glucose.", Overstated.DOUBTED),
        ("Evidence that metformin reduces glucose is weak.", Overstated.DOUBTED),
        ("Evidence that metformin reduces glucose is conflicting.", Overstated.DOUBTED),
        ("Evidence that metformin reduces glucose remains controversial.", Overstated.DOUBTED),
        ("The claim that metformin reduces glucose is overstated.", Overstated.DOUBTED),
        ("Metformin reduces glucose, said the manufacturer.", Overstated.HEDGE),
        ("Metformin reduced glucose in observational studies but not in randomised trials.",
         Overstated.CONDITION),
        ("Evidence that metformin reduces glucose is strong.", None),
        ("Metformin reduced glucose in patients lacking Lyn.", None),
    ],
    ids=["flawed", "objective-was-to-show", "evidence-weak", "evidence-conflicting",
         "controversial", "overstated", "said", "in-one-scope-not-in-another",
         "evidence-strong", "lacking-is-no-doubt"],
)  # fmt: skip
def test_doubted_reported_or_scoped_findings_are_no_yes(
    evidence: str, rule: Overstated | None
) -> None:
    assert overstates("Metformin reduces glucose.", [evidence]) is rule


def test_a_scope_the_claim_names_keeps_the_yes() -> None:
    evidence = ["Orlistat reduced body weight at 6 weeks but not at 12 months."]
    assert overstates("Orlistat reduces body weight at 6 weeks.", evidence) is None
    assert overstates("Orlistat reduces body weight.", evidence) is Overstated.CONDITION


@pytest.mark.parametrize(
    ("claim", "evidence", "rule"),
    [
        ("Metformin reduces glucose by 20%.", "Metformin reduced glucose by at least 20%.",
         Overstated.EXACT),
        ("Metformin reduces glucose by 50%.", "Metformin reduced glucose by nearly 50%.",
         Overstated.EXACT),
        ("Metformin reduces glucose by 30%.", "Metformin reduced glucose by 20-30%.",
         Overstated.EXACT),
        ("Metformin dramatically reduces glucose.", "Metformin reduced glucose.",
         Overstated.EXACT),
        ("Metformin reduces glucose.", "Metformin markedly reduced glucose.", None),
        ("Metformin markedly reduces glucose.", "Metformin markedly reduced glucose.", None),
        ("Metformin reduces glucose by 30%.", "Metformin reduced glucose from 40 to 30%.",
         Overstated.EXACT),
        ("Metformin reduces glucose.", "Metformin and exercise together reduced glucose.",
         Overstated.CONDITION),
        ("Metformin reduces glucose.", "The combination of metformin and exercise reduced glucose.",
         Overstated.CONDITION),
        ("Metformin reduces glucose.", "Metformin reduced glucose as much as placebo did.",
         Overstated.DROPPED),
        ("Metformin reduces glucose.", "Metformin reduced glucose to the same extent as placebo.",
         Overstated.DROPPED),
        ("Metformin reduces glucose.",
         "Metformin was as effective as placebo in reducing glucose.", Overstated.DROPPED),
        ("Metformin reduces glucose.", "Metformin and placebo reduced glucose comparably.",
         Overstated.DROPPED),
        ("Metformin reduces glucose.", "Metformin, like placebo, reduced glucose.",
         Overstated.DROPPED),
        ("Metformin reduces glucose.", "Both metformin and placebo reduced glucose.",
         Overstated.DROPPED),
        ("Metformin reduces glucose.", "Metformin reduced glucose; placebo did too.",
         Overstated.DROPPED),
        ("Metformin reduces glucose.", "Metformin was less effective than placebo at reducing "
         "glucose.", Overstated.DROPPED),
        ("Metformin reduces glucose.", "Metformin reduced glucose less than placebo did.",
         Overstated.DROPPED),
        ("Metformin reduces weight gain.", "Metformin caused less weight gain than placebo.",
         None),
        ("Metformin reduces glucose.", "Metformin reduced glucose more than placebo.", None),
        ("Metformin reduces glucose by 30%.", "Metformin reduced glucose by 30%.", None),
        ("Neutrophil traps contain PR3 and MPO.",
         "Neutrophil traps contain proteinase-3 (PR3) and MPO.", None),
        ("Metformin reduces glucose and weight.", "Metformin reduced glucose as well as weight.",
         None),
    ],
    ids=["at-least", "nearly", "range", "dramatically-unsaid", "markedly-said-only",
         "markedly-both", "from-to-is-a-change", "and-together",
         "combination-of", "as-much-as-placebo", "same-extent-as-placebo",
         "as-effective-as-placebo",
         "placebo-comparably", "like-placebo", "both-and-placebo", "placebo-did-too",
         "less-effective-than-placebo", "less-than-placebo", "less-of-the-outcome",
         "more-than-placebo", "exact-figure", "a-name-is-no-range", "as-well-as-is-and"],
)  # fmt: skip
def test_bounds_partners_and_controls_that_did_alike(
    claim: str, evidence: str, rule: Overstated | None
) -> None:
    assert overstates(claim, [evidence]) is rule


def test_a_turned_around_rise_caused_by_another_is_no_no() -> None:
    sentence = "Metformin reversed the steroid-induced rise in glucose."
    assert overstated_no("Metformin reduces glucose.", sentence) is Overstated.DIRECTION


@pytest.mark.parametrize(
    ("evidence", "rule"),
    [
        ("Statins rarely reduced stroke.", Overstated.PARTIAL),
        ("Statins sometimes reduced stroke.", Overstated.PARTIAL),
        ("Statins inconsistently reduced stroke.", Overstated.PARTIAL),
        ("Statins reduced stroke negligibly.", Overstated.NOT_SIGNIFICANT),
        ("Statins reduced stroke by a trivial amount.", Overstated.NOT_SIGNIFICANT),
        ("Statins numerically reduced stroke.", Overstated.NOT_SIGNIFICANT),
        ("Statins reduced stroke, but the confidence interval included no effect.",
         Overstated.TAKEN_BACK),
        ("Statins reduced stroke; the 95% CI crossed one.", Overstated.NOT_SIGNIFICANT),
        ("Statins reduced stroke (95% CI 0.70 to 0.90).", None),
        ("Statins reduced stroke.", None),
    ],
    ids=["rarely", "sometimes", "inconsistently", "negligibly", "trivial", "numerically",
         "interval-included-no-effect", "ci-crossed-one", "interval-below-one", "control"],
)  # fmt: skip
def test_now_and_then_negligible_or_by_number_alone_is_no_yes(
    evidence: str, rule: Overstated | None
) -> None:
    assert overstates("Statins reduce stroke.", [evidence]) is rule


@pytest.mark.parametrize(
    ("evidence", "rule"),
    [
        ("Metformin and sitagliptin reduced weight and glucose, respectively.",
         Overstated.OTHER_CLAUSE),
        ("Sitagliptin added to metformin reduced glucose.", Overstated.SET_ASIDE),
        ("Sitagliptin on top of metformin reduced glucose.", Overstated.SET_ASIDE),
        ("Sitagliptin, with background metformin, reduced glucose.", Overstated.SET_ASIDE),
        ("Switching from metformin to sitagliptin reduced glucose.", Overstated.SET_ASIDE),
        ("Replacing metformin with sitagliptin reduced glucose.", Overstated.SET_ASIDE),
        ("After metformin failure, sitagliptin reduced glucose.", Overstated.LOST),
        ("In metformin non-responders, sitagliptin reduced glucose.", Overstated.LOST),
        ("BACKGROUND Metformin reduced glucose.", None),
        ("Metformin reduced glucose.", None),
    ],
    ids=["respectively", "added-to", "on-top-of", "with-background", "switching-from",
         "replacing", "after-failure", "non-responders", "section-label", "control"],
)  # fmt: skip
def test_what_was_there_already_is_not_what_acts(evidence: str, rule: Overstated | None) -> None:
    assert overstates("Metformin reduces glucose.", [evidence]) is rule


@pytest.mark.parametrize(
    ("claim", "evidence", "rule"),
    [
        ("Exercise reduces blood pressure by inhibiting renin.",
         ["Exercise reduced blood pressure.", "Exercise inhibited renin."],
         Overstated.OTHER_CLAUSE),
        ("Exercise reduces blood pressure by inhibiting renin.",
         ["Exercise reduced blood pressure by inhibiting renin."], None),
        ("Metformin lowers glucose via AMPK.", ["Metformin lowered glucose via AMPK activation."],
         None),
        ("Metformin lowers glucose via AMPK.",
         ["Metformin lowered glucose.", "Metformin activated AMPK."], Overstated.OTHER_CLAUSE),
    ],
    ids=["change-and-means-apart", "means-with-the-change", "via-with-the-change",
         "via-apart"],
)  # fmt: skip
def test_a_claim_of_how_needs_the_means_with_the_change(
    claim: str, evidence: list[str], rule: Overstated | None
) -> None:
    assert overstates(claim, evidence) is rule


def test_a_no_about_something_the_claim_does_not_change_is_withheld() -> None:
    assert overstated_no("Metformin lowers glucose via AMPK.", "Metformin activated AMPK.") is (
        Overstated.OTHER_CLAUSE
    )
    assert overstated_no("Metformin lowers glucose.", "Metformin raised glucose.") is None
    # A passive claim names what changes before its direction word.
    sentence = "Pregnant women had elevated sympathetic nerve activity."
    assert overstated_no("Sympathetic nerve activity is reduced in pregnancy.", sentence) is None


@pytest.mark.parametrize(
    ("evidence", "rule"),
    [
        ("Metformin reduced glucose, and weight fell in controls.", Overstated.OTHER_CLAUSE),
        ("Metformin reduced glucose; weight fell with placebo.", Overstated.OTHER_CLAUSE),
        ("Metformin reduced glucose, and metformin reduced weight.", None),
        ("Metformin reduced glucose and weight compared with controls.", None),
    ],
    ids=["and-in-controls", "with-placebo", "both-by-the-actor", "compared-with-controls"],
)  # fmt: skip
def test_a_word_said_only_of_the_control_is_no_yes(evidence: str, rule: Overstated | None) -> None:
    assert overstates("Metformin reduces glucose and weight.", [evidence]) is rule


@pytest.mark.parametrize(
    ("evidence", "rule"),
    [
        ("Metformin reduced glucose (but not in mice).", Overstated.CONDITION),
        ("Metformin reduced glucose as long as it was taken daily.", Overstated.CONDITION),
        ("Metformin reduced glucose when taken at night.", Overstated.CONDITION),
        ("Metformin reduced glucose in those who also exercised.", Overstated.CONDITION),
        ("Metformin reduced glucose in two of three studies.", Overstated.PARTIAL),
        ("Metformin reduced glucose in half of the studies.", Overstated.PARTIAL),
        ("Metformin reduced glucose when taken together with the other findings.", None),
        ("Metformin reduced glucose in three of three studies.", None),
    ],
    ids=["but-not-in-mice", "as-long-as", "when-taken", "in-those-who", "two-of-three",
         "half-of", "when-taken-together", "three-of-three"],
)  # fmt: skip
def test_a_condition_or_a_part_anywhere_in_the_sentence(
    evidence: str, rule: Overstated | None
) -> None:
    assert overstates("Metformin reduces glucose.", [evidence]) is rule


@pytest.mark.parametrize(
    "evidence",
    [
        "We speculate that metformin reduces cancer.",
        "We propose that metformin reduces cancer.",
        "We suspect that metformin reduces cancer.",
        "Our model predicts that metformin reduces cancer.",
        "It is plausible that metformin reduces cancer.",
        "It is tempting to conclude that metformin reduces cancer.",
        "We expect metformin to reduce cancer.",
        "Metformin reduces cancer, we argue.",
        "Metformin is a promising candidate for reducing cancer.",
        "Metformin is being tested for reducing cancer.",
        "Preliminary data indicate that metformin reduces cancer.",
    ],
    ids=["speculate", "propose", "suspect", "model-predicts", "plausible", "tempting",
         "expect", "we-argue", "candidate-for-reducing", "tested-for-reducing", "preliminary"],
)  # fmt: skip
def test_what_the_authors_only_think_is_no_finding(evidence: str) -> None:
    assert overstates("Metformin reduces cancer.", [evidence]) is Overstated.HEDGE


@pytest.mark.parametrize(
    "evidence",
    ["We conclude that metformin reduces cancer.", "We show that metformin reduces cancer."],
    ids=["conclude", "show"],
)
def test_what_the_authors_conclude_or_show_stays_a_finding(evidence: str) -> None:
    assert overstates("Metformin reduces cancer.", [evidence]) is None


@pytest.mark.parametrize(
    ("evidence", "rule"),
    [
        ("Metformin did not reduce weight until week 12.", Overstated.QUALITY),
        ("Metformin did not reduce weight alone.", Overstated.QUALITY),
        ("Weight was not reduced by placebo but by metformin.", Overstated.OTHER_CLAUSE),
        ("Metformin did not reduce weight.", None),
    ],
    ids=["not-until", "not-alone", "not-by-placebo-but-by", "a-firm-denial"],
)  # fmt: skip
def test_a_yes_to_a_denial_needs_a_firm_no(evidence: str, rule: Overstated | None) -> None:
    assert overstates("Metformin does not reduce weight.", [evidence]) is rule

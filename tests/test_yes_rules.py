"""What a yes must keep: each rule names the way a claim says more than its evidence."""

from __future__ import annotations

import pytest

from engine.core.stance import Overstated
from engine.review.yes_clauses import denied_elsewhere
from engine.review.yes_rules import overstates

TRUVADA = "A two-dose regimen initiated 2 hours before exposure was effective."
UCP = "Augmented expression of UCPs may provide defense against obesity."
LDL = "The increase suggests that LDL receptors play a role in the reduction of Lp(a)."
SOME = "Some cells differentiated from iPSCs can induce an immune response."
TRIALS = "One in five surgical randomised controlled trials are discontinued early."
AIM = "We tested whether infusions of nitrite prevent vasospasm."
CNS = "Disease is correlated with an increase in T cells and enhanced infiltration into the CNS."
MEN = "Recall was better in men than in women."
ROLES = "Overexpression in neuroblastoma cells increases FM1-43 uptake."
COFFEE = (
    "Coffee intake was associated with lower mortality, but the association disappeared "
    "after adjustment for smoking."
)
PLACEBO = "Aspirin reduced recurrent stroke, but so did placebo."


@pytest.mark.parametrize(
    ("claim", "evidence", "rule"),
    [
        (TRUVADA.replace("2 hours", "2 days"), TRUVADA, Overstated.UNIT),
        (UCP.replace("may provide", "provides"), UCP, Overstated.HEDGE),
        (LDL.replace("suggests", "shows"), LDL, Overstated.HEDGE),
        (SOME.replace("Some", "All"), SOME, Overstated.EXACT),
        (TRIALS.replace("five", "two"), TRIALS, Overstated.EXACT),
        (AIM.replace("tested whether", "found that"), AIM, Overstated.CONDITION),
        (CNS.replace("enhanced", "impaired"), CNS, Overstated.DIRECTION),
        ("Recall was better in women than in men.", MEN, Overstated.SIDES),
        (ROLES.replace("cells increases FM1-43", "FM1-43 increases cells"), ROLES,
         Overstated.ORDER),
        ("Coffee intake was associated with lower mortality.", COFFEE, Overstated.TAKEN_BACK),
        ("Aspirin reduced recurrent stroke.", PLACEBO, Overstated.TAKEN_BACK),
    ],
    ids=["unit", "hedge-may", "hedge-suggest", "quantifier", "number-word", "aim",
         "direction", "sides", "order", "association-taken-back", "placebo-did-so"],
)  # fmt: skip
def test_a_claim_that_says_more_names_the_rule(claim: str, evidence: str, rule: str) -> None:
    assert overstates(claim, [evidence]) is rule


@pytest.mark.parametrize(
    "evidence",
    [TRUVADA, UCP, LDL, SOME, TRIALS, AIM, CNS, MEN, ROLES, COFFEE, PLACEBO],
    ids=["unit", "hedge-may", "hedge-suggest", "quantifier", "number-word", "aim",
         "direction", "sides", "order", "association-taken-back", "placebo-did-so"],
)  # fmt: skip
def test_the_sentence_itself_says_no_more_than_itself(evidence: str) -> None:
    assert overstates(evidence, [evidence]) is None


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("Active caspase-11 protein promotes pyroptosis.",
         "Active caspase-11 protein directly promotes pyroptosis in macrophages."),
        ("PD-1 triggering enhances IL-10 production.",
         "PD-1 triggering strongly enhances IL-10 production by monocytes."),
        ("Inhibition of HDAC6 increased the survival of mice.",
         "Inhibition of HDAC6 activity significantly increased the survival of mice."),
    ],
    ids=["number-in-a-name", "two-names-with-numbers", "a-name-with-a-digit"],
)  # fmt: skip
def test_a_number_inside_a_name_is_no_figure_with_a_unit(claim: str, evidence: str) -> None:
    assert overstates(claim, [evidence]) is None


def test_a_hedged_neighbour_cited_beside_the_sentence_hedges_nothing() -> None:
    stated = "Inhibition of mTORC1 restored autophagy in aged muscle."
    neighbour = "This pathway may offer a target for treating sarcopenia."
    assert overstates(stated, [stated, neighbour]) is None
    # The hedge of the sentence the claim restates still counts.
    assert overstates(stated, [stated.replace("restored", "may restore"), neighbour]) is not None


@pytest.mark.parametrize(
    ("claim", "evidence", "rule"),
    [
        ("The signal skips the most recent month.",
         "The signal leaves out the most recent month of returns.", None),
        ("Most patients recovered within a week.",
         "Some patients recovered within a week.", Overstated.EXACT),
        ("The signal skips the recent month.",
         "The signal skips the most recent month.", None),
    ],
    ids=["superlative-kept", "quantity-changed", "superlative-dropped"],
)  # fmt: skip
def test_the_most_of_a_superlative_is_no_quantity(
    claim: str, evidence: str, rule: Overstated | None
) -> None:
    assert overstates(claim, [evidence]) is rule


@pytest.mark.parametrize(
    ("claim", "evidence", "rule"),
    [
        ("Thermogenesis in beige fat is UCP1-dependent.",
         "A robust UCP1-independent thermogenic mechanism in beige fat involves ATP-dependent "
         "Ca2+ cycling.", Overstated.UNMARKED),
        ("Beige fat thermogenesis is UCP1-independent.",
         "Beige fat thermogenesis is UCP1-dependent.", Overstated.NEGATION),
        ("Phosphorylation of HDAC4 leads to its nuclear accumulation.",
         "Dephosphorylation of HDAC4 leads to its nuclear accumulation.", Overstated.UNMARKED),
        ("The drug causes hyperglycemia in mice.", "The drug causes hypoglycemia in mice.",
         Overstated.DIRECTION),
        ("IL-6 has pro-inflammatory effects.", "IL-6 has anti-inflammatory effects.",
         Overstated.DIRECTION),
        ("Maturation was Skint-1-independent, but Aire-independent.",
         "Maturation was Skint-1-dependent, but Aire-independent.", Overstated.NEGATION),
        ("Sodium intake is associated with stroke.",
         "Sodium intake is associated with stroke in older adults.", None),
    ],
    ids=["independent-dropped", "independent-added", "de-dropped", "hyper-for-hypo",
         "pro-for-anti", "both-said-counted", "no-prefix-moved"],
)  # fmt: skip
def test_a_prefix_that_turns_a_word_around_is_kept(
    claim: str, evidence: str, rule: Overstated | None
) -> None:
    assert overstates(claim, [evidence]) is rule


@pytest.mark.parametrize(
    ("claim", "evidence", "rule"),
    [
        ("Vitamin D reduced fractures in children.", "Vitamin D reduced fractures in adults.",
         Overstated.SWAPPED),
        ("X is necessary for T cell activation.", "X is sufficient for T cell activation.",
         Overstated.SWAPPED),
        ("Obesity is a cause of diabetes.", "Obesity is a consequence of diabetes.",
         Overstated.SWAPPED),
        ("Deaths were 3% of female deaths and 12% of male deaths.",
         "Deaths were 3% of male deaths and 12% of male deaths.", Overstated.SWAPPED),
        ("One in five randomized trials are discontinued early.",
         "One in five randomised trials are discontinued early.", None),
        ("CLEC-2 promotes motility in dendritic cells.", "CLEC-2 promotes motility in DCs.",
         None),
        ("Smoking is associated with stroke.", "Smoking is linked with stroke.", None),
        ("Low birth weight accounts for 40% of deaths.",
         "Low birth weight accounted for 40% of deaths.", None),
    ],
    ids=["group", "degree", "cause-for-consequence", "both-said-counted", "spelt-two-ways",
         "abbreviated", "one-link-for-another", "another-form"],
)  # fmt: skip
def test_a_word_put_out_for_another_in_its_slot_is_no_yes(
    claim: str, evidence: str, rule: Overstated | None
) -> None:
    assert overstates(claim, [evidence]) is rule


@pytest.mark.parametrize(
    ("claim", "evidence", "rule"),
    [
        ("Gliptin decreases risk of kidney failure.",
         "Insulin decreased the risk of kidney failure in adults.", Overstated.AGENT),
        ("The C-type lectin receptor (CLEC-2) rearranges the actin cytoskeleton.",
         "Activation of CLEC-2 by PDPN rearranges the actin cytoskeleton.", None),
        ("Increased risk of kidney failure is seen with gliptins.",
         "Increased risk of kidney failure is seen with gliptins in adults.", None),
    ],
    ids=["another-actor", "actor-in-words-of-its-own", "opens-on-its-relation"],
)  # fmt: skip
def test_a_yes_names_the_actor_the_claim_names(
    claim: str, evidence: str, rule: Overstated | None
) -> None:
    assert overstates(claim, [evidence]) is rule


@pytest.mark.parametrize(
    ("claim", "evidence", "rule"),
    [
        ("Aspirin lowers the incidence of colorectal adenoma.",
         "Metformin, unlike aspirin, lowered the incidence of colorectal adenoma.",
         Overstated.SET_ASIDE),
        ("Diet alone lowers fasting glucose.",
         "Exercise lowered fasting glucose compared with diet alone.", Overstated.SET_ASIDE),
        ("Caffeine impairs working memory in students.",
         "Sleep deprivation, rather than caffeine, impaired working memory in students.",
         Overstated.SET_ASIDE),
        ("Aspirin reduced mortality.", "Compared with placebo, aspirin reduced mortality.", None),
        ("Metformin lowers the incidence of colorectal adenoma.",
         "Metformin, unlike aspirin, lowered the incidence of colorectal adenoma.", None),
        ("Aspirin reduced mortality.",
         "Aspirin reduced mortality more than placebo, and aspirin also reduced stroke.", None),
    ],
    ids=["unlike", "compared-with", "rather-than", "comparison-before-the-actor",
         "the-actor-itself", "named-outside-the-comparison-too"],
)  # fmt: skip
def test_an_actor_named_only_as_the_other_side_is_no_yes(
    claim: str, evidence: str, rule: Overstated | None
) -> None:
    assert overstates(claim, [evidence]) is rule


@pytest.mark.parametrize(
    ("claim", "evidence", "rule"),
    [
        ("Vitamin D reduces falls in nursing home residents.",
         "Vitamin D reduced falls in nursing home residents (P = .34).",
         Overstated.NOT_SIGNIFICANT),
        ("Statin use lowers the risk of stroke.",
         "Statin use lowered the risk of stroke (hazard ratio, 0.91; 95% CI, 0.78-1.06).",
         Overstated.NOT_SIGNIFICANT),
        ("High-dose alcohol reduces cardiac mortality.",
         "Low-dose alcohol reduced cardiac mortality, whereas high-dose alcohol increased "
         "cardiac mortality.", Overstated.OTHER_CLAUSE),
        ("Orlistat reduces body weight at 12 months.",
         "Orlistat reduced body weight at 6 weeks but not at 12 months.", Overstated.SET_ASIDE),
        ("Metformin reduces cardiovascular events in patients with kidney disease.",
         "Metformin reduced cardiovascular events in patients without kidney disease.",
         Overstated.SET_ASIDE),
        ("Ezetimibe reduces coronary events.",
         "With the exception of ezetimibe, all lipid drugs reduced coronary events.",
         Overstated.SET_ASIDE),
        ("Homeopathy improves symptoms.", "Homeopathy improved symptoms no more than placebo.",
         Overstated.DROPPED),
        ("A sugar tax reduces obesity prevalence.",
         "Our model predicts that a sugar tax would reduce obesity prevalence.",
         Overstated.HEDGE),
        ("Aspirin reduces mortality.",
         "Aspirin reduced mortality (RR 0.8, 95% CI 0.7-0.9, P < .001).", None),
        ("Low-dose alcohol reduces cardiac mortality.",
         "Low-dose alcohol reduced cardiac mortality, whereas high-dose alcohol increased "
         "cardiac mortality.", None),
        ("Orlistat reduces body weight at 6 weeks.",
         "Orlistat reduced body weight at 6 weeks but not at 12 months.", None),
        ("HPV testing has higher sensitivity.",
         "HPV testing picks up more quickly, with higher sensitivity and not lower "
         "specificity, recurrent CIN.", None),
    ],
    ids=["p-value", "ratio-interval", "other-clause", "but-not", "without", "exception-of",
         "no-more-than", "would", "significant-control", "own-clause-control",
         "outside-but-not-control", "not-lower-is-no-comparison"],
)  # fmt: skip
def test_what_the_sentence_bounds_sets_aside_or_finds_insignificant_is_no_yes(
    claim: str, evidence: str, rule: Overstated | None
) -> None:
    assert overstates(claim, [evidence]) is rule


RIBAVIRIN = "Ribavirin alone did not clear hepatitis C, but ribavirin plus interferon did."
DEMENTIA = (
    "Incidence for 10/66 dementia varied between 18 and 30 per 1000 person-years, and were "
    "1.4-2.7 times higher than were those for DSM-IV dementia."
)


@pytest.mark.parametrize(
    ("claim", "sentence", "elsewhere"),
    [
        ("Ribavirin plus interferon clears hepatitis C.", RIBAVIRIN, True),
        ("Ribavirin alone clears hepatitis C.", RIBAVIRIN, False),
        ("Incidence of 10/66 dementia is lower than that of DSM-IV dementia.", DEMENTIA, False),
        ("Aspirin reduces stroke.", "Aspirin did not reduce stroke.", False),
    ],
    ids=["no-said-of-another-subject", "no-said-of-this-subject", "second-verb-of-one-subject",
         "one-clause"],
)  # fmt: skip
def test_a_no_read_off_a_clause_about_something_else_is_found(
    claim: str, sentence: str, elsewhere: bool
) -> None:
    assert denied_elsewhere(claim, sentence) is elsewhere


@pytest.mark.parametrize(
    ("claim", "evidence", "rule"),
    [
        ("Depression predicts later chronic pain in adolescents.",
         "Chronic pain predicted later depression in adolescents.", Overstated.ORDER),
        ("Chronic pain predicts later depression in adolescents.",
         "Chronic pain predicted later depression in adolescents.", None),
        ("Chronic pain predicts later depression in adolescents.",
         "Later depression was predicted by chronic pain in adolescents.", None),
    ],
    ids=["roles-turned-around", "same-order-other-form", "passive"],
)  # fmt: skip
def test_a_relation_word_in_another_form_still_keeps_the_order(
    claim: str, evidence: str, rule: Overstated | None
) -> None:
    assert overstates(claim, [evidence]) is rule


@pytest.mark.parametrize(
    ("claim", "evidence", "rule"),
    [
        ("SIRT1 increases hepatic steatosis in mice.",
         "SIRT1 deficiency increased hepatic steatosis in mice.", Overstated.LOST),
        ("FOXO3 reduces neuronal apoptosis.", "Knockdown of FOXO3 reduced neuronal apoptosis.",
         Overstated.LOST),
        ("Combination therapy led to tumour growth.",
         "Combination therapy led to inhibition of tumour growth.", Overstated.LOST),
        ("SIRT1 deficiency increases hepatic steatosis in mice.",
         "SIRT1 deficiency increased hepatic steatosis in mice.", None),
        ("GATA3 regulates the number of stem cells.",
         "Gata3 knockout cells had fewer stem cells.", None),
        ("Proteinuria follows uPAR signalling.",
         "uPAR signalling leads to urinary protein loss.", None),
    ],
    ids=["deficiency", "knockdown-of", "object-inhibited", "claim-keeps-the-loss",
         "a-link-shown-by-a-knockout", "another-word"],
)  # fmt: skip
def test_what_the_sentence_speaks_of_as_lost_is_no_yes_of_it_present(
    claim: str, evidence: str, rule: Overstated | None
) -> None:
    assert overstates(claim, [evidence]) is rule


@pytest.mark.parametrize(
    ("claim", "evidence", "rule"),
    [
        ("Patients improve after statin therapy.",
         "Some patients improved after statin therapy.", Overstated.PARTIAL),
        ("Omega-3 fatty acids reduce depressive symptoms.",
         "Omega-3 fatty acids are thought to reduce depressive symptoms.", Overstated.HEDGE),
        ("Some patients improve after statin therapy.",
         "Some patients improved after statin therapy.", None),
        ("Rapamycin extends life span in adult Drosophila.",
         "Rapamycin extends life span in adult Drosophila, as seen in some TOR mutants.",
         None),
    ],
    ids=["some-of-the-actor", "thought-to", "claim-keeps-some", "some-of-another-thing"],
)  # fmt: skip
def test_a_yes_keeps_a_partial_quantifier_and_a_hedge_of_belief(
    claim: str, evidence: str, rule: Overstated | None
) -> None:
    assert overstates(claim, [evidence]) is rule


METFORMIN = "Metformin increased insulin sensitivity but decreased body weight."
SURGERY = "Surgery was superior to physiotherapy for pain but inferior for function."
ZOSTER = "Zoster vaccine reduced shingles incidence in adults over 70 years."


@pytest.mark.parametrize(
    ("claim", "evidence", "rule"),
    [
        ("Metformin increases body weight.", METFORMIN, Overstated.DIRECTION),
        ("Metformin increases insulin sensitivity.", METFORMIN, None),
        ("Surgery is superior to physiotherapy for function.", SURGERY, Overstated.DIRECTION),
        ("Surgery is superior to physiotherapy for pain.", SURGERY, None),
        ("Zoster vaccine reduces shingles incidence in adults under 70 years.", ZOSTER,
         Overstated.EXACT),
        ("Zoster vaccine reduces shingles incidence in adults over 70 years.", ZOSTER, None),
        ("Zoster vaccine reduces shingles incidence in adults younger than 70 years.",
         ZOSTER.replace("over", "older than"), Overstated.EXACT),
    ],
    ids=["decreased-object", "increased-object", "inferior-for", "superior-for",
         "under-for-over", "over-kept", "younger-than-for-older-than"],
)  # fmt: skip
def test_a_yes_keeps_the_direction_said_of_its_object_and_the_side_a_number_is_bound(
    claim: str, evidence: str, rule: Overstated | None
) -> None:
    assert overstates(claim, [evidence]) is rule


@pytest.mark.parametrize(
    ("claim", "evidence", "rule"),
    [
        ("Ezetimibe reduces LDL cholesterol.",
         "Ezetimibe, when combined with simvastatin, reduced LDL cholesterol.",
         Overstated.CONDITION),
        ("Ezetimibe combined with simvastatin reduces LDL cholesterol.",
         "Ezetimibe, when combined with simvastatin, reduced LDL cholesterol.", None),
        ("N348I decreases susceptibility to nevirapine.",
         "N348I decreased susceptibility to nevirapine and potentiated resistance to these "
         "drugs when combined with K103N.", None),
    ],
    ids=["partner-left-out", "partner-named", "partner-of-another-finding"],
)  # fmt: skip
def test_a_yes_keeps_the_partner_what_acts_was_combined_with(
    claim: str, evidence: str, rule: Overstated | None
) -> None:
    assert overstates(claim, [evidence]) is rule


@pytest.mark.parametrize(
    ("claim", "evidence", "rule"),
    [
        ("Naloxone increases respiratory depression.",
         "Naloxone reversed the increase in respiratory depression caused by fentanyl.",
         Overstated.DIRECTION),
        ("Fentanyl increases respiratory depression.",
         "Fentanyl caused an increase in respiratory depression.", None),
        ("Metformin causes loss of bone density.",
         "Metformin protects against the loss of bone density in older women.",
         Overstated.DIRECTION),
        ("Metformin causes weight gain.", "Metformin prevented weight gain in obese adults.",
         Overstated.DIRECTION),
        ("Metformin causes memory loss.", "Metformin rescued memory loss in aged mice.",
         Overstated.DIRECTION),
        ("Metformin prevents weight gain.", "Metformin prevented weight gain in obese adults.",
         None),
        ("Metformin reduces weight.", "In trials at low risk of bias, metformin reduced weight.",
         None),
        ("Metformin causes decline in lung function.",
         "Metformin averted the expected decline in lung function.", Overstated.DIRECTION),
        ("Metformin causes decline in glucose.",
         "Metformin caused the expected decline in glucose.", None),
        ("Metformin causes weight gain.", "Metformin stopped the expected weight gain.",
         Overstated.DIRECTION),
        ("Metformin causes weight gain.", "Metformin caused the expected weight gain.", None),
    ],
    ids=["reversed-the-increase", "caused-an-increase", "protects-against-the-loss",
         "prevented-weight-gain", "rescued-memory-loss", "prevents-what-it-prevented",
         "verb-after-a-withdrawing-word", "averted-the-expected-decline",
         "caused-the-expected-decline", "stopped-the-expected-weight-gain",
         "caused-the-expected-weight-gain"],
)  # fmt: skip
def test_a_direction_the_sentence_turns_around_is_no_yes(
    claim: str, evidence: str, rule: Overstated | None
) -> None:
    assert overstates(claim, [evidence]) is rule


INSULIN = "In the absence of insulin, glucagon increased hepatic glucose output."
ADHERED = "Calcium reduced hip fractures among participants who adhered to treatment."


@pytest.mark.parametrize(
    ("claim", "evidence", "rule"),
    [
        ("Glucagon increases hepatic glucose output.", INSULIN, Overstated.CONDITION),
        ("In the absence of insulin, glucagon increases hepatic glucose output.", INSULIN,
         None),
        ("ERAAP degrades antigenic precursors in the ER.",
         "In the absence of MHC I, ERAAP degraded the antigenic precursors in the ER.",
         Overstated.CONDITION),
        ("Glucagon increases hepatic glucose output.",
         "Glucagon increased hepatic glucose output in the absence of insulin.",
         Overstated.CONDITION),
        ("Zinc fingers bind DNA.", "Zinc fingers bind DNA in the presence of zinc.", None),
        ("Metformin reduces HbA1c.", "In patients with type 2 diabetes, metformin reduced HbA1c.",
         None),
        ("Calcium reduces hip fractures.", ADHERED, Overstated.CONDITION),
        ("Calcium reduces hip fractures among those who adhered.", ADHERED, None),
        ("Calcium reduces hip fractures.",
         "In a per-protocol analysis, calcium reduced hip fractures.", Overstated.CONDITION),
    ],
    ids=["condition-left-out", "condition-kept", "absence-of-a-molecule", "condition-after",
         "condition-named-elsewhere",
         "a-population-is-no-condition", "adherers-left-out", "adherence-named", "per-protocol"],
)  # fmt: skip
def test_a_yes_keeps_the_condition_or_the_subset_a_finding_holds_under(
    claim: str, evidence: str, rule: Overstated | None
) -> None:
    assert overstates(claim, [evidence]) is rule


@pytest.mark.parametrize(
    ("claim", "evidence", "rule"),
    [
        ("Lithium reduces suicide attempts.",
         "Lithium reduced suicide attempts, although the difference did not reach statistical "
         "significance.", Overstated.TAKEN_BACK),
        ("Omeprazole reduces ulcer bleeding.", "Omeprazole reduced ulcer bleeding, as did placebo.",
         Overstated.TAKEN_BACK),
        ("Lean mass increases.", "Lean mass increased, as did insulin.", None),
        ("Vitamin A reduces child mortality.",
         "Vitamin A reduced child mortality in early trials, a finding not replicated later.",
         Overstated.TAKEN_BACK),
        ("Vitamin A reduces child mortality.",
         "Vitamin A reduced child mortality in early trials, a finding replicated later.", None),
        ("Aspirin lowers stroke risk in men.",
         "Aspirin lowered stroke risk in men, an effect not seen in women.", None),
        ("Salt restriction reduces blood pressure.",
         "The reduction in blood pressure with salt restriction was not sustained.",
         Overstated.TAKEN_BACK),
        ("Recently it has become evident that macrophages originate during development.",
         "Recently, it has become evident that macrophages originate during development and "
         "not from monocytes.", None),
    ],
    ids=["although-not-significant", "as-did-placebo", "as-did-another-outcome",
         "not-replicated", "replicated", "not-seen-elsewhere", "not-sustained",
         "fronted-adverb"],
)  # fmt: skip
def test_a_later_piece_past_a_comma_can_take_the_finding_back(
    claim: str, evidence: str, rule: Overstated | None
) -> None:
    assert overstates(claim, [evidence]) is rule


@pytest.mark.parametrize(
    ("claim", "evidence", "rule"),
    [
        ("Exercise reduces fatigue.", "Exercise was expected to reduce fatigue.", Overstated.HEDGE),
        ("Caffeine improves reaction time.", "Caffeine appeared to improve reaction time.",
         Overstated.HEDGE),
        ("Metformin reduces body weight.", "Metformin tended to reduce body weight.",
         Overstated.HEDGE),
        ("Probiotics reduce diarrhoea.", "Probiotics marginally reduced diarrhoea.",
         Overstated.HEDGE),
        ("Rashes appear in treated mice.", "Rashes appeared in treated mice.", None),
        ("Metformin reduces weight.", "We expected metformin to reduce weight.",
         Overstated.HEDGE),
        ("Metformin reduces weight.", "We predicted the drug metformin to reduce weight.",
         Overstated.HEDGE),
        ("Metformin reduces weight.", "As expected, metformin reduced weight to 80 kg.", None),
        ("Metformin reduces weight.", "Metformin was ineffective in reducing weight.",
         Overstated.DROPPED),
        ("Metformin reduces weight.", "Metformin was insufficient to reduce weight.",
         Overstated.DROPPED),
        ("Metformin reduces weight.", "Metformin was effective in reducing weight.", None),
    ],
    ids=["expected-to", "appeared-to", "tended", "marginally", "appeared-in",
         "expected-it-to", "predicted-it-to", "as-expected", "ineffective-in",
         "insufficient-to", "effective-in"],
)  # fmt: skip
def test_a_hedge_of_appearance_or_expectation_is_kept(
    claim: str, evidence: str, rule: Overstated | None
) -> None:
    assert overstates(claim, [evidence]) is rule


def test_a_difference_denied_against_placebo_is_no_yes() -> None:
    evidence = ["Fish oil lowered triglycerides relative to baseline but not relative to placebo."]
    assert overstates("Fish oil lowers triglycerides.", evidence) is Overstated.DROPPED
    assert overstates("Fish oil lowers triglycerides.", [evidence[0].split(" but")[0]]) is None


@pytest.mark.parametrize(
    ("evidence", "rule"),
    [
        ("In a post hoc analysis, spironolactone reduced hospitalisation.", Overstated.CONDITION),
        ("At high doses, spironolactone reduced hospitalisation.", Overstated.CONDITION),
        ("In the highest-dose group, spironolactone reduced hospitalisation.",
         Overstated.CONDITION),
        ("When given early, spironolactone reduced hospitalisation.", Overstated.CONDITION),
        ("Under hypoxic conditions, spironolactone reduced hospitalisation.",
         Overstated.CONDITION),
        ("When compared with placebo, spironolactone reduced hospitalisation.", None),
        ("Taken together, spironolactone reduced hospitalisation.", None),
        ("In patients with heart failure, spironolactone reduced hospitalisation.", None),
        ("Spironolactone reduced hospitalisation in proportion to the dose, in all centres.",
         None),
    ],
    ids=["post-hoc", "dose", "dose-group", "timing", "state", "comparison", "taken-together",
         "population", "dose-measured"],
)  # fmt: skip
def test_a_yes_keeps_the_condition_a_sentence_opens_on(
    evidence: str, rule: Overstated | None
) -> None:
    assert overstates("Spironolactone reduces hospitalisation.", [evidence]) is rule


@pytest.mark.parametrize(
    ("claim", "rule"),
    [
        ("Statins reduce LDL cholesterol by 50%.", Overstated.EXACT),
        ("Statins reduce LDL cholesterol by up to 50%.", None),
        ("Statins reduce LDL cholesterol.", None),
    ],
    ids=["the-most-as-the-effect", "the-most-kept", "no-number-claimed"],
)
def test_a_number_said_as_a_most_is_not_the_effect(claim: str, rule: Overstated | None) -> None:
    assert overstates(claim, ["Statins reduced LDL cholesterol by up to 50%."]) is rule

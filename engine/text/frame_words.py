"""The closed word lists the yes rules read a finding's frame with.

Where in a sentence a claim's words stand decides whether the sentence says the claim:
named only as set aside ("unlike aspirin", "but not at 12 months"), only as lost or
blocked ("SIRT1 deficiency"), bounded from one side ("over 70 years"), said of part
("some patients", "in 3 of 10 trials"), only together with a partner ("when combined
with simvastatin"), or only under a condition the sentence opens on ("In the absence of
insulin, …"). `engine.review.yes_frames` and `engine.review.yes_rules` read them.
"""

from __future__ import annotations

from engine.text.lexicon import word_pairs as _pairs
from engine.text.lexicon import word_set as _words


# Words that set what follows them against what a sentence says acts, up to the next pause
# or relation word ("unlike aspirin", "compared with diet alone", "rather than caffeine"):
# what they name is the other side of the finding, not its actor. The excluding ones ("but
# not at 12 months", "without kidney disease") set aside any word, not only an actor.
def _markers(text: str) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(marker.split("_")) for marker in sorted(_words(text)))


EXCLUDING_MARKERS = _markers(
    "unlike rather_than instead_of but_not not except exception_of other_than without"
)
# What a finding is set against or on top of: a comparison, or what was there already
# ("Sitagliptin added to metformin reduced glucose", "on top of", "with background
# metformin", "switching from metformin").
SET_ASIDE_MARKERS = EXCLUDING_MARKERS + _markers(
    "compared_with compared_to than versus vs in_contrast_to as_opposed_to relative_to "
    "added_to add_on_to on_top_of in_addition_to with_background switching_from switched_from "
    "replacing"
)


# Word beginnings that say a thing is lost, removed, blocked or altered ("SIRT1 deficiency",
# "knockdown of FOXO3", "inhibition of mTOR", "mice lacking TLR4", "mutations in BRCA1",
# "withdrawal of steroids", "antibodies against TNF", "resistance to cisplatin", "insulin
# resistance"): said next to what acts, they turn what it does around or make it another
# thing. The noun only: what one is "resistant to" is as often what acts on it ("mice
# resistant to diet-induced obesity") as what it lost.
LOSS_STEMS = (
    "lack", "absen", "without", "deficien", "knockout", "knockdown", "knock", "ablat", "delet",
    "deplet", "underexpress", "null", "disrupt", "inactivat", "silenc", "inhibit", "block",
    "antagon", "loss", "lost", "lose", "losing", "remov", "abrogat", "eliminat", "mutat",
    "mutant", "withdraw", "discontinu", "cessation", "resistance", "antibod", "neutraliz",
    "neutralis", "failure", "non",
)  # fmt: skip
# Whole words that say the same of the word after them ("anti-TNF" reads "anti", "tnf").
LOSS_WORDS = _words("anti")
# "-ing" forms that take away what follows them ("stopping aspirin", "avoiding salt"), read
# only before it: "aspirin stopped the bleeding" keeps its aspirin.
LOSS_GERUNDS = _words("stopping ceasing avoiding withholding quitting")
# Nouns that say less of the word before them, or of its dose or use ("aspirin avoidance",
# "aspirin dose reduction", "sodium restriction").
LOSS_NOUNS = _words("avoidance reduction reductions restriction tapering")
LESSENED = _words("dose doses dosage use intake exposure")
# The words between a loss word and what it removes: "knockdown of FOXO3", "mutations in
# BRCA1", "resistance to cisplatin", "antibodies against TNF".
LOSS_LINKS = _words("of in to against")
# Nouns that name who a finding was studied in: a word after them and "with" ("patients
# with diabetes") or just before them ("stroke patients") names who, not what changed.
POPULATION_NOUNS = _words(
    "patients patient people persons individuals subjects participants women men children "
    "adults adolescents infants neonates girls boys mothers volunteers veterans survivors "
    "mice rats animals those users smokers residents recipients carriers"
)
# Word beginnings that, just before a direction word, stop what it says ("prevented the
# decline in bone density", "blunted the rise"): the thing changed does not change that way.
TURNING_STEMS = (
    "prevent", "halt", "stop", "avert", "blunt", "mitigat", "curb", "suppress", "inhibit",
    "block", "antagon", "abrogat", "forestall", "protect", "guard", "shield", "rescu",
)  # fmt: skip
# How many words before a word a loss word and its "of" may stand and still be said of it
# ("absence of alternatively activated macrophages"); after it, only the next word counts
# ("SIRT1 deficiency").
LOSS_REACH = 3


# Words that open the other side of a comparison ("more than X", "superior to X").
OTHER_SIDE = _words("than from to")
# Comparatives a negation just before turns into "no difference" ("no more than placebo").
NULL_COMPARATIVES = _words(
    "more better greater higher larger superior worse lower less fewer smaller inferior different"
)


# Words that bound a number from one side ("over 70 years", "less than 5 mg"), each with the
# word that bounds it from the other: "under 70" is not "over 70".
BOUND_PAIRS = _pairs(
    "over/under above/below older/younger greater/less more/fewer more/less after/before "
    "longer/shorter exceeding/below"
)


# Quantifiers that say a statement holds of part of what it is about ("some patients
# improved", "a few trials"): a claim without one says it of the whole.
PARTIAL_QUANTIFIERS = _words("some few several minority subset half majority fraction")


# Phrases that name a partner a finding held only together with ("Ezetimibe, when combined
# with simvastatin, reduced LDL"; "X plus Y"): said just after what acts, a condition.
COMBINATION_MARKERS = tuple(
    tuple(marker.split("_"))
    for marker in sorted(
        _words("combined_with in_combination_with together_with plus added_to co-administered_with")
    )
)
# How many words after what acts such a phrase may begin and still be said of it.
COMBINATION_REACH = 4


# Phrases that set the state a finding holds in, up to the next pause, wherever they stand
# ("In the absence of insulin, glucagon increased …", "… bound DNA in the presence of
# zinc"), and openings that set the chosen subset a whole finding holds of ("Among those who
# returned the questionnaire, 98 percent …"): a condition, not the topic. A population ("In
# patients with diabetes, …") is not among them: most findings hold of one, and a question
# that leaves it out still asks what the finding answers.
CONDITION_PHRASES = _markers(
    "in_the_absence_of in_absence_of in_the_presence_of in_presence_of as_long_as so_long_as "
    "in_those_who among_those_who in_patients_who among_patients_who in_participants_who "
    "among_participants_who in_women_who in_men_who confined_to limited_to restricted_to"
)
SUBSET_OPENINGS = _markers(
    "among_those_who among_participants_who among_patients_who among_subjects_who "
    "among_women_who among_men_who in_those_who in_participants_who in_subjects_who"
)
# Words that mark an opening piece as a part of the analysis a finding came from ("In a
# post hoc analysis, …", "In subgroup analyses, …", "In exploratory analyses, …").
ANALYSIS_SUBSETS = _words("subgroup subgroups hoc exploratory unadjusted univariate")
# Words that mark an opening piece as a dose a finding held at ("At high doses, …", "In the
# highest-dose group, …").
DOSE_WORDS = _words("dose doses dosage dosages dosing concentration concentrations")
# Phrases that say a finding held among those who kept to a protocol, anywhere in a sentence
# ("… among participants who adhered to treatment"), or once some were left out ("after
# excluding early deaths"): a subset, where those kept differ from those who are not, not
# everyone randomised.
PROTOCOL_SUBSETS = _markers(
    "who_adhered who_were_adherent who_complied who_completed who_tolerated per_protocol "
    "after_excluding after_exclusion_of when_excluding outliers_were_removed "
    "among_completers in_completers who_responded who_respond in_responders among_responders"
)
# Phrases that say, anywhere in a sentence, that a finding came from part of an analysis
# ("… in a post hoc analysis", "… in an exploratory subgroup analysis"): a lead to test, not
# what the trial found for all it randomised.
ANALYSIS_SCOPES = _markers(
    "post_hoc subgroup_analysis subgroup_analyses exploratory_analysis exploratory_analyses "
    "unadjusted_analysis unadjusted_analyses crude_analysis crude_analyses"
)
# Phrases that say a finding came from a model of the world, not from the world: in cells or
# tissue outside a body, in a computer, in a simulation or in theory. Anywhere in a sentence.
MODEL_SCOPES = _markers(
    "in_vitro ex_vivo in_silico in_theory in_principle simulation simulations simulated "
    "in_cell_culture in_cultured_cells hypothetical mathematical computational modelling "
    "modeling microsimulation in_our_model in_the_model in_this_model "
    "cost_effectiveness_model cost_effectiveness_analysis markov_model decision_model "
    "decision_analytic_model"
)
# Words that make an outcome one imagined or felt rather than observed ("reduced projected
# mortality", "perceived risk"): a change of it is not a change of the outcome.
UNREAL_QUALIFIERS = _words(
    "projected simulated modelled modeled perceived hypothetical theoretical anticipated"
    " expected predicted"
)
# Words that say a finding came from animals, and words that say people were studied too: a
# finding in mice answers a question that names mice, not one that names no species.
ANIMAL_WORDS = _words(
    "mice mouse murine rats rat rodent rodents animals zebrafish drosophila yeast primates "
    "monkeys macaques rhesus simian rabbits hamsters piglets pigs dogs"
)
HUMAN_WORDS = _words(
    "human humans patients patient people adults children women men participants subjects "
    "volunteers individuals persons infants adolescents"
)
# Words that say a finding held for a while only ("initially reduced", "transiently rose").
TRANSIENT = _words("initially transiently temporarily briefly")
# Words by which a later piece says its finding was not seen somewhere ("an effect not seen
# in women"): a scope, where the finding holds elsewhere, not a withdrawal of it.
OBSERVED = _words("seen observed found detected evident present apparent noted")

# Words by which a sentence says its finding held on ("was not sustained", "did not
# persist", "was not replicated"): negated, the finding did not last.
LASTING = _words(
    "sustained maintained persist persisted persistent last lasted lasting durable replicated "
    "reproduced"
)


# What a finding is compared with when its denial is the null finding itself: "not superior
# to placebo" is a no, "no more than rosuvastatin" is not; "…, as did placebo" takes a yes back.
CONTROLS = _words("placebo sham control controls vehicle untreated usual")
# Words a negation just before makes "some": "not all patients responded".
WHOLE_WORDS = _words("all every always both entire whole")
# Words a negation just before turns on a judgement of the finding, not the finding: "it is
# not surprising that …", "not unexpectedly".
# A doubt denied is a judgement too: "there is no doubt that …", "it is no myth that …".
EVALUATIONS = _words(
    "surprising surprisingly unexpected unexpectedly unusual uncommon doubt doubts question "
    "myth coincidence wonder secret accident excluded ruled dismissed discounted approved "
    "licensed indicated recommended true correct"
)
# Words a negation reaches that it may deny instead of the finding: a quality, a degree, a
# time or a dose ("were not serious", "did not strongly reduce", "not until the second
# week", "not immediately", "not at the lowest dose", "not alone", "not to normal levels",
# "not consistently", "not in a clinically meaningful way"). "Significantly" is not one:
# "did not significantly reduce" is the null finding itself.
QUALIFIERS = _words(
    "serious severe major strong strongly substantial substantially marked markedly "
    "dramatic dramatically greatly fully completely entirely necessarily until immediately "
    "initially early first before soon yet lowest highest low high dose doses dosage alone "
    "itself consistently reliably enough sufficiently adequately meaningful meaningfully "
    "clinically normal normalize normalise normalized normalised below"
)
# Words by which a denial is of something added ("was not reduced further by adding …").
EXTRA_WORDS = _words("further additional additionally added extra incremental")


# Words by which a sentence's frame denies or doubts what follows its "that" ("it is a myth
# that …", "these data challenge the view that …"); after a negation they no longer do ("it
# is no myth that").
DOUBT_WORDS = _words(
    "myth myths misconception misconceptions fallacy false untrue unfounded unproven "
    "unsubstantiated erroneous mistaken incorrect wrong refute refutes refuted dispel dispels "
    "dispelled debunk debunks debunked challenge challenges challenged contrary weak weaker "
    "conflicting controversial inconsistent equivocal overstated exaggerated debated "
    "disputed questionable questioned flawed uncertain unclear"
)
# Nouns that, before a "that", make what follows an aim ("Our objective was to show that
# …"): a doubt of it as found.
AIM_NOUNS = _words("objective objectives aim aims goal goals purpose intention")
# Words that say a finding or its source was withdrawn from the record ("a finding that was
# later retracted", "in a retracted study"): anywhere in a sentence.
RETRACTION_WORDS = _words(
    "retracted retraction retractions discredited flawed fraudulent fabricated refuted "
    "disproved disproven debunked"
)
# Nouns a "that" after which states what is believed, not found ("the idea that … is a
# myth"): a doubt word later in the sentence doubts it.
BELIEF_NOUNS = _words(
    "idea notion belief beliefs view views claim claims assumption assumptions contention "
    "theory perception suggestion suggestions premise report reports evidence"
)
# Words by which a frame says how little shows what follows ("few studies have shown that
# …", "it has not been established that …", "it is not true that …"): with one of
# `SHOWING_WORDS`, a doubt.
SCARCE_WORDS = _words("few little limited insufficient scant scarce sparse inconclusive")
SHOWING_WORDS = _words(
    "study studies trial trials evidence data research report reports shown proven proved "
    "established demonstrated confirmed documented clear certain true correct"
)
# What a denial of the literature names: "no study has shown that …", "it has not been
# proven that …". A denial of what this study found ("we did not find that …") is a null
# finding and stays a no.
LITERATURE_WORDS = _words(
    "study studies trial trials research report reports author authors shown proven proved "
    "established demonstrated confirmed documented"
)
# Words before which a direction word is the alternative set aside, not the finding:
# "increased rather than reduced anxiety".
DENIED_ALTERNATIVES = _markers("rather_than instead_of")


# What a sentence names its own grounds by ("the evidence is mixed", "mixed results").
GROUNDS_NOUNS = _words("evidence results findings data studies trials literature reports research")
# Words that judge those grounds weak, just before them or after a copula ("limited
# evidence", "the results were inconsistent"): the finding beside them is in doubt.
WEAK_GROUNDS = _words(
    "mixed conflicting inconsistent inconclusive equivocal contradictory weak limited "
    "insufficient sparse scant scarce"
)
# What a grade of the evidence is a grade of, and the grades that doubt it ("evidence of
# low quality", "low-certainty evidence", "the quality of the trials was poor").
GRADED_NOUNS = _words("quality certainty")
LOW_GRADES = _words("low poor")
# Words that judge an attempt a failure before what was attempted ("ineffective in reducing
# weight", "insufficient to lower", "incapable of preventing"): the change did not happen.
FAILURE_JUDGEMENTS = _words(
    "ineffective ineffectual unsuccessful insufficient inadequate futile useless powerless "
    "incapable inefficacious"
)
# Words a negation just before turns into a weak yes, not a no ("not ineffective", "not
# without effect", "not unable to", "not insignificant"): two negations, no denial.
NEGATED_NEGATIVES = FAILURE_JUDGEMENTS | _words(
    "unable without fail fails failed insignificant negligible inconsiderable unimportant "
    "unrelated unaffected"
)
# Words that join such a judgement to what was attempted.
FAILURE_LINKS = _words("in at for to of")
# Words that say a trial ended because no effect was likely ("stopped for futility").
FUTILITY_WORDS = _words("futility")
# A trial stopped for want of an effect ("stopped for lack of efficacy", "terminated owing to
# ineffectiveness"), not for benefit or harm.
EARLY_STOPS = _words("stopped terminated halted discontinued")
STOP_REASONS = _words("lack inefficacy ineffectiveness")
# Words that say the grounds lean ("prone to bias", "a high risk of bias"), and those that
# clear them ("a low risk of bias", "no evidence of bias").
BIAS_WORDS = _words("bias biased biases")
CLEARED_BIAS = _words("low no minimal without free unlikely")
# Words and phrases by which a sentence says its own grounds are too few or too early to
# tell ("underpowered", "anecdotal", "in a case report", "in a pilot study", "in an interim
# analysis") or puts a caveat on its finding ("residual confounding", "requires
# confirmation", "larger trials are needed to confirm this", "a wide confidence interval"):
# a yes or a no beside them may be chance. The trial's power is read by the words below.
FRAGILE_WORDS = _words("underpowered anecdotal anecdotally")
FRAGILE_PHRASES = _markers(
    "case_report case_reports case_series pilot_study pilot_trial interim_analysis "
    "residual_confounding reverse_causation reverse_causality requires_confirmation "
    "require_confirmation needs_confirmation needs_replication requires_replication "
    "needed_to_confirm wide_confidence_interval confidence_interval_was_wide "
    "uncontrolled_study uncontrolled_studies uncontrolled_trial uncontrolled_trials "
    "before_after_study before_after_studies before_and_after_study single_arm_trial "
    "single_arm_study pre_post_study pre_post_design"
)
# Fewer people than this make a case series, not a study a finding can be stated from
# ("(n = 6)", "in 3 patients"); a count per group ("n = 6 per group") is a design's.
TINY_SAMPLE = 10
SAMPLE_PER = _words("per each every")
# A trial that says it had too little power ("not powered for mortality", "lacked
# statistical power"): the words before "powered" and before "power".
POWER_DENIALS = _words("not insufficiently inadequately poorly under")
POWER_WANTS = _words("lacked lacking lack lacks insufficient inadequate limited low")


# Units of time, and the words before a figure of them that fix a point in time ("at 1
# week", "after 2 weeks", "by week 12", "within 3 days"): a no there holds at that point.
# A span ("over 12 months", "during follow-up") is the whole trial and stays a no.
TIME_UNITS = _words(
    "minute minutes min hour hours h day days week weeks wk month months mo year years"
)
TIME_POINTS = _words("at after by within on")
# Words that name a time point as the trial's end point, where its no is the trial's answer.
END_POINT_WORDS = _words("primary endpoint endpoints end")
# What a denial may deny instead of the finding when no pause sets it apart: "did not reduce
# weight as expected" (less than expected, or not at all?).
EXPECTATION_WORDS = _words(
    "expected anticipated predicted hypothesized hypothesised hoped intended planned presumed"
)


# Words that say a finding came near significance without reaching it ("borderline
# significant", "of marginal significance", "approached significance", "near-significant"),
# just before a word of significance (`SIGNIFICANCE_STEMS`) or one word apart; "short of" the
# same ("fell just short of significance").
NEAR_SIGNIFICANCE = _words(
    "borderline marginal marginally near nearly almost approached approaching approach "
    "approaches missed misses"
)
# Words that judge a finding near significance after a copula ("the weight loss was
# marginal", "the difference was borderline").
NEAR_JUDGEMENTS = _words("borderline marginal")
COPULAS = _words("is are was were remained been")
# Nouns that say a change only leaned its way ("a tendency to reduce weight", "a tendency
# toward lower weight"), as the hedge "trend" does.
TENDENCY_NOUNS = _words("tendency tendencies")
# Words that say a change leaned its way beside a denial of it ("did not reduce weight,
# though a trend was noted"): the denial is no firm no.
LEANING_WORDS = TENDENCY_NOUNS | _words("trend trends trended tended")
SIGNIFICANCE_STEMS = ("significan", "statistical")
# Words that make an effect all but none just before its noun ("had little effect on
# weight", "minimal impact", "hardly any change"), and the nouns they make so.
SCANT_DEGREES = _words("little minimal scant negligible hardly barely scarcely")
EFFECT_NOUNS = _words(
    "effect effects impact influence change changes difference differences benefit"
)
# Words that say what change was in store, between a word that stops a change and that change
# ("averted the expected decline", "prevented the usual rise"): the change still did not
# happen.
EXPECTED_KINDS = _words("expected anticipated predicted usual typical normal natural inevitable")

# Verbs by which a thing itself rises or falls over time ("aspirin use rose"); with no
# object after them they say how it moved, not what it changed.
TREND_VERBS = _words(
    "rose rise rises rising risen fell fall falls falling fallen increased increases"
    " increasing decreased decreases decreasing declined declines declining dropped drops"
    " dropping grew grow grows growing doubled tripled halved climbed surged plummeted"
    " plateaued waned"
)
# Nouns of how much of a thing was taken, sold or present, whose rise or fall is its own
# ("aspirin use", "statin prescriptions", "fluoride levels").
EXPOSURE_NOUNS = _words(
    "use usage uses intake consumption prescriptions prescription prescribing sales uptake"
    " dose doses dosing level levels exposure exposures availability coverage utilization"
    " utilisation adoption rate rates concentration concentrations supply spending"
    " popularity"
)
# Words that may stand between such a noun and its verb ("has risen", "steadily rose").
TREND_AUXILIARIES = _words("has have had was were is are steadily sharply gradually also")
# Words after a trend verb that begin no object: what follows is when, where, how much or
# the next clause ("rose over the decade", "fell by 20%", "increased while …").
TREND_TAILS = _words(
    "by from to over during in across between among after since with at while as and but"
    " whereas then each every per year years annually yearly threefold twofold fourfold"
    " significantly steadily sharply markedly substantially slightly rapidly gradually"
    " considerably dramatically modestly further again thereafter throughout until"
)
# People named by whom they stand beside ("the parents of children with asthma", "nurses
# treating sepsis"): a finding in them is theirs, not the others'.
ROLE_NOUNS = _words(
    "parents parent fathers siblings sisters brothers relatives families family caregivers"
    " caregiver carers carer spouses spouse partners offspring nurses nurse physicians"
    " physician doctors doctor clinicians staff providers surgeons teachers friends"
    " households visitors"
)
# The words that tie such people to the others ("of", "treating", "caring for").
ROLE_LINKS = _words("of treating caring looking attending visiting")

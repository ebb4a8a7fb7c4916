"""Every closed word list the engine reads text with, each named and documented once.

Direction, effect and link words (stance and coverage), negations, hedges and modals
(stance, alignment, the typo check, the PDF line joiner), scope frames and question
frames (deduction, coverage), headings
(the sentence splitter, aims, the dataset reader), number words and stop words. A list
is named for what it means, not for who reads it: two lists with one name would be one.
The words that decide where a sentence splits into clauses that stand alone live beside
it, in `engine.text.clause_words`.
"""

from __future__ import annotations

import re


def word_set(text: str) -> frozenset[str]:
    """The words of a space-separated list: how every closed list here is written."""
    return frozenset(text.split())


def word_pairs(text: str) -> tuple[tuple[str, str], ...]:
    """The "left/right" pairs of a space-separated list."""
    return tuple((left, right) for left, _, right in (pair.partition("/") for pair in text.split()))


_words, _pairs = word_set, word_pairs


# Words that, after a negation, make the sentence a null result ("did not differ").
NULL_AFTER_NEGATION = (
    "signific", "associat", "effect", "affect", "differ", "chang", "correlat", "relat",
    "impact", "influenc", "alter", "increas", "reduc", "decreas", "improv", "predict", "link",
)  # fmt: skip
# Words that state an effect or a link between two things.
EFFECT_WORDS = (
    "associat", "correlat", "link", "caus", "lead", "led", "result", "requir", "essential",
    "crucial", "role", "contribut", "predict", "determin", "affect", "influenc", "regulat",
    "mediat", "driv",
)  # fmt: skip
# Direction words by prefix: axis -> sign -> prefixes. "up"/"down" count before "regul...".
CUES = {
    "quantity": {
        +1: (
            "increas", "rais", "rise", "rises", "rising", "rose", "elevat", "higher", "greater",
            "more", "enhanc", "promot", "activat", "induc", "stimulat", "upregul", "augment",
            "boost", "accelerat", "amplif", "gain", "exceed", "potentiat", "longer", "faster",
            "positive", "positively", "facilitat", "trigger", "encourag",
        ),
        -1: (
            "decreas", "reduc", "lower", "less", "fewer", "declin", "diminish", "attenuat",
            "inhibit", "suppress", "block", "downregul", "deactivat", "negative",
            "negatively", "inverse", "smaller", "slow", "loss", "lose", "abolish", "abrogat",
            "prevent", "shorter", "repress", "blunt", "protect", "imped", "hinder",
        ),
    },
    # Whether a thing is there at all: "lack of X" reverses what follows rather than denying it.
    "presence": {
        +1: ("overexpress", "presence", "present", "replenish", "supplement"),
        -1: ("lack", "absen", "without", "deficien", "knockout", "ablat", "delet", "deplet",
             "underexpress", "null", "interrupt", "disrupt", "inactivat", "silenc"),
    },
    "valence": {
        +1: ("improv", "benefi", "ameliorat", "alleviat", "better", "effective", "efficac",
             "safe", "accura", "success", "superior", "favorabl", "favourabl", "rescu", "restor"),
        -1: ("worsen", "harm", "deteriorat", "detriment", "exacerbat", "aggravat", "worse",
             "toxic", "ineffective", "inaccura", "inferior", "unfavorabl", "poor", "impair"),
    },
}  # fmt: skip


# Prefixes of the words that relate a question's topics: which way one moves another, how
# good it is, whether they are linked. A question's relation is what stance reads; any
# such word in the source states a relation of its own (the same, the opposite, none).
RELATION_PREFIXES = tuple(
    dict.fromkeys(
        (*CUES["quantity"][1], *CUES["quantity"][-1], *CUES["valence"][1], *CUES["valence"][-1],
         *EFFECT_WORDS, *NULL_AFTER_NEGATION, "effect", "efficien", "benefit")
    )
)  # fmt: skip


# Things named after what they do ("a Foxp3 enhancer", "an inhibitory receptor", "tumour
# suppressive miR-193a", "past losers", "team leaders") and words that only look like a
# relation ("these results", "moreover") state none.
_AGENT_STEMS = (
    "enhanc", "promot", "induc", "activat", "inhibit", "suppress", "block", "stimulat",
    "repress", "protect", "los", "lead",
)  # fmt: skip
_AGENT_ENDINGS = ("er", "ers", "or", "ors", "ory", "ive", "ible")
AGENT_NOUNS = frozenset(
    (
        *(f"{stem}{end}" for stem in _AGENT_STEMS for end in _AGENT_ENDINGS),
        "results",
        "leading",
        "moreover",
    )
)


def relation_word(word: str) -> bool:
    """Whether a lower-cased word relates topics (a direction, an effect or a link word).

    "Significant" says how sure a finding is, not what relation it states (after a
    negation it still makes a null result: see `NULL_AFTER_NEGATION`).
    """
    return (
        len(word) > 2
        and word.startswith(RELATION_PREFIXES)
        and word not in AGENT_NOUNS
        and not word.startswith("signific")
    )


# Words that state a link with no direction, weakest family first: a word says what any word
# of its own or a weaker family says ("caused" says "associated"), never what a stronger
# one says ("associated" is no "causes"). A direction word ("raised") says a link only
# where the stance reads it as the link asked (see `engine.api`).
LINK_FAMILIES = {
    "association": ("associat", "correlat", "link", "relat"),
    "influence": (
        "role", "contribut", "influenc", "affect", "effect", "impact", "mediat", "regulat",
        "determin", "driv", "requir", "essential", "crucial", "predict",
    ),
    "causation": ("caus", "lead", "led", "result"),
}  # fmt: skip


# Nouns for what a study measured as an outcome: "negative" or "positive" before one says
# how good the outcome was ("negative outcomes" are harms), not which way a quantity went.
OUTCOME_NOUNS = ("outcome", "effect", "consequenc", "impact", "result", "event", "experienc")


def cue_of(word: str, after: str = "") -> tuple[str, int] | None:
    """The axis ("quantity", "presence" or "valence") and sign a lower-cased word states,
    given the word `after` it; None for a word that states no direction."""
    if word in AGENT_NOUNS:
        return None
    if word in ("up", "down"):
        return ("quantity", 1 if word == "up" else -1) if after.startswith("regul") else None
    if word in ("negative", "positive") and after.startswith(OUTCOME_NOUNS):
        return "valence", 1 if word == "positive" else -1
    for axis, signs in CUES.items():
        for sign, prefixes in signs.items():
            if word.startswith(prefixes):
                return axis, sign
    return None


def direction(word: str, after: str = "") -> tuple[str, int] | None:
    """The axis ("quantity" or "valence") and sign a lower-cased direction word states."""
    found = cue_of(word, after)
    return found if found is not None and found[0] != "presence" else None


def link_strength(word: str) -> int | None:
    """How strong a link a lower-cased word states: its family's place in `LINK_FAMILIES`
    (0 association, 1 influence, 2 causation), None for any other word."""
    if word in AGENT_NOUNS:
        return None
    for strength, prefixes in enumerate(LINK_FAMILIES.values()):
        # "effective" is a valence word ("effective treatment"), no "effect" of a link.
        if word.startswith(prefixes) and not word.startswith("effective"):
            return strength
    return None


# Words that say how much, how surely, or how a study reports, never what about: a
# question's "significantly", "a broad range of", "across", "demonstrates" or "use" is not a
# word its source must use. Negations and negating prefixes ("non") are never here.
DEGREE_WORDS = frozenset(
    """
    significantly strongly substantially markedly highly greatly slightly considerably
    dramatically approximately roughly nearly almost mostly largely partly partially relatively
    especially particularly generally commonly usually often frequently typically broad wide
    range variety various several many numerous certain particular overall compare compared
    comparison across within among upon via toward towards including
    versus vs respectively also however thus therefore new novel general specific different given
    due based found find finds shown show shows showed demonstrate
    demonstrates demonstrated report reports reported observe observes observed indicate
    indicates indicated reveal reveals revealed suggest suggests suggested confirm confirms
    confirmed known well able
    """.split()  # noqa: SIM905
)


# Dropped for ranking only; small on purpose, so short claims keep their content words.
_STOP_WORD_TEXT = """
    a about above after again against all am an and any are as at be because been before
    being below between both but by can could did do does doing down during each few for from
    further had has have having he her here hers herself him himself his how i if in into is
    it its itself just me more most my myself no nor not of off on once only or other our ours
    ourselves out over own same she should so some such than that the their theirs them
    themselves then there these they this those through to too under until up very was we
    were what when where which while who whom why will with would you your yours yourself
    yourselves"""


STOP_WORDS = frozenset(_STOP_WORD_TEXT.split())


# Predicate negations only: "lack of X" or "without X" remove X, which reverses a causal
# chain rather than denying it, so those words are read as presence words (see _CUES).
PREDICATE_NEGATIONS = _words("no not nor never neither unable cannot none incapable")


FAIL_WORDS = _words("fail fails failed failing")  # a negation only before "to"


# Words that open a new clause: a negation or a direction before one does not reach past it.
CLAUSE_BREAKS = _words("but whereas while however although though yet despite unlike except")


# Words that state a null result by themselves ("unchanged", "comparable"), by prefix.
NULL_WORDS = (
    "unchanged", "unaffected", "similar", "comparable", "nonsignificant", "insignific",
    "unrelated",
)  # fmt: skip


# Words that hedge a finding: it is suggested or likely, or would be, not shown.
HEDGES = _words(
    "may might could suggest suggests suggested suggesting possibly potentially perhaps likely "
    "unlikely appear appears seem seems tend tends trend hypothesis hypothesize hypothesized "
    "hypothesizes hypothesise hypothesised hypothesises putative presumably would thought "
    "believed presumed speculated postulated purported reportedly supposedly tended seemed "
    "marginally claimed allegedly barely hardly scarcely should believe believes assume "
    "assumes assumed assuming marketed advertised touted purportedly seemingly apparently "
    "ostensibly conceivably arguably posited think thinks said advertisement advertisements "
    "argue argues argued expect expects plausible conceivable tempting pending preliminary "
    "probably possibility "
    "anecdotal"
)
# Words that hedge what follows only before "that" ("the label claims that …"): alone they
# name a thing ("incidence per claims increased").
HEDGES_BEFORE_THAT = _words(
    "claims proposed predicted hoped hope hopes propose proposes speculate speculates posit "
    "posits conjecture conjectures infer infers reason reasons contend contends surmise "
    "surmises predict predicts anticipate anticipates imagine imagines suspect suspects guess "
    "guesses"
)
# Words that hedge what follows only before "to" ("was expected to reduce", "appeared to
# improve", "was reported to", "did little to", "according to the manufacturer", "was
# designed to show", "is predicted to"): alone they say what happened ("lesions appeared").
HEDGES_BEFORE_TO = _words(
    "expected appeared reported said little according designed aimed sought intended planned "
    "projected predicted anticipated hoped proposed held considered"
)
# Words that hedge what follows with its subject between them and "to" ("we expected
# metformin to reduce weight", "predicted the drug to lower", "guidelines recommend aspirin
# to prevent": advice, not a finding); after "as" or "than" they
# judge a finding instead ("as expected, metformin reduced weight to 80 kg").
HEDGES_BEFORE_SUBJECT_TO = _words(
    "expected predicted anticipated intended considered believed thought assumed presumed "
    "supposed hypothesized hypothesised hoped wanted recommend recommends advise advises"
)
# Words that make an aim, a use or a prospect of what follows "to" (or "for" and an "-ing"
# form) and a relation word ("was given to reduce", "is used to treat", "has the potential to
# improve", "is being tested for reducing"): before "to" and anything else they say what
# happened ("given to patients").
PURPOSES_BEFORE_TO = _words(
    "given used recommended prescribed administered indicated applied employed order candidate "
    "potential promising investigated studied study tested evaluated explored investigation"
)
# A licence, not a finding: "approved for treating depression", "licensed to prevent".
LICENSED = _words("approved licensed authorised authorized")


# Adverbs that say a finding held now and then, not as a rule ("rarely reduced", "sometimes
# improved"): said of part, like "some".
FREQUENCY_PARTIALS = _words(
    "rarely seldom occasionally sometimes inconsistently infrequently intermittently sporadically"
)
# Words that say a change was too small to count ("reduced stroke negligibly").
NEGLIGIBLE = _words("negligible negligibly trivial trivially")


# Words that say how many of a thing a statement is about: "all" is not "some", nor "most".
QUANTIFIERS = _words(
    "all every each always most many some several few majority minority entire whole none"
)
# Words that say how much, which a claim states as found only where its source says so
# ("dramatically reduces" is more than "reduced").
INTENSIFIERS = _words(
    "strongly substantially markedly greatly considerably dramatically drastically massively"
    " hugely profoundly vastly enormously remarkably powerfully"
)


# A text that says what "can", "may" or "potentially" happens states a possibility, which a
# denial of the fact leaves standing; unless the denial is itself of what can ("can't provide").
MODALS = frozenset(
    ("can", "could", "may", "might", "potential", "potentially", "possible", "possibly")
)


# A modal denied: what cannot be, not what is not.
NEGATED_MODALS = frozenset(("can't", "cannot", "couldn't", "unable"))


# Words that restrict a statement to part of what it is about ("only", "in a subgroup").
RESTRICTING_WORDS = (
    "only", "solely", "exclusively", "restricted", "limited", "specifically", "subgroup",
    "subgroups", "unless", "except", "provided",
)  # fmt: skip


# Words that make what a sentence states hold only under a condition: a claim that drops one
# the sentence says ("we saw no protection" for "… if the first dose was delayed") is not
# what the sentence says.
CONDITION_WORDS = frozenset(["if", "unless", "except", "only", "provided", "whenever", "whether"])


# Prefixes that turn a word into its negation or its lack ("independent", "misfolded",
# "dysfunction", "asymptomatic", "dephosphorylation"), each with the shortest remainder it
# is read on ("a" only on longer words).
NEGATING_PREFIXES = {
    "non": 3, "un": 3, "in": 3, "im": 3, "ir": 3, "il": 3, "dis": 3, "anti": 3, "de": 3,
    "a": 5, "dys": 3, "mis": 3, "mal": 3, "ab": 3,
}  # fmt: skip
# Prefix pairs whose swap sets a word on the other side (hypertension/hypotension,
# intracellular/extracellular, homozygous/heterozygous).
OPPOSED_PREFIXES = _pairs(
    "in/de hyper/hypo intra/inter intra/extra pre/post endo/exo up/down over/under"
    " sub/supra sub/super in/ex im/ex in/ef af/ef uni/bi uni/multi mono/poly"
    " homo/hetero pro/anti ana/cata a/de sys/dias max/min en/ex"
)
# Opposite word parts spelt close enough to pass for a typo of each other.
OPPOSED_STEMS = _pairs(
    "increas/decreas increas/reduc increas/declin increas/lower high/low more/less"
    " more/fewer most/least many/few greater/lesser greater/smaller larg/small"
    " positiv/negativ improv/worse improv/impair improv/deteriorat better/worse"
    " best/worst benefi/harm enhanc/reduc enhanc/impair enhanc/suppress"
    " present/absent presence/absence inhibit/promot inhibit/activat inhibit/stimulat"
    " inhibit/induc inhibit/enhanc inhibit/excit activat/repress activat/suppress"
    " induc/repress induc/suppress up/down upper/lower before/after earl/late"
    " major/minor maxim/minim above/below rais/lower rise/fall gain/loss gain/lose"
    " strong/weak long/short fast/slow accept/reject agonist/antagonist elevat/reduc"
    " elevat/lower elevat/decreas superior/inferior always/never all/none male/female"
    " men/women sensitiv/resistan susceptib/resistan benign/malignant"
    " dominant/recessive acute/chronic includ/exclud inclusion/exclusion"
    " support/refut support/contradict confirm/refut similar/different"
    " same/different true/false success/fail risk/protect first/last min/max"
    " philic/phobic ful/less matern/patern mother/father inner/outer"
)
# The shortest word a prefix is read off in a claim and its evidence ("take" in "intake"
# is too short to be the same word).
PREFIXED_ROOT = 5
JOINED_PREFIXES = frozenset({"anti", "pro", "non", "hyper", "hypo", "dys", "mis", "de", "un"})


# Words that set a scope, condition or time frame ("in Japan", "during 2008", "among
# women", "recently"): in one subject only, the premises do not say the same thing.
SCOPE_FRAMES = frozenset(
    """
    in at on among amongst during after before since until till for with within when
    whenever while where across by via through throughout amid except excluding
    including only if unless once following given despite against outside inside
    today yesterday tomorrow recently previously currently now then later earlier
    initially finally formerly ago
    """.split()  # noqa: SIM905
)


# In a subject a time noun is a frame too ("last year momentum"); after a number it is the
# rate's unit ("1.2% a month").
SUBJECT_FRAMES = SCOPE_FRAMES | frozenset(
    "year years month months week weeks day days decade decades quarter quarters".split()  # noqa: SIM905
)


# Words that negate by themselves, contractions written without their apostrophe too.
NEGATIONS = frozenset(
    "not no nor never without none neither nobody nothing nowhere cannot dont doesnt didnt isnt"  # noqa: SIM905
    " arent wasnt werent cant couldnt wont wouldnt shouldnt hasnt havent hadnt mustnt".split()
)


# Words that carry a negation on their own, and prefixes that make one: a line-end split
# never glues them to the word before.
LINE_END_NEGATIONS = frozenset(
    {"not", "no", "non", "nor", "never", "none", "neither", "nothing", "nobody", "without"}
    | {"cannot", "lack", "lacks", "lacking", "absent", "fail", "fails", "failed"}
)


# "in-" and "im-" are left out: "contain-" / "ing" is the commonest split there is.
LINE_END_NEGATING_PREFIXES = ("un", "non", "dis", "anti", "counter")


# Words that frame a question rather than say what it is about.
QUESTION_FRAME_WORDS = frozenset(
    [
        "knowledge",
        "base",
        "say",
        "says",
        "said",
        "tell",
        "know",
        "known",
        "literature",
        "claim",
        "claims",
        "true",
        "whether",
        "please",
        "explain",
        "describe",
        "summarise",
        "summarize",
        "reviewing",
    ]
)


# Phrases that frame a question wherever they stand: who asks, why, and where they look.
QUESTION_FRAME_PHRASES = re.compile(
    r"\b(?:what\s+(?:does|do|did)\s+(?:the\s+)?(?:knowledge\s+base|literature|corpus|"
    r"evidence|workspace)\s+(?:say|says|tell(?:\s+us)?)(?:\s+(?:about|on))?|"
    r"(?:i\s*(?:'|’)?\s*m\s+|i\s+am\s+|we\s*(?:'|’)?\s*re\s+|we\s+are\s+)?reviewing"
    r"(?:\s+(?:what\s+is\s+known|the\s+(?:literature|evidence))(?:\s+(?:about|on))?)?|"
    r"what\s+is\s+(?:currently\s+)?known(?:\s+(?:about|on))?|"
    r"(?:is|was)\s+it\s+(?:true|the\s+case)\s+that|"
    r"(?:is|are)\s+there\s+(?:any\s+)?(?:evidence|data|proof)\s+(?:that|of|for)|"
    r"(?:can|could)\s+you\s+tell\s+me(?:\s+about)?|tell\s+me(?:\s+about)?|"
    r"according\s+to\s+(?:the\s+)?(?:literature|evidence|knowledge\s+base|sources|"
    r"studies|research)|in\s+the\s+(?:literature|knowledge\s+base))\b",
    re.IGNORECASE,
)


# Section headings of structured abstracts: a leading run of these words, in capitals, is a
# sentence of its own. The list is closed so that a capitalised term (`HIV`) never counts.
ABSTRACT_HEADING_WORDS = frozenset(
    """
    aim aims analyses analysis and background case clinical conclusion conclusions context
    criteria data design discussion eligibility evidence exposure exposures extraction
    findings funding goal goals hypothesis implications importance interpretation
    intervention interventions introduction limitations main materials measure measurement
    measurements measures method methodology methods objective objectives of outcome
    outcomes participants patients population practice presentation primary principal
    purpose question rationale registration relevance research result results review
    sample search secondary selection setting settings significance source sources strategy
    study subjects summary synthesis trial
    """.split()  # noqa: SIM905
)


# Structured-abstract headings under which sentences give the background or the aim: what
# was known or asked before the study, never what it found.
BACKGROUND_HEADINGS = frozenset(
    ["BACKGROUND", "INTRODUCTION", "CONTEXT", "OBJECTIVE", "OBJECTIVES", "AIM", "AIMS",
     "PURPOSE", "RATIONALE", "IMPORTANCE", "HYPOTHESIS", "AND", "OF", "THE", "STUDY"]
)  # fmt: skip


# Structured-abstract headings under which sentences describe the study, not its results.
METHOD_HEADINGS = frozenset(
    ["DESIGN", "METHOD", "METHODS", "METHODOLOGY", "MATERIALS", "SETTING", "SETTINGS",
     "PARTICIPANTS", "PATIENTS", "SUBJECTS", "POPULATION", "SAMPLE", "INTERVENTION",
     "INTERVENTIONS", "MEASURE", "MEASURES", "MEASUREMENT", "MEASUREMENTS", "MAIN", "OUTCOME",
     "OUTCOMES", "PRIMARY", "SECONDARY", "DATA", "SOURCES", "SEARCH", "STRATEGY", "SELECTION",
     "EXTRACTION", "ELIGIBILITY", "CRITERIA", "STUDY", "EXPOSURE", "EXPOSURES", "STATISTICAL",
     "ANALYSIS", "REGISTRATION", "TRIAL", "AND", "OF", "FOR"]
)  # fmt: skip


# Section headings a dataset's abstract text may carry inline, in capitals.
SECTION_HEADING_WORDS = sorted(
    """
    ABSTRACT ACQUISITION AIM AIMS ANALYSES ANALYSIS AVAILABILITY BACKGROUND CASE
    CLINICAL CONCLUSION CONCLUSIONS CONTEXT CRITERIA DATA DESIGN DISCUSSION ELIGIBILITY
    EVIDENCE EXPERIMENTAL EXPOSURE EXPOSURES EXTRACTION FINDINGS FUNDING HYPOTHESIS
    IMPLICATIONS IMPORTANCE INFORMATION INTERPRETATION INTERVENTION INTERVENTIONS
    INTRODUCTION LIMITATIONS MAIN MATERIALS MEASURE MEASUREMENT MEASUREMENTS MEASURES
    METHOD METHODOLOGY METHODS MOTIVATION OBJECTIVE OBJECTIVES OUTCOME OUTCOMES
    PARTICIPANTS PATIENTS POPULATION PRIMARY PRINCIPAL PURPOSE RATIONALE RECENT
    REGISTRATION RELEVANCE RESULT RESULTS REVIEW SAMPLE SEARCH SECONDARY SELECTION
    SETTING SETTINGS SIGNIFICANCE SOURCES STATISTICAL STRATEGY STUDY SUBJECTS SUMMARY
    SUPPLEMENTARY SYNTHESIS TRIAL TRIALS UNLABELLED
    """.split()  # noqa: SIM905
)


# Words before a number that say it is approximate ("about 30%").
APPROXIMATORS = _words("about around approximately approx nearly roughly almost some circa")


# Number words with their values: the ones and the tens a figure may be spelled with
# ("twenty-five", "three hundred"); the scales that multiply them are `NUMBER_SCALES`.
_ONES = (
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
    "eighteen", "nineteen",
)  # fmt: skip
_TENS = ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
NUMBER_WORDS = {word: value for value, word in enumerate(_ONES)} | {
    word: 20 + 10 * n for n, word in enumerate(_TENS)
}
# The counting words a quantity in prose is read from, as their digits: zero to ten only, so
# "eleven" in a name or a title is never read as a measured amount.
COUNTING_WORDS = {word: str(value) for word, value in NUMBER_WORDS.items() if value <= 10}
# The scale words a spelled or digit figure is multiplied by ("two million", "4 thousand").
NUMBER_SCALES = {"hundred": 100, "thousand": 10**3, "million": 10**6, "billion": 10**9}

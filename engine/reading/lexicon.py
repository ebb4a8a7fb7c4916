"""Closed word lists for reading text: direction and effect words, degree words.

Each list is named and documented once, here, at the ground: stance reads the direction
words to compare two texts; coverage reads the same words to know that a question's
relation ("increases", "is associated with") is a relation, not a topic.
"""

from __future__ import annotations

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
# suppressive miR-193a", "past losers", "team leaders") and nouns that only look like a
# link ("these results") state no relation.
_AGENT_STEMS = (
    "enhanc", "promot", "induc", "activat", "inhibit", "suppress", "block", "stimulat",
    "repress", "protect", "los", "lead",
)  # fmt: skip
_AGENT_ENDINGS = ("er", "ers", "or", "ors", "ory", "ive", "ible")
AGENT_NOUNS = frozenset(
    (*(f"{stem}{end}" for stem in _AGENT_STEMS for end in _AGENT_ENDINGS), "results", "leading")
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

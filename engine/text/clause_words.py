"""The closed word lists that decide where a sentence splits into clauses that stand alone.

Licensing reads them (`engine.core.licensing.independent_clauses`): a piece opening with a
restricting word, an earlier piece holding a word that may take scope over the next, or a
later piece that takes an earlier one back keeps the sentence whole. A word missing from a
list can only fail to keep a sentence whole; so each list errs towards more words.
"""

from __future__ import annotations

import re

from engine.text.lexicon import word_set as _words

# Where a sentence turns from one thing to another, for reading what each side says of the
# claim's words (not for licensing, which splits only where a clause stands alone): "…, but",
# "…, whereas", "…, although", "…; …" and a bare "but" or "whereas" ("was not reduced by
# placebo but by metformin"). "But not" sets one thing aside inside a clause, and "but
# also" adds to it.
CONTRASTS = re.compile(
    r";\s*|,\s*(?:but(?!\s+(?:not|also)\b)|whereas|while|although|though|yet)\s+"
    r"|\s+(?:but(?!\s+(?:not|also)\b)|whereas)\s+",
    re.IGNORECASE,
)

# Words that, opening a piece, restrict or subordinate it (or leave it a fragment).
RESTRICTING_ONSETS = frozenset(
    """
    only not no nor neither never none except excluding unless if when whenever whether once
    until provided given assuming solely exclusively mainly mostly primarily largely partly
    partially particularly especially even just merely almost nearly
    in on at for with without among amongst during after before under over within between
    from to by of via through throughout across against than as upon into despite following
    compared relative versus vs
    """.split()  # noqa: SIM905
)


# Words that, inside an earlier piece, may take scope over the pieces after it.
SCOPE_WORDS = frozenset(
    """
    that whether if unless when whenever because since although though while whilst once
    until provided assuming whereby suggest suggests suggested suggesting hypothesis
    hypothesize hypothesized hypothesise hypothesised
    """.split()  # noqa: SIM905
)


# Words by which a later clause points back at what an earlier one found ("…, but this
# association disappeared", "…, but this did not last", "…, yet adjustment removed it"): a
# determiner before a finding noun; a bare pro-form opening or closing the clause, or before
# an auxiliary or modal; "it" anywhere. "They" and "those" mostly name things, not findings.
FINDING_DETERMINERS = _words("the that this these those such its their")
FINDING_NOUNS = _words(
    "association associations correlation correlations relationship relationships relation "
    "relations link links effect effects difference differences benefit benefits finding "
    "findings result results trend trends observation observations signal signals advantage "
    "advantages improvement improvements reduction reductions increase increases decrease "
    "decreases protection impact impacts change changes rise decline gain gains loss same "
    "estimate estimates interval intervals"
)
BACK_POINTERS = _words("this these such")
BACK_PRONOUNS = _words("it")
# "…, but so did placebo": what the earlier clause found, the comparison did as well.
LIKEWISE_AUXILIARIES = _words("did does do was were is are has have had")
MODALS_AFTER_POINTER = _words("can could may might will would should must")


# Word beginnings by which a clause withdraws what it points back at ("disappeared",
# "was explained by confounding", "was reversed"), beside the negations and null words.
WITHDRAWING_STEMS = (
    "disappear", "vanish", "abolish", "attenuat", "lost", "revers", "explain", "confound",
    "weaken", "diminish", "eliminat", "spurious", "artifact", "artefact", "chance", "refut",
    "unconfirm", "disput", "overestimat", "exaggerat", "nullif", "offset", "counteract",
    "cancel", "bias",
)  # fmt: skip

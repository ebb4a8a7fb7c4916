"""Whether the sentence after a finding takes it back.

"Statins reduced LDL cholesterol in older adults. However, this reduction was not
statistically significant." The first sentence, quoted alone, reads as a yes; its source goes
on to withdraw it. A reader who follows the citation sees both, so a yes read off the first
is withheld (`Overstated.NEXT_SENTENCE`) when the next sentence opens by pointing back at the
finding ("This reduction", "The difference", "These effects", "It") and withdraws it: not
significant, no longer seen, disappeared or explained away, not sustained or replicated. A
pointer that names something else ("The effect on mortality …") and a withdrawal denied
("was not explained by confounding") take nothing back.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from engine.core.model import Claim
from engine.reading.significance import reports_no_significance
from engine.review.yes_frames import denies_lasting
from engine.text.clause_words import (
    BACK_POINTERS,
    BACK_PRONOUNS,
    FINDING_DETERMINERS,
    FINDING_NOUNS,
    LIKEWISE_AUXILIARIES,
    MODALS_AFTER_POINTER,
    WITHDRAWING_STEMS,
)
from engine.text.lexicon import NEGATIONS, STOP_WORDS
from engine.text.sentences import sentence_texts
from engine.text.stems import mention_stem
from engine.text.tokens import word_sequence

Words = tuple[str, ...]
# Words a next sentence may open with before it points back ("However, this effect …").
_OPENERS = frozenset({"however", "but", "yet", "nevertheless", "nonetheless", "still"})
_VERBS = LIKEWISE_AUXILIARIES | MODALS_AFTER_POINTER | NEGATIONS
# How far before a withdrawing word a negation denies it ("could not be explained by").
_DENIAL_REACH = 3
# Word beginnings that say a finding went or was never there.
_GONE = ("disappear", "vanish", "spurious", "artifact", "artefact", "chance")
# Word beginnings of what explains a finding away, within `_CAUSE_REACH` words after a
# withdrawing word: "attenuated after adjustment for age", "explained by confounding".
_AWAY = ("adjust", "confound", "correct", "control", "account", "bias", "chance")
_CAUSE_REACH = 5


def following_sentences(claims: Iterable[Claim], bodies: Mapping[str, str]) -> dict[str, str]:
    """Each claim's text with the sentence after it in the first cited body that holds it
    word for word; claims whose text is no body's, or ends one, are left out."""
    out: dict[str, str] = {}
    for claim in claims:
        text = claim.text.strip()
        for ref in claim.cites:
            body = bodies.get(ref, "")
            at = body.find(text) if text else -1
            if at < 0:
                continue
            rest = sentence_texts(body[at + len(text) :])
            if rest:
                out[claim.text] = rest[0]
            break
    return out


def withdrawn_after(finding: str, following: str) -> bool:
    """Whether `following`, the sentence after `finding` in its source, points back at the
    finding and withdraws it."""
    words = word_sequence(following)
    while words[:1] and words[0] in _OPENERS:
        words = words[1:]
    subject = _subject(words)
    if subject is None or not _about(subject, finding):
        return False
    rest = words[len(subject) :]
    pronoun = subject[0] in BACK_PRONOUNS
    if reports_no_significance(following):
        return True
    return not pronoun and (_withdraws(rest) or denies_lasting(rest))


def _subject(words: Words) -> Words | None:
    """The words a sentence opens on when they point back at a finding, up to its verb:
    "this reduction", "the difference in weight", "these", "it"; else None."""
    if not words:
        return None
    first = words[0]
    pointed = first in BACK_PRONOUNS or first in BACK_POINTERS
    named = first in FINDING_DETERMINERS and len(words) > 1 and words[1] in FINDING_NOUNS
    if not (pointed or named):
        return None
    verb = next((at for at, word in enumerate(words) if at and _verb(word)), None)
    return words[:verb] if verb is not None else None


def _verb(word: str) -> bool:
    """Whether a word may end a sentence's subject: an auxiliary, a modal, a negation or a
    past form ("disappeared")."""
    return word in _VERBS or (word.endswith("ed") and word not in FINDING_NOUNS)


def _about(subject: Words, finding: str) -> bool:
    """Whether every content word the subject names past its pointer and finding noun is one
    the finding uses: "the difference in weight" after a sentence on weight, not "the effect
    on mortality" after one on cholesterol."""
    said = {mention_stem(word) for word in word_sequence(finding)}
    named = [
        word
        for word in subject[1:]
        if word not in STOP_WORDS and word.isalpha() and word not in FINDING_NOUNS
    ]
    return all(mention_stem(word) in said for word in named)


def _withdraws(words: Words) -> bool:
    """Whether the words withdraw, no negation just before denying it: a word that says the
    finding went or was never there ("disappeared", "spurious", "due to chance", "no
    longer"), or one that says it weakened, only where adjustment, confounding or chance did
    it ("was attenuated after adjustment", "was explained by confounding"). In an experiment
    "This effect was abolished by TGR5 depletion" shows how it works, not that it is not so."""
    for at, word in enumerate(words):
        if word == "longer" and at and words[at - 1] == "no":
            return True
        if any(w in NEGATIONS for w in words[max(0, at - _DENIAL_REACH) : at]):
            continue
        if word.startswith(_GONE):
            return True
        after = words[at + 1 : at + 1 + _CAUSE_REACH]
        if word.startswith(WITHDRAWING_STEMS) and any(w.startswith(_AWAY) for w in after):
            return True
    return False

"""Questions and claims, one into the other: the yes/no reading and the claim a question asks.

A yes/no question ("Does aspirin reduce stroke?", "Is X associated with Y?") asks whether a
claim holds; `as_claim` gives that claim's words (the auxiliary and the question mark off),
which stance reads as it reads a stated claim, so "yes" is *supports* and "no" is
*contradicts*. A question that asks what, how or why has no yes/no reading.

`as_question` is the other way, a deterministic rewrite of a stated claim into the question
a researcher would type ("X reduces Y." -> "Does X reduce Y?"); the evaluation of natural
questions is built from it. It finds the claim's main verb by shape alone (a copula or a
modal, else the first third-person or plural-agreeing verb), so it is right for most short
declarative claims and falls back to "Is it the case that ...?" where it finds none.
"""

from __future__ import annotations

import re

# Auxiliaries that open a yes/no question.
_AUX = (
    "does", "do", "did", "is", "are", "was", "were", "can", "could", "has", "have", "had",
    "will", "would", "should", "may", "might", "must", "shall",
)  # fmt: skip
# "Can't" and "won't" are "ca" and "wo" before the joined negation, not "can" and "will".
_YES_NO = re.compile(
    rf"^\s*(?:can[’']t|won[’']t|shan[’']t|(?:{'|'.join(_AUX)})(?:n[’']t)?)(?![\w’'])",
    re.IGNORECASE,
)
# Framing a question may open with ("Is it true that", "Is there evidence that").
_LEAD_IN = re.compile(
    r"^\s*(?:(?:is|was)\s+it\s+(?:true|the\s+case|known)\s+that|"
    r"(?:is|are)\s+there\s+(?:any\s+)?(?:evidence|data|proof)\s+that|"
    r"does\s+(?:the\s+)?(?:evidence|literature|research)\s+(?:show|suggest|say)\s+that)\s+",
    re.IGNORECASE,
)
_COPULAS = frozenset(("is", "are", "was", "were"))
_MODALS = frozenset(("can", "could", "may", "might", "will", "would", "should", "must"))
_DO = frozenset(("does", "do", "did"))
_HAVE = frozenset(("has", "have", "had"))
# Words after which a word ending in -s is a noun, not a verb ("the levels", "of cells").
_BEFORE_NOUN = frozenset(
    ("the", "a", "an", "of", "in", "on", "with", "for", "and", "or", "to", "by", "from", "at",
     "its", "their", "these", "those", "this", "that", "some", "many", "all", "both", "as",
     "into", "between", "among", "than", "via", "per", "no")
)  # fmt: skip
# The verbs claims in the sciences are stated with, in their bare form. A word of this list
# after a plural subject, or in its -s or -ed form, is taken as the claim's main verb.
_VERBS = frozenset(
    """
    accelerate accompany account activate affect aggravate alleviate alter ameliorate amplify
    attenuate augment avert bind block boost cause change confer contain contribute control
    convert correlate correspond counteract cure damage decline decrease delay deplete depend
    determine develop differ diminish direct disrupt drive elevate elicit eliminate enable
    encode enhance enter evoke exacerbate exceed exhibit exist experience explain express
    facilitate fail follow form function generate govern happen harm help hinder impair impede
    improve increase induce influence inhibit initiate interact interfere involve lack lead
    limit lower maintain mediate modify modulate need occur offer outperform overcome play
    possess potentiate precede predict predispose prevent produce prolong promote protect
    provide raise receive recruit reduce regulate relate remain repress require rescue resist
    respond restore result reverse rise share show shorten signal slow stabilize stimulate
    suppress sustain target trigger undergo upregulate downregulate use vary worsen yield
    """.split()  # noqa: SIM905
)
_WORD = re.compile(r"\S+")


# A setting a question may open with before it asks ("In British men, does ...?").
_SETTING = re.compile(
    r"^\s*((?:in|among|for|during|after|at|on|under|within)\s[^,?]{1,80}),\s*", re.I
)


def yes_no(question: str) -> bool:
    """Whether the question asks for a yes or a no (it opens with an auxiliary, after a
    setting such as "In older adults," at most, and asks)."""
    text = _unset(question.strip())[0]
    return text.endswith("?") and _YES_NO.match(text) is not None


def _unset(text: str) -> tuple[str, str]:
    """The question without its opening setting, and the setting ("" when none)."""
    found = _SETTING.match(text)
    if found is None or _YES_NO.match(text[found.end() :]) is None:
        return text, ""
    return text[found.end() :], found.group(1)


def as_claim(question: str) -> str | None:
    """The claim a yes/no question asks about, in its own words; None for any other question.

    "Does aspirin reduce stroke?" -> "aspirin reduce stroke"; "Is it true that X causes Y?"
    -> "X causes Y". Inflection is left as it falls: stance reads stems.
    """
    if not yes_no(question):
        return None
    text, setting = _unset(question.strip())
    if setting:
        # The setting bounds the claim: "In men, does X raise Y?" asks "X raise Y in men".
        claim = as_claim(text)
        return f"{claim} {setting[:1].lower()}{setting[1:]}" if claim else None
    text = text.rstrip("?").strip()
    framed = _LEAD_IN.sub("", text, count=1)
    if framed != text:
        return framed
    aux = _YES_NO.match(text)
    assert aux is not None
    word = aux.group(0).strip().lower()
    rest = text[aux.end() :].strip()
    if word.endswith(("n't", "n’t")):
        rest = "not " + rest  # "Doesn't X reduce Y?" asks whether X does not reduce Y
    return rest


def as_question(claim: str) -> str:
    """The yes/no question a researcher would ask of a stated claim ("Does X reduce Y?")."""
    text = claim.strip().rstrip(".").strip()
    words = _WORD.findall(text)
    if not words:
        return claim
    for i in range(1, len(words)):
        found = _main_verb(words, i)
        if found is not None:
            aux, verb = found
            return _ask(aux, words[:i], [verb, *words[i + 1 :]] if verb else words[i + 1 :])
    return f"Is it the case that {_lower_first(text)}?"


def _main_verb(words: list[str], i: int) -> tuple[str, str] | None:
    """(auxiliary, verb) when words[i] is the claim's main verb; verb "" for a copula or modal.

    "is" -> ("Is", ""); "reduces" -> ("Does", "reduce"); "reduced" -> ("Did", "reduce");
    "reduce" after a plural subject -> ("Do", "reduce"); "has been" -> ("Has", "").
    """
    word = words[i]
    low = word.lower().strip(",;:")
    before = words[i - 1].lower().strip(",;:()")
    after = words[i + 1].lower() if i + 1 < len(words) else ""
    if low in _COPULAS or low in _MODALS or low in _DO:
        return low.capitalize(), ""
    if low in _HAVE:
        if after == "been" or after.endswith(("ed", "en")):
            return low.capitalize(), ""
        return ("Did" if low == "had" else "Does" if low == "has" else "Do"), "have"
    if not low.isalpha() or not word.islower() or before in _BEFORE_NOUN:
        return None
    if low.endswith("s") and not low.endswith(("ss", "us", "is")):
        base = _base(low)
        if base in _VERBS or low.endswith(("izes", "ates", "ifies")):
            return "Does", base
        return None
    if low.endswith("ed"):
        past = next((b for b in (low[:-1], low[:-2], low[:-3] + "y") if b in _VERBS), None)
        return ("Did", past) if past is not None and before not in _COPULAS else None
    if low in _VERBS and (before.endswith("s") or before[:1].isdigit() or before.endswith("%")):
        return "Do", low
    return None


def _base(verb: str) -> str:
    """The bare form of a third-person verb: "reduces" -> "reduce", "carries" -> "carry"."""
    if verb.endswith("ies") and len(verb) > 4:
        return verb[:-3] + "y"
    if verb.endswith(("ches", "shes", "sses", "xes", "oes")):
        return verb[:-2]
    return verb[:-1]


def _ask(aux: str, subject: list[str], rest: list[str]) -> str:
    said = " ".join([_lower_first(" ".join(subject)), *rest]).strip()
    return f"{aux} {said}?"


def _lower_first(text: str) -> str:
    """Lower-case the first letter unless the first word is a name or an acronym."""
    first = text.split(" ", 1)[0]
    if len(first) > 1 and (first[1:].lower() != first[1:] or not first[:1].isalpha()):
        return text
    return text[:1].lower() + text[1:]

"""Sentences that say what a study set out to do, or how, rather than what it found.

"To determine whether statins reduce hip fracture risk." is verbatim in its abstract, but
restating it answers nothing: the source asks the question, it does not settle it. The
offline reasoner restates only sentences that state something (`asks`), so a green answer
means the cited source says it; alignment reads a sentence's words for the same thing
(`open_question`, `reports_finding`), so an aim neither agrees nor disagrees with a claim.
"""

from __future__ import annotations

import re
from collections.abc import Set as AbstractSet

# A lead-in that frames the sentence without changing what its main clause does.
_LEAD = (
    r"(?:(?:here|thus|therefore|in\s+(?:this|the\s+present|the\s+current|our)\s+"
    r"(?:study|work|paper|report|review|trial|analysis))\s*,?\s+)?"
)
_INQUIRY_VERBS = (
    r"(?:determine|assess|evaluate|examine|investigate|test|compare|explore|identify|"
    r"estimate|describe|review|systematically\s+review|quantify|characteri[sz]e|measure|"
    r"analy[sz]e|establish|clarify|elucidate|ascertain|understand|address|study|define|"
    r"develop|report|summari[sz]e|validate|provide)"
)
_DID = (
    r"(?:aimed|sought|set\s+out|wanted|asked|hypothesi[sz]ed|investigated|examined|"
    r"assessed|evaluated|tested|explored|studied|compared|analy[sz]ed|measured|conducted|"
    r"performed|undertook|reviewed|surveyed|enrolled|recruited|randomi[sz]ed|searched|"
    r"collected|designed|used|determined\s+whether)"
)
_STUDY = r"(?:study|studies|trial|review|analysis|paper|work|report|experiment|survey)"
_ASKS = re.compile(
    rf"^\s*{_LEAD}(?:"
    rf"to\s+{_INQUIRY_VERBS}\b"
    rf"|we\s+(?:have\s+|also\s+|then\s+|therefore\s+|further\s+)?{_DID}\b"
    rf"|(?:the|our|its)\s+(?:main\s+|primary\s+)?(?:aim|objective|purpose|goal)s?\s+"
    rf"(?:of|was|were|is|are)\b"
    rf"|(?:this|the\s+present|the\s+current|our)\s+{_STUDY}\s+(?:was\s+designed|is\s+designed|"
    rf"aimed|aims|sought|seeks|examined|examines|investigated|investigates|evaluated|"
    rf"evaluates|assessed|assesses|describes|tested|tests|compared|compares)\b"
    rf"|whether\b"
    rf")",
    re.IGNORECASE,
)
# Words that report a result: "we examined X and found Y" states Y.
_FINDING = re.compile(
    r"\b(?:found|finds?|show(?:s|ed|n)?|demonstrat\w*|reveal\w*|indicat\w*|suggest\w*|"
    r"observ\w*|conclud\w*|confirm\w*|identified\s+that|reports?\s+that|reported\s+that|"
    r"provides?\s+evidence|resulted|led\s+to)\b",
    re.IGNORECASE,
)
# Structured-abstract headings under which sentences describe the study, not its results.
_METHOD_HEADINGS = frozenset(
    ["DESIGN", "METHOD", "METHODS", "METHODOLOGY", "MATERIALS", "SETTING", "SETTINGS",
     "PARTICIPANTS", "PATIENTS", "SUBJECTS", "POPULATION", "SAMPLE", "INTERVENTION",
     "INTERVENTIONS", "MEASURE", "MEASURES", "MEASUREMENT", "MEASUREMENTS", "MAIN", "OUTCOME",
     "OUTCOMES", "PRIMARY", "SECONDARY", "DATA", "SOURCES", "SEARCH", "STRATEGY", "SELECTION",
     "EXTRACTION", "ELIGIBILITY", "CRITERIA", "STUDY", "EXPOSURE", "EXPOSURES", "STATISTICAL",
     "ANALYSIS", "REGISTRATION", "TRIAL", "AND", "OF", "FOR"]
)  # fmt: skip


def asks(text: str, *, section: str = "") -> bool:
    """Whether the sentence states an aim, a question or a method rather than a finding.

    `section` is the structured-abstract heading the sentence sits under, if any: a
    sentence under a methods heading ("DESIGN, SETTING, AND PARTICIPANTS") describes the
    study unless it reports a result.
    """
    stripped = text.strip()
    if stripped.endswith("?"):
        return True
    finding = _FINDING.search(stripped) is not None
    if _ASKS.match(stripped) and not finding:
        return True
    words = re.findall(r"[A-Za-z]+", section.upper())
    return bool(words) and set(words) <= _METHOD_HEADINGS and not finding


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_CLOSING = " \t\n.\"'”’)]"  # what may close a sentence after its question mark
# A sentence with these words (and no finding word) states an aim or a gap, not a result.
_AIM_WORDS = _words(
    "whether objective objectives aim aims aimed purpose unknown unclear unexplored investigate "
    "investigated examine examined assess assessed evaluate evaluated determine explore "
    "explored hypothesized hypothesised"
)
_FINDING_WORDS = _words(
    "found find show shows showed shown demonstrate demonstrates demonstrated reveal revealed "
    "conclusion conclusions results observed indicate indicates confirm confirmed"
)


def open_question(text: str, words: AbstractSet[str]) -> bool:
    """Whether a sentence (its text and its lower-cased words) states an aim, a question or
    a gap rather than a result, by its words alone."""
    return (
        "whether" in words
        or text.rstrip(_CLOSING).endswith("?")  # also a quoted question: "Is it?".
        or bool(words & _AIM_WORDS and not words & _FINDING_WORDS)
    )


def reports_finding(words: AbstractSet[str]) -> bool:
    """Whether a sentence's lower-cased words include one that reports a result."""
    return bool(words & _FINDING_WORDS)

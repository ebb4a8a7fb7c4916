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

from engine.text.lexicon import BACKGROUND_HEADINGS, METHOD_HEADINGS

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
_STUDY = (
    r"(?:study|studies|trial|review|analysis|paper|work|report|experiment|survey|article|"
    r"chapter|overview|protocol|commentary)"
)
# What an author does in a review or an essay, said in the present or future: not a finding.
_PRESENTS = (
    r"(?:review|discuss|summari[sz]e|outline|highlight|focus|consider|address|examine|"
    r"explore|survey|cover)"
)
_ASKS = re.compile(
    rf"^\s*{_LEAD}(?:"
    rf"to\s+{_INQUIRY_VERBS}\b"
    rf"|we\s+(?:have\s+|also\s+|then\s+|therefore\s+|further\s+)?{_DID}\b"
    rf"|(?:the|our|its)\s+(?:main\s+|primary\s+)?(?:aim|objective|purpose|goal)s?\s+"
    rf"(?:of|was|were|is|are)\b"
    rf"|(?:this|the\s+present|the\s+current|our)\s+{_STUDY}\s+(?:was\s+designed|is\s+designed|"
    rf"aimed|aims|sought|seeks|examined|examines|investigated|investigates|evaluated|"
    rf"evaluates|assessed|assesses|describes|tested|tests|compared|compares|will|would|"
    rf"focus(?:es|ed)?|discuss(?:es|ed)?|summari[sz]es|highlights|outlines|reviews|"
    rf"provides\s+an?\s+(?:overview|summary|update)|considers|explores|addresses)\b"
    rf"|we\s+(?:will\s+|here\s+|briefly\s+|first\s+)?{_PRESENTS}\b"
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
# A sentence that says how material was gathered or handled ("Samples were obtained in cases
# of ...", "Patients were randomized to ..."), with no word that reports a result, describes
# the method.
_METHOD_PASSIVE = re.compile(
    r"\b(?:was|were|had\s+been|have\s+been|has\s+been|being)\s+(?:\w+ly\s+)?"
    r"(?:obtained|collected|recruited|enrolled|randomi[sz]ed|measured|analy[sz]ed|performed|"
    r"included|excluded|retrieved|searched|assessed|evaluated|followed|conducted|extracted|"
    r"screened|selected|sampled|genotyped|sequenced|stained|assigned|allocated|interviewed|"
    r"surveyed|recorded|calculated|estimated|quantified|determined|matched|stratified|"
    r"administered|harvested|cultured|imaged|scanned|reviewed|pooled|abstracted|tested|"
    r"documented|classified|categori[sz]ed|coded|defined|grouped|divided|computed|modell?ed|"
    r"adjusted|weighted|validated|registered|identified\s+(?:from|through|using|via|by))\b",
    re.IGNORECASE,
)
_RESULT = re.compile(
    r"\b(?:signific\w*|associat\w*|higher|lower|greater|less|more|fewer|increas\w*|"
    r"decreas\w*|reduc\w*|improv\w*|differ\w*|correlat\w*|predict\w*|effective\w*|"
    r"efficac\w*|compared|relative|odds|hazard|ratio|risk|rose|fell|declin\w*|elevat\w*)\b",
    re.IGNORECASE,
)
# What a publisher or a journal prints around a paper: never a finding.
_FURNITURE = re.compile(
    r"(?:^\s*(?:this|the)\s+(?:article|paper|chapter|work|abstract)\s+(?:is|forms|was|has\s+been|"
    r"appears|belongs)\b|©|\bcopyright\b|\ball\s+rights\s+reserved\b|\bsupplement\s+entitled\b|"
    r"\bpublished\s+by\b|\bthis\s+is\s+an\s+open[\s-]access\b|\bdistributed\s+under\s+the\b)",
    re.IGNORECASE,
)


def asks(text: str, *, section: str = "") -> bool:
    """Whether the sentence is not a finding: an aim, a question, a method, a heading.

    `section` is the structured-abstract heading the sentence sits under, if any: a
    sentence under a methods heading ("DESIGN, SETTING, AND PARTICIPANTS") describes the
    study unless it reports a result, and one under a background or objective heading
    says what was known or asked before the study, whatever it reports. A title or a
    section heading, a review's plan ("This review will focus on ...") and a passive
    account of the method ("Samples were obtained in cases of ...") are never findings.
    """
    stripped = text.strip()
    if stripped.endswith("?") or heading(stripped) or _FURNITURE.search(stripped):
        return True
    if not section and (inline := _INLINE_HEADING.match(stripped)):
        # A structured abstract read from a PDF keeps its heading on the sentence's line:
        # "SETTING Nurses' Health Study." sits under SETTING.
        section = inline.group(1)
    words = re.findall(r"[A-Za-z]+", section.upper())
    if words and set(words) <= BACKGROUND_HEADINGS and not set(words) <= {"AND", "OF", "THE"}:
        return True
    finding = _FINDING.search(stripped) is not None
    if _ASKS.match(stripped) and not finding:
        return True
    if _METHOD_PASSIVE.search(stripped) and not finding and not _RESULT.search(stripped):
        return True
    return bool(words) and set(words) <= METHOD_HEADINGS and not finding


# Capitals opening a sentence: the structured-abstract heading it sits under, kept inline.
_INLINE_HEADING = re.compile(r"^((?:[A-Z]{3,}[,:]?\s+(?:AND\s+|OF\s+)?)+)(?=[A-Z][a-z]|\d)")

# A heading or a title is a short run of words that closes no sentence.
_HEADING_WORDS = 14


def heading(text: str) -> bool:
    """Whether the text is a title or a section heading rather than a sentence.

    A sentence closes with a full stop, a question or an exclamation mark (a quote or a
    bracket may follow); a short line that does not, or a line in capitals, names a part.
    """
    stripped = text.strip().rstrip("\"'\u201d\u2019)]")
    letters = [c for c in stripped if c.isalpha()]
    if letters and sum(c.isupper() for c in letters) > 0.8 * len(letters) and len(letters) > 3:
        return True
    return not stripped.endswith((".", "!", "?", "\u3002")) and (
        len(stripped.split()) <= _HEADING_WORDS
    )


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

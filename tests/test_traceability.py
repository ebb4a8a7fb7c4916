import json

import pytest

from engine.core.model import ProseCitation
from engine.core.traceability import OrphanKind, Traceability, TraceMode, check_traceability

CLAIMS = {
    "c1": "Dose 5 mg cut pain by 30%; 10 mg had no effect.",
    "c2": "Aspirin reduced fever in adults, but ibuprofen reduced pain.",
    "c3": "Mice gained weight.",
}
KNOWN = {**CLAIMS, "c9": "Unverified guess."}


def cite(prose: str, *pairs: tuple[str, str]) -> list[ProseCitation]:
    """Citations for (fragment, claim) pairs located in the prose; "" cites all of it."""
    out = []
    for fragment, claim in pairs:
        start = prose.index(fragment) if fragment else 0
        out.append(ProseCitation(start, start + len(fragment or prose), claim))
    return out


def trace(prose: str, *pairs: tuple[str, str]) -> Traceability:
    return check_traceability(prose, CLAIMS, citations=cite(prose, *pairs), known=KNOWN)


@pytest.mark.parametrize(
    ("prose", "pairs", "mode", "orphans"),
    [
        ("Mice gained weight.", [("Mice gained weight.", "c3")], "citation", ()),
        ("Mice gained weight.", [("Mice gained", "c3")], "citation", ("uncited:weight",)),
        ("Mice gained weight.", [("", "c2")], "citation", ("Mice gained weight.",)),
        ("Unverified guess.", [("Unverified guess.", "c9")], "citation", ("Unverified guess.",)),
        (
            "Dose 10 mg cut pain by 30%.",
            [("", "c1")],
            "citation",
            ("Dose 10 mg cut pain by 30%.", "number:10", "number:30%"),
        ),
        (
            "Mice gained weight by 12%.",
            [("", "c3")],
            "citation",
            ("Mice gained weight by 12%.", "number:12%"),
        ),
        ("Rodents gained weight.", [("", "c3")], "citation", ("Rodents gained weight.",)),
        ("Ibuprofen reduced pain.", [("", "c2")], "citation", ()),
        (
            "Ibuprofen reduced pain, but aspirin reduced fever in adults.",
            [("", "c2")],
            "citation",
            ("Ibuprofen reduced pain, but aspirin reduced fever in adults.",),
        ),
        (
            "  DOSE 5 mg cut\tpain, by 30 % ",
            [("DOSE 5 mg cut\tpain, by 30 %", "c1")],
            "citation",
            (),
        ),
        ("mice gained WEIGHT", [], "fallback", ()),
        ("Mice gained lots of weight.", [], "fallback", ("Mice gained lots of weight.",)),
        (
            "Mice gained weight. 10 mg had no effect.",
            [],
            "fallback",
            ("Mice gained weight.", "10 mg had no effect.", "number:10"),
        ),
        (" \n\t ", [], "empty", ()),
        ("...", [], "fallback", ("...",)),
        ("—", [("—", "c3")], "citation", ("—",)),
        ("\u200b", [], "fallback", ("\u200b",)),
    ],
    ids=[
        "licensed",
        "uncited-word-in-licensed-sentence",
        "wrong-claim-cited",
        "claim-not-licensing",
        "recontextualised-number",
        "fabricated-number",
        "paraphrase",
        "compound-atom-licensed",
        "conjunct-reorder",
        "case-punctuation-spacing",
        "fallback-pass",
        "fallback-fail",
        "fallback-two-claims",
        "blank",
        "punctuation-only",
        "dash-only-cited",
        "zero-width-only",
    ],
)
def test_decision_table(
    prose: str, pairs: list[tuple[str, str]], mode: str, orphans: tuple[str, ...]
) -> None:
    result = trace(prose, *pairs)
    assert (result.ok, result.mode, result.orphans) == (not orphans, TraceMode(mode), orphans)


@pytest.mark.parametrize(
    ("prose", "pairs", "reason"),
    [
        ("Unverified guess.", [("", "c9")], "not a verified claim in the conclusion's"),
        ("Made up.", [("", "c7")], "c7, which is not a known claim"),
        ("Dose 10 mg cut pain by 30%.", [("", "c1")], 'has "10" where c1 has "5"'),
        ("Mice gained weight today.", [("", "c3")], 'adds "today"'),
        ("Mice gained.", [("", "c3")], 'drops "weight"'),
        ("Weight gained mice.", [("", "c3")], "reorders the words of c3"),
        ("Mice gained weight. Next.", [("Next.", "c3")], "cites no claim"),
    ],
    ids=["unverified", "unknown", "first-difference", "extra", "missing", "reorder", "uncited"],
)
def test_orphan_reasons(prose: str, pairs: list[tuple[str, str]], reason: str) -> None:
    result = trace(prose, *pairs)
    assert reason in result.sentences[0].reason
    assert result.sentences[0].claim is None


def test_spans_point_at_the_prose_as_given() -> None:
    prose = "Mice gained weight. Dose 10\u00a0mg cut pain by 30 %. Extra ’words’ here."
    result = trace(
        prose, ("Mice gained weight.", "c3"), ("Dose 10\u00a0mg cut pain by 30 %.", "c1")
    )
    located = [(s.kind, prose[s.start : s.end]) for s in result.spans]
    assert located == [
        (OrphanKind.SENTENCE, "Dose 10\u00a0mg cut pain by 30 %."),
        (OrphanKind.NUMBER, "10"),
        (OrphanKind.NUMBER, "30 %"),
        (OrphanKind.SENTENCE, "Extra ’words’ here."),
        (OrphanKind.UNCITED, "Extra"),
        (OrphanKind.UNCITED, "words"),
        (OrphanKind.UNCITED, "here"),
    ]
    assert len(result.orphans) == len(result.spans)


def test_uncited_number_is_reported_once() -> None:
    prose = "Mice gained weight. It was 7."
    result = trace(prose, ("Mice gained weight.", "c3"))
    assert result.orphans == ("It was 7.", "uncited:it", "uncited:was", "uncited:7")


def test_sentence_traces_name_the_licensing_claim() -> None:
    prose = "Mice gained weight. Aspirin reduced fever in adults."
    result = trace(prose, ("Mice gained weight.", "c3"), ("Aspirin reduced fever in adults.", "c2"))
    assert result.ok
    assert [(t.text, t.claim) for t in result.sentences] == [
        ("Mice gained weight.", "c3"),
        ("Aspirin reduced fever in adults.", "c2"),
    ]


def test_licensing_never_pools_claims() -> None:
    prose = "Mice gained weight and ibuprofen reduced pain."
    result = trace(prose, ("Mice gained weight and", "c3"), ("ibuprofen reduced pain.", "c2"))
    assert result.orphans == (prose,)
    assert "c3" in result.sentences[0].reason and "c2" in result.sentences[0].reason


def test_fallback_names_a_sentence_that_would_license_alone() -> None:
    result = check_traceability("Mice gained weight. Ibuprofen reduced pain.", CLAIMS)
    assert [t.reason.split(" alone")[0] for t in result.sentences] == ["restates c3", "restates c2"]


def test_to_dict_is_json() -> None:
    result = trace("Dose 10 mg cut pain by 30%.", ("", "c1"))
    data = json.loads(json.dumps(result.to_dict()))
    assert data["mode"] == "citation" and data["ok"] is False
    assert data["spans"][0]["kind"] == "sentence"
    assert data["sentences"][0]["claim"] is None


# A SciFact "sentence" that holds two sentences, the second with a ", but" clause.
A20 = (
    "Inhibiting A20 expression decreased GSC growth and survival. Elevated levels of A20 in "
    "GSCs contributed to apoptotic resistance: GSCs were less susceptible to TNFalpha-induced "
    "cell death than matched non-stem glioma cells, but A20 knockdown sensitized GSCs to "
    "TNFalpha-mediated apoptosis."
)


def test_a_claim_of_two_sentences_licenses_each_sentence_of_the_prose() -> None:
    cites = [ProseCitation(0, len(A20), "c1")]
    trace = check_traceability(A20, {"c1": A20}, citations=cites)
    assert trace.ok and [s.claim for s in trace.sentences] == ["c1", "c1"]


@pytest.mark.parametrize(
    ("claim", "prose", "ok"),
    [
        (
            "Drug A raised insulin levels; drug B lowered glucose levels.",
            "Drug A raised insulin levels.",
            True,
        ),
        (
            "Cells grew in culture, but only in mice fed a fat diet.",
            "Cells grew in culture.",
            False,
        ),
        (
            "These data suggest that drug A raised insulin levels.",
            "Drug A raised insulin levels.",
            False,
        ),
    ],
    ids=["independent-clause", "clause-losing-its-restriction", "clause-inside-embedding"],
)
def test_compound_claim_atoms_keep_their_restrictions(claim: str, prose: str, ok: bool) -> None:
    cites = [ProseCitation(0, len(prose), "c1")]
    assert check_traceability(prose, {"c1": claim}, citations=cites).ok is ok

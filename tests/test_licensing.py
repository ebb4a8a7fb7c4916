import pytest

from engine.core.licensing import (
    clause_atoms,
    extractively_licensed,
    independent_clauses,
    licensable_part,
    novel_tokens,
    respelt,
    restatement_forms,
    why_unlicensed,
)
from engine.text.tokens import word_sequence

# Real sentences from SciFact train abstracts.
SRGP = (
    "Loss of srgp-1 function results in improved engulfment of apoptotic cells, "
    "whereas srgp-1 overexpression inhibits apoptotic cell corpse removal."
)
TIMELESS = (
    "The TIMELESS/TIPIN complex suppresses telomere clustering and telomeric MiDAS, "
    "whereas the SMC5/6 complex promotes them."
)
SUGGEST = (
    "These results suggest that mutations in NT5C2 are associated with the outgrowth "
    "of drug-resistant clones in ALL."
)
WHETHER = "We test here whether a cooperation between astrocytes and neurons is a prerequisite."
PYLORI = (
    "H pylori infection may be an important cause of gastric cancer; between 35% and 55% "
    "of all cases may be associated with such an infection."
)
CONTEXT = (
    "Many observational studies have shown that physical activity reduces the risk of "
    "cognitive decline; however, evidence from randomized trials is lacking."
)
OBESITY = (
    "Obesity is associated with higher mortality in the general population, but this "
    "association is reversed in patients on dialysis."
)
EXCEPT = (
    "Such activation is present to varying degrees in all CARs studied, except the highly "
    "effective CD19 CAR."
)
NETS = (
    "Neutrophil extracellular traps (NETs) are implicated in autoimmunity, but how they are "
    "generated and their roles in sterile inflammation remain unclear."
)


@pytest.mark.parametrize(
    ("sentence", "clauses"),
    [
        (
            SRGP,
            (
                "Loss of srgp-1 function results in improved engulfment of apoptotic cells",
                "srgp-1 overexpression inhibits apoptotic cell corpse removal.",
            ),
        ),
        (
            TIMELESS,
            (
                "The TIMELESS/TIPIN complex suppresses telomere clustering and telomeric MiDAS",
                "the SMC5/6 complex promotes them.",
            ),
        ),
        (
            NETS,
            (
                "Neutrophil extracellular traps (NETs) are implicated in autoimmunity",
                "how they are generated and their roles in sterile inflammation remain unclear.",
            ),
        ),
        (SUGGEST, ()),
        (PYLORI, ()),
        (CONTEXT, ()),
        (EXCEPT, ()),
        ("Cells grew, but only in mice fed a fat diet.", ()),
        ("Cells grew in culture, and not in mice at all.", ()),
        ("If the dose was high, cells grew and mice died.", ()),
        ("Age, sex, and smoking status predicted the outcome.", ()),
        ("In mice, drug A raised insulin; drug B lowered it.", ()),
        ("Did drug A raise insulin; did drug B lower it?", ()),
        ("Drug A raised insulin levels; drug B lowered glucose levels.", None),
        ("Drug A reduced mortality, although this did not reach significance.", ()),
        ("Insulin levels rose, while the patients were fasting overnight.", ()),
        (OBESITY, ()),
        ("Coffee was linked to lower mortality, but the association disappeared later.", ()),
        ("Drug A reduced mortality by 20%; the difference was not significant.", ()),
        ("Drug A reduced mortality in the pilot, and this effect was not replicated.", ()),
        ("Drug A reduced mortality in the trial, but so did the placebo.", ()),
        ("Drug A reduced mortality in the trial, yet it was due to chance alone.", ()),
        (
            "Drug A reduced mortality in the trial, and the results were published.",
            ("Drug A reduced mortality in the trial", "the results were published."),
        ),
        ("Drug A reduced mortality, but the confidence interval included no effect.", ()),
        (
            "Drug A reduced mortality, and the trial protocol was published.",
            ("Drug A reduced mortality", "the trial protocol was published."),
        ),
    ],
    ids=[
        "whereas-real",
        "whereas-real-2",
        "but-real",
        "embedding-never-splits",
        "onset-preposition",
        "scope-word-before-split",
        "except-is-no-split-point",
        "but-only",
        "and-not",
        "if-condition-over-both",
        "serial-list",
        "introductory-phrase",
        "question",
        "two-independent-clauses",
        "although-concedes",
        "while-time-bounds",
        "reversed-real",
        "association-disappeared",
        "difference-not-significant",
        "effect-not-replicated",
        "so-did-placebo",
        "it-due-to-chance",
        "finding-noun-without-withdrawal",
        "interval-included-no-effect",
        "a-word-between-no-finding",
    ],
)
def test_independent_clauses(sentence: str, clauses: tuple[str, ...] | None) -> None:
    if clauses is None:
        clauses = ("Drug A raised insulin levels", "drug B lowered glucose levels.")
    assert independent_clauses(sentence) == clauses


@pytest.mark.parametrize(
    ("claim", "source", "licensed"),
    [
        (SRGP, SRGP, True),
        ("srgp-1 overexpression inhibits apoptotic cell corpse removal.", SRGP, True),
        ("Loss of srgp-1 function results in improved engulfment of apoptotic cells.", SRGP, True),
        (
            "Mutations in NT5C2 are associated with the outgrowth of drug-resistant clones in ALL.",
            SUGGEST,
            False,
        ),
        ("A cooperation between astrocytes and neurons is a prerequisite.", WHETHER, False),
        ("Such activation is present to varying degrees in all CARs studied.", EXCEPT, False),
        ("H pylori infection may be an important cause of gastric cancer.", PYLORI, False),
        ("Physical activity reduces the risk of cognitive decline.", CONTEXT, False),
        (
            "srgp-1 overexpression inhibits apoptotic cell corpse removal",
            f"Intro. {SRGP} End.",
            True,
        ),
        (f"{SRGP} {TIMELESS}", f"{TIMELESS} {SRGP}", True),
        ("Is the drug safe?", "Is the drug safe? We asked.", True),
        ("The drug is safe.", "Is the drug safe?", False),
        ("Is the drug safe?", "The drug is safe.", False),
        ("", SRGP, False),
        ("...", "...", False),
        ("Effect at p > 0.05.", "Effect at p < 0.05.", False),
        ("Tamoxifen helped ER- tumours.", "Tamoxifen helped ER+ tumours.", False),
        ("The change was –5% overall.", "The change was 5% overall.", False),
        ("Risk rose 10⁻³ fold.", "Risk rose 10^3 fold.", False),
        ("Risk rose 10^-3 fold.", "Risk rose 10⁻³ fold.", True),
    ],
    ids=[
        "whole-sentence",
        "second-clause",
        "first-clause",
        "inside-embedding",
        "inside-whether",
        "drops-except",
        "clause-before-onset",
        "inside-that-clause",
        "clause-in-context",
        "two-sentences-any-order",
        "same-question",
        "statement-from-question",
        "question-from-statement",
        "empty",
        "no-words",
        "comparator",
        "marker",
        "sign",
        "exponent",
        "exponent-spelt-two-ways",
    ],
)
def test_extractively_licensed(claim: str, source: str, licensed: bool) -> None:
    assert extractively_licensed(claim, source) is licensed


@pytest.mark.parametrize(
    ("claim", "source", "reason"),
    [
        (
            "Vitamin D prevents tuberculosis.",
            "We found no evidence that vitamin D prevents tuberculosis.",
            'inside "we found no evidence that',
        ),
        (
            "Smoking causes cancer in mice.",
            "Smoking causes cancer in mice only when combined with asbestos exposure.",
            'drops "only when combined with asbestos exposure"',
        ),
        ("Effect at p > 0.05.", "Effect at p < 0.05.", 'has ">" where the source has "<"'),
        ("Aspirin cut pain a lot.", "Aspirin cut pain.", 'adds "a lot"'),
        ("The drug is safe.", "Is the drug safe? Yes.", "leaves out"),
        ("Is it safe?", "It is safe.", "asks a question the source does not ask"),
    ],
    ids=["embedding", "restriction", "comparator", "added-words", "reordered-question", "question"],
)
def test_why_unlicensed_names_the_change(claim: str, source: str, reason: str) -> None:
    assert reason in why_unlicensed(claim, [source])


def test_why_unlicensed_without_text() -> None:
    assert why_unlicensed("Anything.", ["  "]) == "nothing cited holds text to restate"


@pytest.mark.parametrize(
    ("quote", "source", "kept"),
    [
        (SRGP, f"Intro. {SRGP}", SRGP),
        (
            "vitamin D prevents tuberculosis",
            "We found no evidence that vitamin D prevents tuberculosis.",
            None,
        ),
        (
            "srgp-1 overexpression inhibits apoptotic cell corpse removal.",
            SRGP,
            "srgp-1 overexpression inhibits apoptotic cell corpse removal.",
        ),
        (f"Cells grew. {SRGP}", f"Cells grew. {SRGP}", f"Cells grew. {SRGP}"),
        ("cells. Mice died.", "Drug A killed cells. Mice died.", "Mice died."),
    ],
    ids=["whole-sentence", "fragment", "clause", "two-sentences", "cut-first-sentence"],
)
def test_licensable_part(quote: str, source: str, kept: str | None) -> None:
    assert licensable_part(quote, source) == kept


def test_restatement_forms_follow_the_licensing_rule() -> None:
    forms = restatement_forms(f"{SUGGEST} {SRGP}")
    assert word_sequence(SRGP) in forms and word_sequence(SUGGEST) in forms
    assert word_sequence("srgp-1 overexpression inhibits apoptotic cell corpse removal") in forms
    # The clause inside the embedding is not an atom of its own.
    inner = word_sequence("mutations in NT5C2 are associated with the outgrowth")
    assert not any(form[: len(inner)] == inner for form in forms)


@pytest.mark.parametrize(
    ("claim", "atoms"),
    [
        ("Aspirin cut pain.", ("Aspirin cut pain.",)),
        (
            "Drug A raised insulin; drug B lowered it. C held.",
            ("Drug A raised insulin", "drug B lowered it.", "C held."),
        ),
        ("Cells grew, but only in mice fed fat.", ("Cells grew, but only in mice fed fat.",)),
        ("A, B and C rose.", ("A, B and C rose.",)),
    ],
    ids=["single", "clauses-and-sentences", "restricted", "list"],
)
def test_clause_atoms(claim: str, atoms: tuple[str, ...]) -> None:
    assert clause_atoms(claim) == atoms


@pytest.mark.parametrize(
    ("text", "support", "novel"),
    [
        (
            "Aspirin cures all cancers in every patient.",
            ["Aspirin use was associated with lower risk of colorectal cancer."],
            ("cures", "all", "cancers", "in", "every", "patient"),
        ),
        (
            "Lower risk of colorectal cancer was associated with aspirin use.",
            ["Aspirin use was associated with lower risk of colorectal cancer."],
            (),
        ),
        ("Risk fell by 20%.", ["Risk fell", "by 2%"], ("20%",)),
        ("Effect at p > 0.05.", ["Effect at p < 0.05."], (">",)),
    ],
    ids=["novel-words", "reordered-premise", "changed-number", "changed-comparator"],
)
def test_novel_tokens(text: str, support: list[str], novel: tuple[str, ...]) -> None:
    assert novel_tokens(text, support) == novel


STUDY = "Thus, this study establishes glutamate as the primary neurotransmitter in weight."


@pytest.mark.parametrize(
    ("claim", "spelt"),
    [
        ("Thus, this study estabilshes glutamate as the primary neurotransmiter in weight.", STUDY),
        ("Thus, thus study establishes glutamate as the primary neurotransmitter in weight.", None),
        ("Thus, this study establishes glutamate as the primary neurotransmittr in weight.", STUDY),
        ("Thus, this study establishes glutamate as the primary neurotransmitter in eight.", None),
        ("Thus, thin study establishes glutamate as the primary neurotransmitter in weight.", None),
    ],
    ids=["typos-in-long-words", "word-of-the-source", "dropped-letter", "number-word",
         "short-word"],
)  # fmt: skip
def test_a_restatement_is_respelt_only_over_typos_inside_long_words(
    claim: str, spelt: str | None
) -> None:
    assert respelt(claim, STUDY) == spelt

"""The soundness suite: mutated SciFact train sentences never answer grounded; verbatim ones do."""

import json
import random
from pathlib import Path

import pytest

from engine.datasets.scifact_text import (
    TrainSentence,
    fragments,
    rationales,
    restatement_payload,
    train_abstracts,
    train_sentences,
)
from engine.evaluation.mutations import FAMILIES, Shape
from engine.evaluation.soundness import (
    SoundnessReport,
    altered_copies,
    by_abstract,
    evaluate,
    grounded_answer,
    one_typo,
    quote_figures,
)
from engine.evaluation.soundness_payloads import mutant_payloads
from engine.evaluation.soundness_pdf import PDF_FAMILIES
from tests.cli import run

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = 160  # a fixed, seeded sample keeps the suite fast; the eval command runs them all


@pytest.fixture(scope="module")
def abstracts() -> dict[str, list[str]]:
    return train_abstracts()


@pytest.fixture(scope="module")
def sample(abstracts: dict[str, list[str]]) -> list[TrainSentence]:
    return random.Random(20201).sample(train_sentences(abstracts), SAMPLE)


@pytest.fixture(scope="module")
def report(abstracts: dict[str, list[str]], sample: list[TrainSentence]) -> SoundnessReport:
    chosen = {item.doc_id for item in sample}
    groups = [g for g in by_abstract(train_sentences(abstracts)) if g[0].doc_id in chosen][:40]
    return evaluate(sample, seed=5, abstracts=groups, index_sample=12, pdf_sample=3)


FAMILY_NAMES = [*sorted(FAMILIES), "index-tampering", *PDF_FAMILIES]


@pytest.mark.parametrize("family", FAMILY_NAMES, ids=FAMILY_NAMES)
def test_no_mutant_answers_grounded(report: SoundnessReport, family: str) -> None:
    score = next(f for f in report.families if f.family == family)
    assert score.mutants > 0, "the sample should exercise every family"
    assert score.leaks == 0, score.examples


WITH_CONTROLS = [
    "deduction-polarity", "deduction-role-swap", "deduction-number-swap", "deduction-reorder",
    "off-quote-body", "non-text-ground", "format-character", "lookalike-sign", "index-tampering",
    *PDF_FAMILIES,
]  # fmt: skip


@pytest.mark.parametrize("family", WITH_CONTROLS, ids=WITH_CONTROLS)
def test_each_family_s_unmutated_controls_still_answer(
    report: SoundnessReport, family: str
) -> None:
    score = next(f for f in report.families if f.family == family)
    assert score.controls > 0, "abstaining on everything must fail this suite"
    assert score.controls_answered == score.controls


def test_verbatim_whole_sentences_answer(report: SoundnessReport) -> None:
    assert report.control_sentences > 0.9 * SAMPLE
    assert report.control_answered == report.control_sentences, report.control_misses


def test_whole_abstracts_restated_sentence_by_sentence_answer(report: SoundnessReport) -> None:
    assert report.control_abstracts >= 30
    assert report.control_abstracts_answered == report.control_abstracts


def test_every_mutant_changes_the_words(sample: list[TrainSentence]) -> None:
    rng = random.Random(3)
    for item in sample[:40]:
        for fn in FAMILIES.values():
            for mutant in fn(item, rng):
                assert mutant.claim != mutant.source or mutant.shape is not Shape.RESTATEMENT


def test_deduction_mutants_hedge_at_most(sample: list[TrainSentence]) -> None:
    mutant = FAMILIES["deduction-novel"](sample[0], random.Random(1))[0]
    outs = [grounded_answer(p) for p in mutant_payloads(mutant)]
    assert outs == [False, False]


def test_unmutated_sentence_answers_in_both_quote_forms(sample: list[TrainSentence]) -> None:
    item = next(i for i in sample if not i.fragment)
    assert grounded_answer(restatement_payload([item]))


@pytest.mark.parametrize(
    ("sentences", "expected"),
    [
        (["It rose.", "It fell."], [False, False]),
        (["Svct2 (ref.", "4).", "Next one."], [True, True, False]),
        (["Of the adult Ae.", "aegypti collected, all died.", "Done."], [True, True, False]),
        (["Mean age 38 +/-", "13 years.", "Done."], [True, True, False]),
        (['"', "Obstruction matters.", "p53 functions as a factor."], [True, True, False]),
    ],
    ids=["whole", "unbalanced-bracket", "lowercase-continuation", "no-terminator", "no-word"],
)
def test_fragments_of_scifact_segmentation(sentences: list[str], expected: list[bool]) -> None:
    assert fragments(sentences) == expected


def test_one_typo_changes_one_word() -> None:
    rng = random.Random(0)
    text = "Aspirin reduced bleeding considerably in elderly patients."
    typo = one_typo(text, rng)
    assert typo is not None
    assert typo != text and len(typo.split()) == len(text.split())


def test_quote_figures_on_real_rationales(abstracts: dict[str, list[str]]) -> None:
    items = rationales(abstracts)[:120]
    figures = quote_figures(items, seed=2)
    assert figures.true_verified == figures.true_quotes == 120
    assert figures.typos_verified >= 0.95 * figures.typos
    assert figures.altered > 200 and figures.altered_verified == 0, figures.altered_examples


def test_altered_copies_say_something_else(abstracts: dict[str, list[str]]) -> None:
    item = rationales(abstracts)[0]
    copies = altered_copies(item, random.Random(0))
    assert copies and item.text not in copies


def test_eval_soundness_command_prints_the_table() -> None:
    done = run("eval", "soundness", "--sample", "12", "--pdf-sample", "1", "--json", timeout=300)
    assert done.code == 0, done.err
    out = json.loads(done.out)
    names = {*FAMILIES, "index-tampering", *PDF_FAMILIES}
    assert {f["family"] for f in out["soundness"]["families"]} == names
    assert all(f["leaks"] == 0 for f in out["soundness"]["families"])
    assert out["quote_check"]["altered_verified"] == 0


def test_eval_soundness_refuses_a_bad_sample() -> None:
    done = run("eval", "soundness", "--sample", "0", timeout=60)
    assert done.code == 2
    assert done.err.startswith("error:") and "Traceback" not in done.err

"""Soundness of grounded answers on real text: mutate SciFact train sentences, count leaks.

Each family takes one real sentence of a train-cited abstract and makes *mutants*: a claim
the source does not license (the claim restates a span inside an embedding, drops a
restriction, flips a comparator, a marker, a sign or an exponent, changes a number, deletes
a negation) or a deduction that says more than its premise. Every mutant is routed twice:
quoting the source sentence it came from, and quoting the mutant itself. A *leak* is a
mutant answered as grounded. The control routes every unmutated sentence as a verbatim,
exactly cited restatement, alone and abstract by abstract; it must answer.

The families live in `engine.evaluation.mutations`; a seeded run is reproducible.
"""

from __future__ import annotations

import random
import re
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.api import route_payload
from engine.core.quote import verify_quote
from engine.datasets.scifact_text import TrainSentence, restatement_payload

# Its families register with FAMILIES on import, as mutations_signs's do.
from engine.evaluation import overstatements, taken_back  # noqa: F401
from engine.evaluation.mutations import FAMILIES, FamilyScore
from engine.evaluation.mutations_grounds import CONTROLS
from engine.evaluation.mutations_signs import FRAME_FAMILIES
from engine.evaluation.soundness_index import index_tampering
from engine.evaluation.soundness_payloads import mutant_payloads, write_ground_files
from engine.evaluation.soundness_pdf import pdf_families
from engine.text.tokens import word_sequence


@dataclass(frozen=True)
class SoundnessReport:
    """The table: per family, mutants and leaks; the control answer rates."""

    families: tuple[FamilyScore, ...]
    control_sentences: int
    control_answered: int
    control_abstracts: int
    control_abstracts_answered: int
    control_misses: tuple[str, ...]
    fragments: int = 0
    fragments_answered: int = 0

    @property
    def control_rate(self) -> float:
        return self.control_answered / self.control_sentences if self.control_sentences else 0.0

    @property
    def abstract_rate(self) -> float:
        if not self.control_abstracts:
            return 0.0
        return self.control_abstracts_answered / self.control_abstracts

    @property
    def leaks(self) -> int:
        return sum(f.leaks for f in self.families)

    def table(self) -> str:
        """The figures as a plain-text table."""
        lines = [f"{'family':<28} {'mutants':>8} {'leaks':>6} {'controls answered':>18}"]
        for f in self.families:
            shown = f"{f.controls_answered:,}/{f.controls:,}" if f.controls else "—"
            lines.append(f"{f.family:<28} {f.mutants:>8,} {f.leaks:>6,} {shown:>18}")
        lines.append(
            f"control: {self.control_answered:,}/{self.control_sentences:,} sentences answer "
            f"({100 * self.control_rate:.2f}%), {self.control_abstracts_answered:,}/"
            f"{self.control_abstracts:,} abstracts restated sentence by sentence answer "
            f"({100 * self.abstract_rate:.2f}%)"
        )
        lines.append(
            f"not controls: {self.fragments:,} SciFact sentences that are fragments (cut short "
            f"by SciFact's own segmentation), of which {self.fragments_answered:,} answer anyway"
        )
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        return {
            "families": [
                {
                    "family": f.family,
                    "mutants": f.mutants,
                    "leaks": f.leaks,
                    "examples": f.examples,
                    "controls": f.controls,
                    "controls_answered": f.controls_answered,
                    "control_misses": f.control_misses,
                }
                for f in self.families
            ],
            "control": {
                "sentences": self.control_sentences,
                "answered": self.control_answered,
                "rate": round(self.control_rate, 4),
                "abstracts": self.control_abstracts,
                "abstracts_answered": self.control_abstracts_answered,
                "abstract_rate": round(self.abstract_rate, 4),
                "misses": list(self.control_misses),
                "fragments_excluded": self.fragments,
                "fragments_answered": self.fragments_answered,
            },
        }


def by_abstract(items: Iterable[TrainSentence]) -> list[list[TrainSentence]]:
    """The sentences grouped by abstract, in first-seen order."""
    docs: dict[str, list[TrainSentence]] = {}
    for item in items:
        docs.setdefault(item.doc_id, []).append(item)
    return list(docs.values())


def grounded_answer(payload: dict[str, Any], workspace: Path | None = None) -> bool:
    """Whether routing the payload gives a grounded (or measured) answer, not a hedge."""
    out = route_payload(payload, workspace=workspace)
    return out["verdict"] == "answer" and not out["hedged"]


def evaluate(
    items: Sequence[TrainSentence],
    *,
    seed: int = 0,
    families: Iterable[str] | None = None,
    abstracts: Iterable[Sequence[TrainSentence]] = (),
    index_sample: int = 40,
    pdf_sample: int = 12,
) -> SoundnessReport:
    """Mutate `items` with every family (seeded), route, and run the controls.

    The sentence control restates each of `items` alone; the abstract control restates
    each of `abstracts` (all the sentences of one abstract) sentence by sentence; each
    family's own controls (its shape, unmutated) must answer as well. The index family
    forges the search index of a workspace of `index_sample` of `abstracts`; the PDF
    families (`pdf-…`) build papers from `pdf_sample` sentences of `abstracts` each.
    """
    abstracts = list(abstracts)
    rng = random.Random(seed)
    names = list(families) if families is not None else list(FAMILIES)
    scores = {name: FamilyScore(name) for name in names if name in FAMILIES}
    with tempfile.TemporaryDirectory(prefix="synapse-soundness-") as folder:
        grounds = write_ground_files(Path(folder))
        for item in items:
            for name in scores:
                score = scores[name]
                for mutant in FAMILIES[name](item, rng):
                    score.mutants += 1
                    if any(grounded_answer(p, grounds) for p in mutant_payloads(mutant)):
                        score.leaks += 1
                        if len(score.examples) < 5:
                            score.examples.append(f"{mutant.claim} <= {mutant.source}")
                control = _none if item.fragment else CONTROLS.get(_control_key(name), _none)
                for mutant in control(item, rng):
                    score.controls += 1
                    if all(grounded_answer(p, grounds) for p in mutant_payloads(mutant)):
                        score.controls_answered += 1
                    elif len(score.control_misses) < 5:
                        score.control_misses.append(mutant.claim or mutant.ground or "")
    controls = [item for item in items if not item.fragment]
    misses: list[str] = []
    answered = pieces_answered = 0
    for item in items:
        ok = grounded_answer(restatement_payload([item]))
        if item.fragment:
            pieces_answered += ok
        elif ok:
            answered += 1
        elif len(misses) < 20:
            misses.append(item.text)
    # An abstract is restated whole only when SciFact cut none of its sentences short.
    whole = [g for g in abstracts if not any(i.fragment for i in g)]
    whole_answered = sum(grounded_answer(restatement_payload(group)) for group in whole)
    if index_sample > 0 and abstracts and (families is None or "index-tampering" in names):
        scores["index-tampering"] = index_tampering(abstracts, sample=index_sample, seed=seed)
    wanted = families is None or any(name.startswith("pdf-") for name in names)
    if pdf_sample > 0 and abstracts and wanted:
        for score in pdf_families(abstracts, sample=pdf_sample, seed=seed):
            if families is None or score.family in names:
                scores[score.family] = score
    return SoundnessReport(
        tuple(scores.values()),
        len(controls),
        answered,
        len(whole),
        whole_answered,
        tuple(misses),
        len(items) - len(controls),
        pieces_answered,
    )


def _none(item: TrainSentence, rng: random.Random) -> list[Any]:
    return []


def _control_key(family: str) -> str:
    # The frame families share one control: the spec's own number deduction, like with like.
    if family in FRAME_FAMILIES:
        return "deduction-frame"
    # The other deduction families share one: the premise restated word for word.
    shared = family.startswith("deduction-") and family != "deduction-novel"
    return "deduction" if shared else family


# --- the quote check on real rationale sentences ---------------------------------------


@dataclass
class QuoteFigures:
    """How the quote check treats true quotes, one-typo copies and altered copies."""

    true_quotes: int = 0
    true_verified: int = 0
    typos: int = 0
    typos_verified: int = 0
    altered: int = 0
    altered_verified: int = 0
    altered_examples: list[str] = field(default_factory=list)

    def table(self) -> str:
        def rate(done: int, total: int) -> str:
            return f"{done:,}/{total:,} ({100 * done / total:.2f}%)" if total else "0/0"

        rows = (
            ("true quotes", self.true_verified, self.true_quotes),
            ("one-typo copies", self.typos_verified, self.typos),
            ("altered copies", self.altered_verified, self.altered),
        )
        return "\n".join(
            f"quote check, {name + ' verified:':<25} {rate(done, total)}"
            for name, done, total in rows
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "true_quotes": self.true_quotes,
            "true_verified": self.true_verified,
            "typos": self.typos,
            "typos_verified": self.typos_verified,
            "altered": self.altered,
            "altered_verified": self.altered_verified,
            "altered_examples": self.altered_examples,
        }


_LETTERS = "abcdefghijklmnopqrstuvwxyz"
# Families whose claims are not altered copies of the sentence: an edited source, a
# deduction, or a note's own words beside a true quote.
_NOT_COPIES = frozenset(
    {"scope-truncation", "dropped-restriction", "off-quote-body", "non-text-ground"}
)
_TYPO_WORD = re.compile(r"(?<![\w-])[a-z]{6,}(?![\w-])")
_ANTONYMS = (
    ("increased", "decreased"),
    ("decreased", "increased"),
    ("higher", "lower"),
    ("lower", "higher"),
    ("positive", "negative"),
    ("negative", "positive"),
    ("inhibits", "activates"),
    ("reduced", "elevated"),
    ("associated", "unassociated"),
)
_COMPOUND = re.compile(r"\b([A-Za-z]+)-([a-z]{4,})\b")


def one_typo(text: str, rng: random.Random) -> str | None:
    """`text` with one in-word typo (a letter substituted, dropped, doubled or swapped)."""
    words = list(_TYPO_WORD.finditer(text))
    if not words:
        return None
    found = rng.choice(words)
    word = found.group()
    at = rng.randrange(1, len(word) - 1)
    kind = rng.randrange(4)
    if kind == 0:
        letter = rng.choice([c for c in _LETTERS if c != word[at]])
        typo = word[:at] + letter + word[at + 1 :]
    elif kind == 1:
        typo = word[:at] + word[at + 1 :]
    elif kind == 2:
        typo = word[:at] + word[at] + word[at:]
    else:
        typo = word[:at] + word[at + 1] + word[at] + word[at + 2 :]
    if typo == word:
        return None
    return text[: found.start()] + typo + text[found.end() :]


def altered_copies(item: TrainSentence, rng: random.Random) -> list[str]:
    """Copies of the sentence that say something else: every mutation family's claims, an
    antonym swapped, a negating prefix put into a hyphenated compound, a word dropped."""
    out = [
        m.claim
        for name, fn in FAMILIES.items()
        if name not in _NOT_COPIES and not name.startswith("deduction-")
        for m in fn(item, rng)
        if m.source == item.text
    ]
    for word, opposite in _ANTONYMS:
        hit = re.search(rf"\b{word}\b", item.text)
        if hit:
            out.append(item.text[: hit.start()] + opposite + item.text[hit.end() :])
    compound = _COMPOUND.search(item.text)
    if compound:
        prefix = "un" if not compound.group(2).startswith("un") else "non-"
        out.append(item.text[: compound.start(2)] + prefix + item.text[compound.start(2) :])
    words = item.text.split(" ")
    if len(words) > 4:
        drop = rng.randrange(1, len(words) - 1)
        out.append(" ".join(words[:drop] + words[drop + 1 :]))
    # A copy that is a span of the sentence as it stands ("Absence of X impaired …" without
    # its first words) is found exactly, as it should be: licensing, not the quote check,
    # refuses a span inside a sentence.
    return [
        text
        for text in dict.fromkeys(out)
        if word_sequence(text) != word_sequence(item.text)
        and text.strip().rstrip(".").lower() not in item.text.lower()
    ]


def quote_figures(items: Sequence[TrainSentence], *, seed: int = 0) -> QuoteFigures:
    """Check each sentence, a one-typo copy and its altered copies against its abstract."""
    # Typos and altered copies draw from streams of their own, so a family added to the
    # suite (which draws for its copies) leaves the typo sample as it was.
    rng, typos = random.Random(seed), random.Random(f"typos-{seed}")
    figures = QuoteFigures()
    for item in items:
        figures.true_quotes += 1
        figures.true_verified += verify_quote(item.text, item.abstract).verified
        typo = one_typo(item.text, typos)
        if typo is not None:
            figures.typos += 1
            figures.typos_verified += verify_quote(typo, item.abstract).verified
        for altered in altered_copies(item, rng):
            figures.altered += 1
            if verify_quote(altered, item.abstract).verified:
                figures.altered_verified += 1
                if len(figures.altered_examples) < 5:
                    figures.altered_examples.append(f"{altered} <= {item.text}")
    return figures

"""A large library built in minutes: a few real PDFs, read once, added as thousands of papers.

The Library page reads what an import writes: `sources/<key>.txt`, its sidecar, the PDF
kept beside it and the import record. Reading 2,000 dense PDFs takes most of an hour on a
small machine, so here a handful of generated PDFs are read by the real PDF worker once,
and 2,000 files named the way Zotero names attachments ("Okafor et al. - 2014 - Title.pdf":
distinct citekeys, names, titles and years) are added by `add_pdfs` itself, its extractor
handing back the worker's own result for bytes it has read before. Every file in the
workspace is written by the importer's writer, as a real import writes it; only the text of
papers made from one base PDF is the same.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from pathlib import Path

from bench.bench_importers import _pages, _sentences
from engine.importers.pdf import PdfFailure, PdfText
from engine.importers.pdf_worker import PdfWorker
from engine.importers.sources import AddReport, add_pdfs, collect_pdfs
from tests.builders.pdfgen import write_pdf

BASES = 6  # real PDFs, each read once

_SURNAMES = [
    "Okafor",
    "Lindqvist",
    "Tanaka",
    "Moreau",
    "Haddad",
    "Novak",
    "Castillo",
    "Brennan",
    "Achebe",
    "Kowalski",
    "Ferreira",
    "Nakamura",
    "Osei",
    "Petrov",
    "Quinn",
    "Rahman",
    "Schulz",
    "Thorsen",
    "Umeh",
    "Varga",
    "Whitfield",
    "Yilmaz",
]
_WORDS = [
    "sleep",
    "memory",
    "cortex",
    "plasticity",
    "inflammation",
    "statin",
    "fracture",
    "cohort",
    "trial",
    "dopamine",
    "microbiome",
    "insulin",
    "receptor",
    "neuron",
    "synapse",
    "vaccine",
    "tumour",
    "signalling",
    "ageing",
    "exercise",
]


@dataclass(frozen=True)
class Replayed:
    """An extractor that reads each distinct PDF once with the real worker, then replays it."""

    worker: PdfWorker
    seen: dict[str, PdfText | PdfFailure]

    def extract(self, data: bytes) -> PdfText | PdfFailure:
        digest = hashlib.sha256(data).hexdigest()
        if digest not in self.seen:
            self.seen[digest] = self.worker.extract(data)
        return self.seen[digest]


def build_library(workspace: Path, folder: Path, *, papers: int, pages: int) -> AddReport:
    """Add `papers` PDFs of `pages` pages each to `workspace` (files written in `folder`)."""
    rng = random.Random(35)
    sentences = _sentences()
    bases = []
    for n in range(BASES):
        framed = [
            [f"Journal of Benchmarks {n}", *page, f"Page {i}"]
            for i, page in enumerate(_pages(sentences, pages, rng), 1)
        ]
        bases.append(write_pdf(folder / "bases" / f"base{n}.pdf", framed).read_bytes())
    shelf = folder / "shelf"
    shelf.mkdir(parents=True, exist_ok=True)
    keys: set[tuple[str, int, str]] = set()
    for n in range(papers):
        surname, year, words = _name(rng, n)
        while (surname, year, words[0]) in keys:  # the citekey: surname, year, first word
            surname, year, words = _name(rng, n)
        keys.add((surname, year, words[0]))
        who = f"{surname}{' et al.' if n % 3 else ''}"
        title = " ".join([words[0].capitalize(), *words[1:]])
        (shelf / f"{who} - {year} - {title}.pdf").write_bytes(bases[n % BASES])
    with PdfWorker() as worker:
        return add_pdfs(workspace, collect_pdfs([str(shelf)]), extractor=Replayed(worker, {}))


def _name(rng: random.Random, n: int) -> tuple[str, int, list[str]]:
    # The number keeps every title distinct.
    return rng.choice(_SURNAMES), rng.randrange(1975, 2026), [*rng.sample(_WORDS, 4), str(n + 1)]

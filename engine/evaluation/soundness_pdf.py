"""What a reader sees, on real sentences: PDFs built from SciFact abstracts, added, asked.

Each family writes small papers from train sentences, adds them with `sources add` (the
real extraction, in its worker process) to a workspace of sources only, and asks; a leak is
a green ANSWER the page does not give. Each family's controls are the same shape with
nothing hidden or mangled: they must answer.

- `pdf-hidden-<trick>`: the page shows a sentence and hides the same sentence with a word
  added ("… in zorblax"); asking the hidden one must not answer. Its control paints the
  hidden line visibly in the nearest honest way (plain, the text layer of a scan over its
  image, white on a dark banner), and must answer.
- `pdf-draw-order`: a sentence with "not" or "no", that word painted after the rest of the
  page; asking the sentence without it must not answer with the negation gone. Control: the
  sentence itself, asked.
- `pdf-rejoin`: the word before the negation ends a line with a hyphen; the same question.
  Control: a long word of the sentence split at a line end, the paper using it whole too.
- `pdf-running-header`: "We found no evidence that" opens three pages, each a sentence;
  asking a sentence must not answer with the embedding gone. Control: a journal name there
  instead, removed as a running header; the sentence answers.
"""

from __future__ import annotations

import random
import re
import tempfile
from collections.abc import Sequence
from pathlib import Path

from engine.api import ask, open_workspace
from engine.datasets.scifact_text import TrainSentence
from engine.evaluation.mutations import FamilyScore
from engine.evaluation.pdf_tricks import (
    LEADING,
    TOP,
    TRICKS,
    hiding_pdf,
    order_pdf,
    pages_pdf,
    text_ops,
)
from engine.importers.pdf_worker import PdfWorker
from engine.importers.sources import add_pdfs
from engine.reading.aims import asks

FORGED = "zorblax"
# The honest painting closest to each trick: its control.
NEAREST = {"render-invisible": "scan-text-layer", "white-on-white": "white-on-banner"}
EMBEDDING = "We found no evidence that"
HEADER = "Journal of Evidence Studies"
# The line below the sentence, drawn before the word painted last.
AFTER = "Further results are given in the tables."
_NEGATION = re.compile(r"(?<=\s)(not|no)(?=\s)")
_LONG = re.compile(r"\b[a-z]{9,}\b")

Case = tuple[bytes, str, str | None]  # the PDF, the question, the words a green must show
PDF_FAMILIES = (
    *(f"pdf-hidden-{trick}" for trick in TRICKS),
    "pdf-draw-order",
    "pdf-rejoin",
    "pdf-running-header",
)


def pdf_families(
    groups: Sequence[Sequence[TrainSentence]], *, sample: int = 12, seed: int = 0
) -> list[FamilyScore]:
    """Every family's attacks and controls over `sample` sentences of `groups`."""
    rng = random.Random(seed)
    whole = [list(g) for g in groups if not any(i.fragment for i in g)]
    # Only findings are ever the answer: an aim, a method or a heading asked of is no control.
    plain = [i for g in whole for i in g if _plain(i.text) and not asks(i.text)]
    chosen = rng.sample(plain, min(sample, len(plain)))
    # Courier, which places the word drawn last, sets fewer characters to a line.
    negated = [i for i in plain if _NEGATION.search(i.text) and len(i.text) <= 80]
    negated = rng.sample(negated, min(sample, len(negated)))
    papers = [
        p for g in whole if len(p := [i.text for i in g if _plain(i.text)]) >= 3 and not asks(p[1])
    ]
    papers = rng.sample(papers, min(sample, len(papers)))
    builders: dict[str, tuple[list[Case], list[Case]]] = {}
    for trick in TRICKS:
        honest = NEAREST.get(trick, "visible")
        builders[f"pdf-hidden-{trick}"] = (
            [_hidden(i.text, trick) for i in chosen],
            [_hidden(i.text, honest) for i in chosen],
        )
    builders["pdf-draw-order"] = (
        [_drawn_last(i.text) for i in negated],
        [(order_pdf(i.text, _NEGATION.findall(i.text)[0], AFTER), i.text, None) for i in negated],
    )
    builders["pdf-rejoin"] = (
        [_glued(i.text) for i in negated],
        [c for i in chosen if (c := _split_word(i.text)) is not None],
    )
    builders["pdf-running-header"] = (
        [_pages(p, EMBEDDING) for p in papers],
        [_pages(p, HEADER) for p in papers],
    )
    with tempfile.TemporaryDirectory(prefix="synapse-pdf-attack-") as folder, PdfWorker() as worker:
        asker = _Asker(Path(folder), worker)
        return [
            _score(name, attacks, controls, asker) for name, (attacks, controls) in builders.items()
        ]


class _Asker:
    """Adds one PDF to a fresh workspace and asks one question of it."""

    def __init__(self, root: Path, worker: PdfWorker) -> None:
        self.root, self.worker, self.count = root, worker, 0

    def __call__(self, case: Case) -> bool:
        """Whether the case answers green (with the words it must show, when it names them)."""
        data, question, must_show = case
        self.count += 1
        workspace = self.root / f"ws{self.count}"
        pdf = self.root / f"paper{self.count}.pdf"
        pdf.write_bytes(data)
        add_pdfs(workspace, [pdf], extractor=self.worker)
        opened = open_workspace(workspace)
        try:
            result = ask(opened, question)
        finally:
            opened.close()
        if result.label != "ANSWER":
            return False
        said = " ".join(result.prose.split())
        return must_show is None or not re.search(rf"\b{re.escape(must_show)}\b", said)


def _score(name: str, attacks: list[Case], controls: list[Case], asker: _Asker) -> FamilyScore:
    leaked = [case[1] for case in attacks if asker(case)]
    answered = [asker(case) for case in controls]
    misses = [case[1] for case, ok in zip(controls, answered, strict=True) if not ok]
    score = FamilyScore(name, len(attacks), len(leaked), leaked[:5], len(controls), sum(answered))
    score.control_misses.extend(misses[:5])
    return score


def _hidden(sentence: str, trick: str) -> Case:
    claim = sentence.rstrip().rstrip(".") + f" in {FORGED}."
    return hiding_pdf(sentence, claim, trick), claim, None


def _drawn_last(sentence: str) -> Case:
    word = _NEGATION.findall(sentence)[0]
    return order_pdf(sentence, word, AFTER), _without(sentence, word), word


def _glued(sentence: str) -> Case:
    found = _NEGATION.search(sentence)
    assert found is not None
    head, tail = sentence[: found.start()].rstrip(), sentence[found.start() :]
    return _paper([[f"{head}-", tail]]), _without(sentence, found.group(1)), found.group(1)


def _split_word(sentence: str) -> Case | None:
    found = _LONG.search(sentence)
    if found is None or not _plain(sentence):
        return None
    cut = found.start() + (found.end() - found.start()) // 2
    lines = [sentence[:cut] + "-", sentence[cut:], f"Keywords: {found.group()}."]
    return _paper([lines]), sentence, None


def _pages(sentences: Sequence[str], opener: str) -> Case:
    bodies = list(sentences[:3])
    must_show = EMBEDDING if opener == EMBEDDING else None
    return _paper([[opener, body] for body in bodies]), bodies[1], must_show


def _without(sentence: str, word: str) -> str:
    return re.sub(rf"\s{word}\s", " ", sentence, count=1)


def _plain(text: str) -> bool:
    # The writer sets Latin-1 text on one line of the page: short sentences in that alphabet.
    # A sentence still carrying its structured-abstract heading ("RESULTS At age 2 …") asks a
    # question with the heading in it, which the page's passage rightly splits off.
    heading = re.match(r"[A-Z]{4,}\b", text) is not None
    return len(text) <= 90 and all(ord(char) < 256 for char in text) and not heading


def _paper(pages: list[list[str]]) -> bytes:
    drawn = [
        b"\n".join(text_ops(line, TOP - LEADING * n) for n, line in enumerate(lines))
        for lines in pages
    ]
    return pages_pdf(drawn)

"""A held-out check on a library of your own: its sentences answered, their mutants never green.

Our figures come from SciFact, Climate-FEVER and generated papers; a researcher's library is
none of these. This check needs nothing but the library: sentences of its passages, picked
with a fixed seed, are asked as they stand (each should answer, citing its paper or one that
states the same sentence), and again mutated by the soundness families that apply to any
sentence (a number, sign or exponent changed, a comparator or a hedge flipped, a negation
dropped, a restriction cut): none of those may be answered green with a yes (the stance
supporting the claim). A green "no", citing the sentence that says otherwise, is the right
answer to a mutant and is counted as such; a green whose stance reads neither (or that
reads no yes or no at all, for a mutant that no longer reads as a claim) shows the source's
own sentence without saying yes. It also times what the researcher waits for in
this process: the first question and the rest's p50 and p95.
"""

from __future__ import annotations

import random
import statistics
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from engine.core.stance import StanceRelation
from engine.datasets.scifact_text import TrainSentence
from engine.evaluation.mutations import FAMILIES, Shape
from engine.evaluation.overstatements import OVERSTATEMENTS
from engine.navigation.result import NavResult
from engine.text.tokens import word_sequence
from engine.workspace.opened import OpenWorkspace
from engine.workspace.passage_notes import passage_place
from engine.workspace.source_texts import paper_key

# The families whose mutants change what the sentence states: asked of the library, none may
# be answered yes. Scope truncation is left out here: asked of a library, its mutant is the
# clause a sentence embeds ("we show that X" gives "X"), mostly a finding the sentence does
# state; the router's soundness suite keeps it, with the frame that withholds the clause.
LIBRARY_FAMILIES = (
    "comparator-flip",
    "dropped-restriction",
    "exponent-change",
    "marker-flip",
    "negation-deletion",
    "number-change",
    "sign-change",
    *OVERSTATEMENTS,
)
EXAMPLES = 5

Asker = Callable[[OpenWorkspace, str], NavResult]


@dataclass
class LibraryCheck:
    """What the check found; `green` counts mutants answered green with a yes (each one a
    false ANSWER), `denied` those answered green with a no."""

    papers: int = 0
    passages: int = 0
    asked: int = 0
    answered: int = 0  # green, citing the sentence's own paper
    answered_elsewhere: int = 0  # green, citing only other papers (a duplicate's sentence)
    hedged: int = 0
    abstained: int = 0
    misses: list[str] = field(default_factory=list)
    mutants: Counter[str] = field(default_factory=Counter)
    green: Counter[str] = field(default_factory=Counter)
    denied: Counter[str] = field(default_factory=Counter)
    leaks: list[str] = field(default_factory=list)
    first_s: float = 0.0
    latencies_ms: list[float] = field(default_factory=list)

    def to_dict(self) -> dict[str, object]:
        times = sorted(self.latencies_ms)
        return {
            "library": {"papers": self.papers, "passages": self.passages},
            "stated": {
                "asked": self.asked,
                "answered_citing_its_paper": self.answered,
                "answered_citing_another": self.answered_elsewhere,
                "hedged": self.hedged,
                "abstained": self.abstained,
                "misses": self.misses[:EXAMPLES],
            },
            "mutated": {
                family: {
                    "asked": self.mutants[family],
                    "answered_yes": self.green[family],
                    "answered_no": self.denied[family],
                }
                for family in sorted(self.mutants)
            },
            "false_answers": sum(self.green.values()),
            "leaks": self.leaks[:EXAMPLES],
            "first_question_s": round(self.first_s, 3),
            "p50_ms": round(statistics.median(times), 1) if times else None,
            "p95_ms": round(times[max(int(0.95 * len(times)) - 1, 0)], 1) if times else None,
        }


def check_library(
    opened: OpenWorkspace, ask: Asker, *, sample: int = 50, seed: int = 0
) -> LibraryCheck:
    """Ask `sample` sentences of the library's passages (seeded) as they stand and mutated."""
    passages = opened.workspace.notes.passages
    found = LibraryCheck(passages=len(passages))
    found.papers = len({paper_key(s.key) for s in passages.summaries()})
    rng = random.Random(seed)
    for address in rng.sample(sorted(passages), min(sample, len(passages))):
        note = passages[address]
        quote = rng.choice(note.quotes)
        page = opened.workspace.source_text(note.citekey or "") or quote.body
        paper = paper_key(note.citekey or "")
        _stated(found, opened, ask, quote.body, paper)
        item = TrainSentence(paper, 0, quote.body, page)
        for family in LIBRARY_FAMILIES:
            for mutant in FAMILIES[family](item, random.Random(rng.random())):
                if mutant.shape is not Shape.RESTATEMENT or same_words(mutant.claim, quote.body):
                    continue  # nothing a reader of words sees changed (a character already lost)
                found.mutants[family] += 1
                result = _timed(found, opened, ask, mutant.claim)
                if result.label != "ANSWER":
                    continue
                relation = None if result.stance is None else result.stance.relation
                if relation is StanceRelation.CONTRADICTS:
                    found.denied[family] += 1
                elif relation is StanceRelation.SUPPORTS:
                    found.green[family] += 1
                    found.leaks.append(f"{family}: {mutant.claim}")
    return found


def same_words(one: str, other: str) -> bool:
    """Whether two texts read as the same words, numbers and signs."""
    return word_sequence(one) == word_sequence(other)


def _stated(
    found: LibraryCheck, opened: OpenWorkspace, ask: Asker, sentence: str, paper: str
) -> None:
    result = _timed(found, opened, ask, sentence)
    found.asked += 1
    if result.label == "HEDGED ANSWER":
        found.hedged += 1
    elif result.label != "ANSWER" or result.decision is None:
        found.abstained += 1
        found.misses.append(sentence)
    elif paper in _papers(opened, result.decision.cited):
        found.answered += 1
    else:
        found.answered_elsewhere += 1


def _papers(opened: OpenWorkspace, cited: tuple[str, ...]) -> set[str]:
    """The papers the cited notes belong to."""
    out = set()
    for address in cited:
        note = opened.workspace.note(address)
        if note is None:
            continue
        place = passage_place(address, note.title)
        out.add(place.paper if place is not None else paper_key(note.citekey or ""))
    return out


def _timed(found: LibraryCheck, opened: OpenWorkspace, ask: Asker, question: str) -> NavResult:
    began = time.perf_counter()
    result = ask(opened, question)
    took = time.perf_counter() - began
    if not found.first_s:
        found.first_s = took
    else:
        found.latencies_ms.append(took * 1000)
    return result

"""The evidence table: every paper that bears on a question, its finding, and yes / no / mixed.

A researcher asking "Do statins reduce fracture risk?" wants what each paper says, side by
side. The table reads the notes retrieval proposes for the question, one row a paper (a
source: its abstract, reading notes and passages together), and gives each row:

- its name ("Author Year" where the workspace's references know it, else its title);
- its finding: one sentence of the paper, shown only when the quote check finds it
  verbatim (an exact match, never a fuzzy one) as a whole sentence of the source text, and
  it states a finding rather than an aim or a method (`engine.reading.aims.asks`); a paper
  with no such sentence shows none, however related it is;
- the finding's stance toward the question, read as the answer's stance is read
  (`engine.api.sentences_stance`): yes, no or mixed with the cue, or none for a question
  that asks no yes or no;
- whether the row is the answer's own citation, green or hedged, or only related. Only the
  router makes a row green: a related row is never more than related, whatever it says.

Same workspace and question, same rows: retrieval, the sentence choice and the ranking are
deterministic, with ties broken by address.
"""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass, replace
from enum import StrEnum

from engine.api import Answer, sentences_stance
from engine.core.licensing import Fit
from engine.core.model import ClaimKind
from engine.core.stance import Stance
from engine.core.verifiers import verify
from engine.navigation.coverage import CoverageReport, QuestionTerms
from engine.navigation.navigator import in_canon
from engine.navigation.retrieval import retrieve
from engine.reading.aims import asks
from engine.text.tokens import word_sequence
from engine.workspace.cited_notes import Evidence, cite_label, evidence
from engine.workspace.notes import Note, Store
from engine.workspace.opened import OpenWorkspace
from engine.workspace.references import page_label
from engine.workspace.source_texts import ABSTRACT_SUFFIX

__all__ = [
    "PAGE_ROWS",
    "EvidenceTable",
    "Finding",
    "RowStatus",
    "TableRow",
    "evidence_table",
    "row_evidence",
]

PAGE_ROWS = 10  # a page of papers: what a reader compares at a glance
POOL = 40  # notes retrieval proposes; several may be one paper
MAX_CHECKS = 3  # sentences of one paper checked before it is left without a finding
# A finding must say at least this rarity-weighted share of the question, with its title.
MIN_SHARE = 0.5


CSV_COLUMNS = ("rank", "paper", "title", "finding", "page", "stance", "cue", "row", "address")


class RowStatus(StrEnum):
    """What a row is to the answer: its licensed citation, its hedged one, or only related."""

    GREEN = "green"
    HEDGED = "hedged"
    RELATED = "related"


@dataclass(frozen=True)
class Finding:
    """One sentence of a paper, found verbatim and whole in its source, that states a result."""

    sentence: str
    address: str  # the note it is quoted by: what the row opens
    page: int | None  # its position in the source text: what the row opens
    label: str = ""  # the page as printed on it (a PDF's page label), what a reader is shown


@dataclass(frozen=True)
class TableRow:
    """One paper: its name, its finding (or none), the finding's stance and the row's status."""

    paper: str  # the source's citekey, its abstract's and passages' own
    name: str  # "Author Year", else the title
    title: str
    address: str  # the note the row opens: the finding's, else the paper's first
    status: RowStatus
    finding: Finding | None = None
    stance: Stance | None = None
    share: float = 0.0  # the rarity-weighted share of the question the finding and title say

    @property
    def reading(self) -> str:
        """Yes, no or mixed; "" with no finding or for a question that asks no yes or no."""
        return self.stance.reading if self.stance is not None and self.finding else ""

    @property
    def answer_words(self) -> str:
        """The reading in words for people (`Stance.answer_words`); "" where `reading` is."""
        return self.stance.answer_words if self.stance is not None and self.finding else ""

    @property
    def cue(self) -> str:
        """What decided the stance, in words; "" when there is none."""
        return self.stance.phrase if self.stance is not None and self.finding else ""

    @property
    def brief(self) -> str:
        """The same in a few words where a rule withheld a yes (`Stance.brief`); "" when none."""
        return self.stance.brief if self.stance is not None and self.finding else ""

    @property
    def page(self) -> int | None:
        return self.finding.page if self.finding is not None else None

    @property
    def page_label(self) -> str:
        """The finding's page as printed on it; "" with no finding or page."""
        if self.finding is None or self.finding.page is None:
            return ""
        return self.finding.label or str(self.finding.page)

    def to_dict(self) -> dict[str, object]:
        finding = self.finding
        return {
            "paper": self.paper,
            "name": self.name,
            "title": self.title,
            "address": self.address,
            "status": self.status.value,
            "finding": finding.sentence if finding else "",
            "page": self.page,
            "page_label": self.page_label,
            "stance": self.reading,
            "cue": self.cue,
        }


@dataclass(frozen=True)
class EvidenceTable:
    """The papers that bear on a question, ranked: the answer's own first, then by coverage."""

    question: str
    rows: tuple[TableRow, ...]
    papers: int = 0  # papers read, before the page was cut

    def to_csv(self) -> str:
        """The table as CSV: one line a row, the note's address last (for a tool, not a reader)."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(CSV_COLUMNS)
        for rank, row in enumerate(self.rows, start=1):
            finding = row.finding
            writer.writerow(
                [
                    rank,
                    row.name,
                    row.title,
                    finding.sentence if finding else "",
                    row.page_label,
                    row.reading,
                    row.cue,
                    row.status.value,
                    row.address,
                ]
            )
        return out.getvalue()

    def to_dict(self) -> dict[str, object]:
        return {
            "question": self.question,
            "papers": self.papers,
            "rows": [row.to_dict() for row in self.rows],
        }


@dataclass(frozen=True)
class _Said:
    """A sentence a paper quotes: the note quoting it, its page and section, its order."""

    text: str
    address: str
    page: int | None
    section: str
    citekey: str  # the source text the note quotes (a paper's, or its abstract's)


def evidence_table(
    opened: OpenWorkspace, result: Answer, *, rows: int = PAGE_ROWS
) -> EvidenceTable:
    """The papers that bear on the answer's question, up to `rows` of them, ranked.

    The answer's own citation leads (green or hedged as the router decided); every other
    row is related. Never raises for a paper it cannot read: that paper shows no finding.
    """
    run = result.run
    question = run.coverage.respell(run.question) if run.coverage else run.question
    if not question.strip():
        return EvidenceTable(run.question, ())
    workspace = opened.workspace
    index = opened.index
    terms = QuestionTerms(question, index.rarity, notes=index.count(), known=in_canon(index))
    cited, restated = _cited(result)
    found = retrieve(index, opened.meaning.semantic, question, POOL, store=Store.CANON)
    papers: dict[str, list[Note]] = {}
    for address in [*cited, *found]:
        note = workspace.note(address)
        if note is None or note.store is not Store.CANON or not note.citekey:
            continue
        notes = papers.setdefault(note.citekey.removesuffix(ABSTRACT_SUFFIX), [])
        if note not in notes:
            notes.append(note)
    status = _status(result)
    made = []
    for order, (paper, notes) in enumerate(papers.items()):
        texts = [n.title for n in notes] + [n.body for n in notes]
        whole = terms.measure(texts)
        mine = any(n.address in cited for n in notes)
        if not mine and any(not t.covered for t in whole.terms):
            continue  # a paper on statins alone says nothing of fracture risk
        row = _row(opened, terms, question, paper, notes, restated if mine else ())
        row_status = status if mine else RowStatus.RELATED
        if mine and row.finding is not None and row.finding.sentence in restated:
            # The answer's own sentence reads as the answer reads it.
            row = replace(row, stance=run.stance)
        made.append((_rank(row_status), row.finding is None, -row.share, order, row, row_status))
    made.sort(key=lambda item: item[:4])
    kept = tuple(replace(row, status=row_status) for *_, row, row_status in made[:rows])
    return EvidenceTable(run.question, kept, len(made))


def row_evidence(opened: OpenWorkspace, row: TableRow) -> Evidence:
    """What a row opens: its note, the source page its finding is on, the finding marked."""
    quoted = (row.finding.sentence,) if row.finding is not None else ()
    return evidence(opened.workspace, row.address, quoted, row.page)


def _rank(status: RowStatus) -> int:
    return (RowStatus.GREEN, RowStatus.HEDGED, RowStatus.RELATED).index(status)


def _status(result: Answer) -> RowStatus:
    label = result.run.label
    if label == "ANSWER":
        return RowStatus.GREEN
    return RowStatus.HEDGED if label == "HEDGED ANSWER" else RowStatus.RELATED


def _cited(result: Answer) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The answer's cited addresses and the verified sentences it restates from them.

    An abstention cites nothing a row could stand on: every row is related.
    """
    decision = result.run.decision
    if decision is None or not decision.answered:
        return (), ()
    refs: list[str] = []
    said: list[str] = []
    for cid in [decision.conclusion, *sorted(decision.dag.premise_closure(decision.conclusion))]:
        claim = decision.dag.claim(cid)
        refs.extend(claim.cites)
        verdict = decision.claim_verdicts.get(cid)
        if claim.kind is ClaimKind.RESTATEMENT and verdict is not None and verdict.verified:
            said.append(claim.text)
    return tuple(dict.fromkeys(refs)), tuple(dict.fromkeys(said))


def _row(
    opened: OpenWorkspace,
    terms: QuestionTerms,
    question: str,
    paper: str,
    notes: list[Note],
    restated: tuple[str, ...],
) -> TableRow:
    """The paper's row: its best confirmed finding, the stance of it, and its share."""
    first = notes[0]
    title = " ".join(first.title.split())
    name = cite_label(opened.workspace, first.address)
    weights = terms.weights
    total = math.fsum(weights.values())

    def share(text: str) -> float:
        said = terms.mentioned(text)
        return math.fsum(weights[w] for w in said) / total if total else 0.0

    sentences = [
        _Said(q.body.strip(), n.address, q.page, q.section, n.citekey or "")
        for n in notes
        for q in n.quotes
        if q.body.strip()
    ]
    # The answer's own sentences first, then by what of the question they say themselves,
    # then with their title, shorter first.
    ranked = sorted(
        enumerate(sentences),
        key=lambda item: (
            item[1].text not in restated,
            -share(item[1].text),
            -share(f"{item[1].text} {title}"),
            len(item[1].text),
        ),
    )
    checks = 0
    for _, said in ranked:
        if checks >= MAX_CHECKS:
            break
        if asks(said.text, section=said.section) or _is_title(said.text, title):
            continue
        if said.text not in restated and (
            not share(said.text) or share(f"{said.text} {title}") < MIN_SHARE
        ):
            continue  # a sentence that says little of the question is no finding on it
        checks += 1
        whole, page = _confirmed(opened, said)
        if not whole:
            continue
        at = page if page is not None else said.page
        key = said.citekey or paper
        label = page_label(opened.workspace.root, key, at) if at is not None else ""
        finding = Finding(said.text, said.address, at, label)
        coverage = terms.measure([f"{title} {n.body}" for n in notes], quoted=[said.text, title])
        stance = sentences_stance(question, [said.text], off_topic=_off_topic(coverage))
        return TableRow(
            paper,
            name,
            title,
            said.address,
            RowStatus.RELATED,
            finding,
            stance,
            share(f"{said.text} {title}"),
        )
    return TableRow(paper, name, title, first.address, RowStatus.RELATED)


def _confirmed(opened: OpenWorkspace, said: _Said) -> tuple[bool, int | None]:
    """Whether the quote check finds the sentence verbatim and whole, and on which page."""
    check = verify("quote", {"body": said.text, "source": said.citekey}, workspace=opened.root)
    whole = (
        check.ok
        and check.method == "exact"
        and check.fit is Fit.WHOLE
        and check.confirmed_source_text is not None
        and word_sequence(check.confirmed_source_text) == word_sequence(said.text)
    )
    return whole, check.page


def _off_topic(coverage: CoverageReport) -> bool:
    """Whether the finding and its title leave out a word that sets the question apart."""
    return any(t.distinct and t.unmet for t in coverage.terms)


def _is_title(text: str, title: str) -> bool:
    flat = " ".join(text.split()).lower().rstrip(".")
    return bool(title) and flat == title.lower().rstrip(".")

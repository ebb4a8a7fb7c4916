"""The library in words: a workspace's holdings, its papers' table, search hits, import problems.

Every paper and note is named as a reader knows it ("Author Year", a title); an address
appears only in a tooltip. Each import problem says what happened and how to fix it.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import pandas as pd

from engine import Found, Holdings, ImportProblem, ImportRecord, Paper, ProblemKind
from present.markup import esc

# What happened, and what to do about it, by problem kind.
PROBLEM_WORDS: dict[ProblemKind, tuple[str, str]] = {
    ProblemKind.NO_TEXT_LAYER: (
        "scanned: no text layer",
        "run OCR, e.g. ocrmypdf, then add it again",
    ),
    ProblemKind.PAGES_WITHOUT_TEXT: (
        "pages without text (pictures only)",
        "run OCR on the PDF, e.g. ocrmypdf --skip-text, then add it again",
    ),
    ProblemKind.PAGES_TOO_LARGE: (
        "pages that draw too much to read, left out",
        "print those pages to a new PDF and add it again",
    ),
    ProblemKind.ENCRYPTED: (
        "locked with a password",
        "save an unlocked copy (e.g. qpdf --decrypt), then add it again",
    ),
    ProblemKind.MALFORMED: (
        "damaged or not a PDF",
        "download it again or print it to a new PDF, then add it again",
    ),
    ProblemKind.TOO_LARGE: (
        "too large to read",
        "split it (e.g. qpdf --split-pages), then add the parts",
    ),
    ProblemKind.TOO_SLOW: (
        "took too long to read",
        "add it from the command line with a longer --time-limit",
    ),
    ProblemKind.READER_FAILED: (
        "the PDF reader failed on it",
        "print it to a new PDF, then add it again",
    ),
    ProblemKind.UNREADABLE: ("could not be read from disk", "check the file's permissions"),
    ProblemKind.DUPLICATE: (
        "another PDF here would be filed under the same name",
        "rename one of the two, then add it again",
    ),
    ProblemKind.KEPT: (
        "a file in the workspace was edited by hand or is a link: left as it is",
        "move your edited file away to take the import's, or keep yours",
    ),
    ProblemKind.MISSING_PDF: (
        "its PDF is not on this computer",
        "download the attachment in Zotero (or sync its files), then import again",
    ),
    ProblemKind.OTHER: ("not imported", ""),
}

_IMPORTED = {"pdfs": "PDFs from", "zotero": "Zotero library", "vault": "notes from"}


def holdings_text(found: Holdings) -> str:
    """ "4 papers, 37 pages", then the notes and practice entries beyond them."""
    parts = [_count(found.papers, "paper"), _count(found.pages, "page")]
    if found.notes:
        parts.append(_count(found.notes, "note"))
    if found.practice:
        parts.append(_count(found.practice, "practice entry", "practice entries"))
    return ", ".join(parts)


def problem_text(problem: ImportProblem) -> str:
    """One line: the file, what happened, and the fix."""
    what, fix = PROBLEM_WORDS[problem.kind]
    if problem.kind is ProblemKind.OTHER and problem.detail:
        what = problem.detail
    if problem.pages:
        what += f" (page{'s' if len(problem.pages) != 1 else ''} {_pages(problem.pages)})"
    return f"{problem.subject}: {what}" + (f" — {fix}" if fix else "")


def record_heading(record: ImportRecord) -> str:
    """ "Import of PDFs from ~/Papers, 2026-01-02 14:03 UTC: 4 papers, 37 pages, 1 problem"."""
    when = record.at.replace("T", " ")[:16]
    problems = _count(len(record.problems), "problem")
    papers = f"{_count(record.papers, 'paper')}, {_count(record.pages, 'page')}"
    source = _IMPORTED.get(record.kind.value, "")
    return f"Import of {source} {record.origin}, {when} UTC: {papers}, {problems}"


def papers_frame(papers: Sequence[Paper]) -> pd.DataFrame:
    """The papers as the library's table shows them, one row a paper."""
    # The problems sit beside the name: at 800 px the columns after the fifth are off screen.
    rows = [
        {
            "Paper": p.name,
            "Problems": "; ".join(_short(x) for x in p.problems),
            "Year": str(p.year) if p.year else "",
            "Pages": p.pages,
            "Passages": p.passages,
            "Imported": _date(p.imported),
            "Title": p.title,
            "Authors": ", ".join(p.authors),
            "PDF": "yes" if p.pdf else "",
        }
        for p in papers
    ]
    columns = ["Paper", "Problems", "Year", "Pages", "Passages", "Imported", "Title", "Authors"]
    return pd.DataFrame(rows, columns=[*columns, "PDF"])


def found_html(hits: Sequence[Found]) -> str:
    """Passages or notes the search found: name and place in bold, then the text."""
    items = []
    for hit in hits:
        where = f", {hit.where}" if hit.where else ""
        items.append(
            f"<div class='library-hit' title='{esc(hit.address)}' style='margin:6px 0'>"
            f"<b>{esc(hit.name)}{esc(where)}</b><br>"
            f"<span style='font-size:0.92em'>{esc(hit.text)}</span></div>"
        )
    return "".join(items)


def paper_caption(paper: Paper) -> str:
    """The selected paper in one line: title, authors, year, pages and passages."""
    bits = [paper.title]
    if paper.authors:
        bits.append(", ".join(paper.authors))
    if paper.year:
        bits.append(str(paper.year))
    bits.append(f"{_count(paper.pages, 'page')}, {_count(paper.passages, 'passage')}")
    return " · ".join(bits)


def _short(problem: ImportProblem) -> str:
    what = PROBLEM_WORDS[problem.kind][0]
    return f"{what} ({_pages(problem.pages)})" if problem.pages else what


def _pages(pages: Sequence[int]) -> str:
    shown = ", ".join(str(p) for p in pages[:8])
    return shown + (f" and {len(pages) - 8} more" if len(pages) > 8 else "")


def _date(when: datetime | None) -> str:
    return when.strftime("%Y-%m-%d") if when is not None else ""


def _count(n: int, one: str, many: str | None = None) -> str:
    return f"{n:,} {one if n == 1 else many or one + 's'}"

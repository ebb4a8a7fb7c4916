"""Pieces Navigate and Audit share: the cited sources, the evidence panel, the report downloads."""

from __future__ import annotations

import streamlit as st

from engine import (
    Answer,
    EvidenceTable,
    answer_evidence,
    citations,
    cite_labels,
    report_html,
    report_markdown,
    row_evidence,
    table_markdown,
)
from present.evidence import evidence_html, source_label
from present.paper_table import (
    EMPTY,
    HEADINGS,
    TABLE_CSS,
    finding_html,
    stance_html,
    status_html,
    table_caption,
)
from present.views import report_words
from webapp import services
from webapp import urlstate as url
from webapp.state import KEYS

# The cited source whose evidence is open, in the URL of the pages that show the panel.
CITE = (url.Param("cite", KEYS.evidence, "text", None),)
# The evidence table's open row (its paper), in Navigate's URL.
ROW = (url.Param("row", KEYS.table_row, "text", None),)
TABLE_COLUMNS = [3, 6.2, 3, 2.3]


def _open(address: str | None) -> None:
    st.session_state[KEYS.evidence] = address


def sources_panel(result: Answer, page: str) -> None:
    """Each cited source by its name; a click opens its text with the quoted words marked."""
    worker = services.current_worker()
    run = result.run
    if worker is None or not worker.ready() or worker.failure() is not None:
        return
    url.restore(page, CITE, {})
    items = worker.call(answer_evidence, worker.opened, run)
    st.subheader("Sources")
    if not items:
        st.caption("The answer cites no source.")
        url.save(page, CITE)
        return
    st.caption("Open a source to read it with the quoted words marked.")
    chosen = st.session_state.get(KEYS.evidence)
    for n, item in enumerate(items):
        is_open = item.address == chosen
        st.button(
            source_label(item),
            # An open source's button is keyed apart, so a citation marker's click shows it
            # rather than closing it (present.markup.cite_clicks_html).
            key=f"{page}_cite_{n}" + ("_open" if is_open else ""),
            type="tertiary",
            icon=":material/menu_book:" if not is_open else ":material/expand_more:",
            on_click=_open,
            args=(None if is_open else item.address,),
        )
    selected = next((item for item in items if item.address == chosen), None)
    if selected is None:
        st.session_state[KEYS.evidence] = None
    else:
        with st.container(border=True, key=f"{page}_evidence"):
            st.html(evidence_html(selected))
            st.button("Close", key=f"{page}_evidence_close", on_click=_open, args=(None,))
    url.save(page, CITE)


def _open_row(paper: str | None) -> None:
    st.session_state[KEYS.table_row] = paper


def table_panel(result: Answer, page: str) -> EvidenceTable | None:
    """The papers that bear on the question, one row each; a click opens its source page."""
    worker = services.current_worker()
    if worker is None or not worker.ready() or worker.failure() is not None:
        return None
    url.restore(page, ROW, {})
    answer_id = str(st.session_state.get(KEYS.answer_id, ""))
    table = services.paper_table(result, answer_id, str(worker.opened.root))
    st.subheader("Evidence table")
    if not table.rows:
        st.caption(EMPTY)
        url.save(page, ROW)
        return table
    st.caption(table_caption(table))
    st.html(TABLE_CSS)
    chosen = st.session_state.get(KEYS.table_row)
    with st.container(key=f"{page}_table"):
        for column, heading in zip(st.columns(TABLE_COLUMNS), HEADINGS, strict=True):
            column.markdown(f"**{heading}**")
        for n, row in enumerate(table.rows):
            is_open = row.paper == chosen
            paper, finding, stance, status = st.columns(TABLE_COLUMNS)
            paper.button(
                row.name,
                key=f"{page}_row_{n}",
                type="tertiary",
                help=f"{row.title} · opens {row.address}" if row.title != row.name else None,
                icon=":material/expand_more:" if is_open else ":material/menu_book:",
                on_click=_open_row,
                args=(None if is_open else row.paper,),
            )
            finding.html(finding_html(row))
            stance.html(stance_html(row))
            status.html(status_html(row))
    selected = next((row for row in table.rows if row.paper == chosen), None)
    if selected is None:
        st.session_state[KEYS.table_row] = None
    else:
        with st.container(border=True, key=f"{page}_row_evidence"):
            st.html(evidence_html(worker.call(row_evidence, worker.opened, selected)))
            st.button("Close", key=f"{page}_row_close", on_click=_open_row, args=(None,))
    csv_column, md_column = st.columns(2)
    csv_column.download_button(
        "Download table (CSV)",
        table.to_csv(),
        file_name="evidence-table.csv",
        mime="text/csv",
        key=KEYS.nav_table_csv,
        icon=":material/download:",
        on_click="ignore",
    )
    md_column.download_button(
        "Download table (Markdown)",
        table_markdown(table),
        file_name="evidence-table.md",
        mime="text/markdown",
        key=KEYS.nav_table_md,
        icon=":material/download:",
        on_click="ignore",
    )
    url.save(page, ROW)
    return table


def report_downloads(
    result: Answer, markdown_key: str, html_key: str, table: EvidenceTable | None = None
) -> None:
    """ "Download report" as Markdown and as HTML, both built from the answer alone."""
    worker = services.current_worker()
    run = result.run
    names: dict[str, str] = {}
    cited: dict[str, str] = {}
    if worker is not None and worker.ready() and worker.failure() is None:
        refs = [ref for claim in _claims(result) for ref in claim]
        names = worker.call(cite_labels, worker.opened.workspace, refs)
        decision = run.decision
        pages = (
            {
                ref: (check.page if (check := decision.verifier_results.get(ref)) else None)
                for ref in refs
            }
            if decision is not None
            else {}
        )
        cited = worker.call(citations, worker.opened.workspace, pages)
    words = report_words(result, confirmed=services.confirmed_pairs(), names=names, citations=cited)
    formats = (
        ("Markdown", report_markdown, "md", "text/markdown", markdown_key),
        ("HTML", report_html, "html", "text/html", html_key),
    )
    for column, (name, render, suffix, mime, key) in zip(st.columns(2), formats, strict=True):
        column.download_button(
            f"Download report ({name})",
            render(result, words, table),
            file_name=f"synapse-report.{suffix}",
            mime=mime,
            key=key,
            icon=":material/download:",
            on_click="ignore",
        )


def _claims(result: Answer) -> list[tuple[str, ...]]:
    decision = result.run.decision
    return [c.cites for c in decision.dag.claims] if decision is not None else []

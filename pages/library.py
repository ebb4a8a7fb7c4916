"""Library: every paper of the workspace, search over titles, notes and passages, the PDFs."""

import streamlit as st

from engine import bibtex, search_library
from present.library import found_html, holdings_text, paper_caption, papers_frame, problem_text
from present.markup import md_escape
from webapp import papers as shelf
from webapp import services
from webapp import urlstate as url
from webapp.imports import import_problems
from webapp.state import KEYS

st.title("Library")
worker = services.current_worker()
if worker is None or not worker.ready(wait=services.open_wait()):
    st.info("Open a workspace in the sidebar to see its papers.")
    st.stop()
opened = worker.opened
papers, held = shelf.shelf(opened)
by_key = {p.citekey: p for p in papers}
url.restore("library", url.LIBRARY, {})
st.caption(
    md_escape(f"{holdings_text(held)}. Names are “Author Year” where the references know them.")
)
import_problems(opened.root)

find = st.text_input(
    "Search titles, notes and passages", key=KEYS.library_find, placeholder="e.g. slow-wave sleep"
)


def choose(citekey: str, page: int | None) -> None:
    """Select a paper (and the page to open it at) from a search hit."""
    st.session_state[KEYS.library_paper] = citekey
    st.session_state[KEYS.library_page] = page or 1


if find.strip():
    found = worker.call(search_library, opened.workspace, opened.index, papers, find)
    if found.empty:
        st.caption("Nothing in this workspace matches.")
    if found.passages:
        st.markdown(f"**Passages** ({len(found.passages)})")
        for n, hit in enumerate(found.passages):
            left, right = st.columns([6, 1], vertical_alignment="center")
            left.html(found_html([hit]))
            if hit.citekey in by_key and by_key[hit.citekey].pdf and hit.page:
                label = f"Open p. {hit.page}"
                right.button(
                    label, key=KEYS.library_open(n), on_click=choose, args=(hit.citekey, hit.page)
                )
    if found.notes:
        st.markdown(f"**Notes** ({len(found.notes)})")
        st.html(found_html(found.notes))
    shown = found.papers
    st.markdown(f"**Papers** ({len(shown)} of {len(papers)})")
    if not shown:
        st.caption("No paper's name, title, author or year holds every word searched for.")
else:
    shown = papers

rows: list[int] = []
if shown:
    table = st.dataframe(
        papers_frame(shown),
        key=KEYS.library_table,
        on_select="rerun",
        selection_mode="single-row",
        hide_index=True,
        width="stretch",
    )
    rows = list(table.selection.rows) if table is not None else []
if rows:
    picked = shown[rows[0]].citekey
    if st.session_state.get(KEYS.library_paper) != picked:
        st.session_state[KEYS.library_paper] = picked
        st.session_state[KEYS.library_page] = 1
st.download_button(
    "Export the references as BibTeX",
    bibtex(papers),
    file_name="references.bib",
    mime="application/x-bibtex",
    key=KEYS.library_bibtex,
    on_click="ignore",
)

paper = by_key.get(st.session_state.get(KEYS.library_paper) or "")
if paper is not None:
    st.subheader(paper.name)
    st.caption(md_escape(paper_caption(paper)), help=f"Filed as {paper.citekey}")
    for problem in paper.problems:
        st.warning(md_escape(problem_text(problem)))
    if paper.pdf:
        pages = max(1, paper.pages)
        if not 1 <= int(st.session_state.get(KEYS.library_page) or 1) <= pages:
            st.session_state[KEYS.library_page] = 1
        page = st.number_input("Page", 1, pages, key=KEYS.library_page)
        address = shelf.pdf_address(opened, paper, int(page))
        if address is not None:
            st.link_button(f"Open the PDF at page {int(page)}", address)
    else:
        st.caption("This workspace holds no PDF of this paper.")
url.save("library", url.LIBRARY)

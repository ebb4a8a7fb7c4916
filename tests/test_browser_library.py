"""Bring a folder of PDFs from the app, ask, and read the cited page: in a real browser."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser_support import (
    app_in_chromium,
    ask_question,
    is_local,
    shot,
    wait_idle,
)
from tests.builders.pdfgen import write_pdf
from tests.workspaces import make_workspace

pytestmark = pytest.mark.browser

RECALL = (
    "Students who slept more than eight hours recalled 23% more word pairs than those who "
    "slept less than six hours."
)
QUESTION = "Did students who slept more than eight hours recall more word pairs?"


def write_papers(folder: Path) -> None:
    header = "Journal of Synthetic Studies 2021"
    pages = [
        ["Sleep and memory consolidation in adolescents", "We studied 240 students."],
        ["Memory consolidation depends on slow-wave sleep in many species."],
        ["Results", RECALL[:90], RECALL[90:], "The effect did not depend on caffeine intake."],
    ]
    write_pdf(
        folder / "Okafor et al. - 2021 - Sleep and memory consolidation.pdf",
        [[header, *body, f"Page {n}"] for n, body in enumerate(pages, start=1)],
        labels=[(0, "D", 101)],
    )


def test_add_a_folder_of_pdfs_ask_and_read_the_cited_page(tmp_path: Path) -> None:
    papers = tmp_path / "papers"
    write_papers(papers)
    start = make_workspace(tmp_path, "momentum-lab")
    target = tmp_path / "my-library"
    requests: list[str] = []
    with app_in_chromium(start, tmp_path / "streamlit.log") as (url, page):
        page.on("request", lambda request: requests.append(request.url))
        page.goto(url)
        wait_idle(page)
        page.get_by_label("Folder of PDFs").fill(str(papers))
        page.get_by_label("Workspace to add them to (created if absent)").fill(str(target))
        page.get_by_role("button", name="Add PDFs").click()
        # The import ends by opening its workspace in the sidebar.
        folder = page.get_by_test_id("stSidebar").get_by_label("Workspace folder")
        expect(folder).to_have_value(str(target.resolve()), timeout=60_000)
        expect(page.get_by_test_id("stSidebar").get_by_text("Workspace ready")).to_be_visible(
            timeout=60_000
        )
        wait_idle(page)
        assert (target / "sources" / "okafor2021sleep.txt").is_file()
        page.get_by_test_id("stSidebarNav").get_by_role("link", name="Navigate").click()
        wait_idle(page)
        try:
            ask_question(page, QUESTION, "ANSWER")
        except AssertionError:
            shot(page, "library-debug", tall=True)
            raise
        # The heading above the finding and the running lines around it are no part of it.
        answer = page.get_by_test_id("stMain").inner_text()
        assert RECALL in " ".join(answer.split())
        assert "Results Students" not in answer and "2021 Students" not in answer
        expect(page.get_by_text("Okafor et al. 2021, p. 103").first).to_be_visible()
        page.get_by_text("Read the page: Okafor et al. 2021, p. 103").click()
        expect(
            page.get_by_text("The effect did not depend on caffeine intake.").last
        ).to_be_visible()
        shot(page, "library-cited-page", tall=True)
    assert requests and all(is_local(u) for u in requests)

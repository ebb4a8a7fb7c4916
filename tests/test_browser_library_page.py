"""The Library in a real browser: an import with a scan whose problem stays until dismissed,
the papers listed by name, search, a PDF opened at a page, and the BibTeX download."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import ViewportSize, expect, sync_playwright

from bench.app_server import running_app
from tests.browser_support import (
    CHROMIUM,
    CHROMIUM_ARGS,
    ROOT,
    Look,
    both_schemes,
    is_local,
    shot,
    wait_idle,
)
from tests.builders.pdfgen import write_pdf
from tests.workspaces import make_workspace, user_bytes, words_alone

pytestmark = pytest.mark.browser

SHOTS = ROOT / "test-artifacts" / "library"
# The page is checked once per width; each check leaves shots in both schemes.
LOOKS: list[Look] = [("light", 1280, 800), ("dark", 800, 900)]
OKAFOR = "Okafor et al. - 2021 - Sleep and memory consolidation.pdf"
SCAN_PROBLEM = "scan.pdf: scanned: no text layer — run OCR, e.g. ocrmypdf, then add it again"


def write_papers(folder: Path) -> None:
    write_pdf(
        folder / OKAFOR,
        [
            ["Sleep and memory consolidation in adolescents", "We studied 240 students."],
            ["Memory consolidation depends on slow-wave sleep in many species."],
            ["Students who slept longer recalled 23% more word pairs."],
        ],
    )
    write_pdf(folder / "scan.pdf", [None, None])


def test_import_browse_search_open_a_pdf_and_export_bibtex(tmp_path: Path) -> None:
    papers = tmp_path / "papers"
    write_papers(papers)
    before = user_bytes(papers)
    start = make_workspace(tmp_path, "momentum-lab")
    target = tmp_path / "my-library"
    requests: list[str] = []
    with (
        words_alone(),
        running_app(start, tmp_path / "streamlit.log") as url,
        sync_playwright() as driver,
    ):
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        viewport: ViewportSize = {"width": 1280, "height": 800}
        context = browser.new_context(viewport=viewport, accept_downloads=True)
        page = context.new_page()
        page.on("request", lambda request: requests.append(request.url))
        page.goto(url)
        wait_idle(page)
        page.get_by_label("Folder of PDFs").fill(str(papers))
        page.get_by_label("Workspace to add them to (created if absent)").fill(str(target))
        page.get_by_role("button", name="Add PDFs").click()
        sidebar = page.get_by_test_id("stSidebar")
        expect(sidebar.get_by_text("Workspace ready: 1 paper, 3 pages")).to_be_visible(
            timeout=60_000
        )
        wait_idle(page)
        # The scan's problem, with its fix, outlives the import's rerun and a reload.
        problem = page.get_by_text(SCAN_PROBLEM)
        expect(problem).to_be_visible()
        page.reload()
        wait_idle(page)
        expect(page.get_by_text(SCAN_PROBLEM)).to_be_visible(timeout=30_000)
        assert user_bytes(papers) == before

        page.get_by_test_id("stSidebarNav").get_by_role("link", name="Library").click()
        expect(page.get_by_role("heading", name="Library", level=1)).to_be_visible()
        wait_idle(page)
        grid = page.get_by_test_id("stDataFrame")
        expect(grid).to_contain_text("Okafor et al. 2021", timeout=30_000)
        expect(grid).to_contain_text("scanned: no text layer")
        with page.expect_download() as download:
            page.get_by_role("button", name="Export the references as BibTeX").click()
        bib = Path(download.value.path()).read_text()
        assert "@article{okafor2021sleep," in bib and "year = {2021}" in bib

        page.get_by_label("Search titles, notes and passages").fill("slow-wave sleep")
        page.keyboard.press("Enter")
        wait_idle(page)
        hit = page.locator(".library-hit").first
        expect(hit).to_contain_text("Okafor et al. 2021, p. 2")
        expect(page.get_by_text("~passages")).to_have_count(0)
        page.get_by_role("button", name="Open p. 2").click()
        wait_idle(page)
        link = page.get_by_role("link", name="Open the PDF at page 2")
        expect(link).to_be_visible(timeout=30_000)
        href = link.get_attribute("href") or ""
        assert href.endswith("#page=2"), href
        served = context.request.get(href.split("#")[0] if "://" in href else url + href)
        assert served.ok and served.headers["content-type"] == "application/pdf"
        assert served.body() == (papers / OKAFOR).read_bytes()
        shot(page, "library-search", folder=SHOTS, tall=True)

        # Dismissed, the problem is gone for good.
        page.get_by_test_id("stSidebarNav").get_by_role("link", name="Start").click()
        wait_idle(page)
        page.get_by_role("button", name="Dismiss these problems").click()
        wait_idle(page)
        expect(page.get_by_text(SCAN_PROBLEM)).to_have_count(0)
        page.reload()
        wait_idle(page)
        expect(page.get_by_text("Workspace ready: 1 paper, 3 pages")).to_be_visible(timeout=30_000)
        expect(page.get_by_text(SCAN_PROBLEM)).to_have_count(0)
        context.close()

        for scheme, width, height in LOOKS:
            viewport = {"width": width, "height": height}
            look = browser.new_context(viewport=viewport, color_scheme=scheme)
            view = look.new_page()
            view.on("request", lambda request: requests.append(request.url))
            view.goto(f"{url}/library?ws={target.resolve()}")
            wait_idle(view)
            expect(view.get_by_test_id("stDataFrame")).to_contain_text(
                "Okafor et al. 2021", timeout=30_000
            )
            if width <= 960:  # the sidebar folds on every page, not only on Navigate
                expect(view.get_by_test_id("stExpandSidebarButton")).to_be_visible()
                expect(view.get_by_test_id("stSidebarNav")).not_to_be_in_viewport()
            both_schemes(view, "library", folder=SHOTS)
            look.close()
        browser.close()
    assert requests and all(is_local(u) for u in requests)

"""A vault workspace in a real browser: a grounded answer cites Author Year and the printed page."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser_support import (
    ROOT,
    app_in_chromium,
    ask_question,
    is_local,
    shot,
    wait_idle,
)
from tests.workspaces import make_workspace

pytestmark = pytest.mark.browser

VAULT_LAB = ROOT / "examples" / "vault-lab"
QUESTION = "Does daily IL-10 administration delay the onset of diabetes in NOD mice?"


def test_the_dag_page_cites_author_year_and_the_printed_page(tmp_path: Path) -> None:
    workspace = make_workspace(tmp_path, "vault-lab")
    # A CSL entry for this copy only: the example itself knows no authors for its abstracts.
    csl = [
        {
            "id": "scifact-43534665",
            "author": [{"family": "Reader"}],
            "issued": {"date-parts": [[2020]]},
        }
    ]
    (workspace / "references.json").write_text(json.dumps(csl))
    requests: list[str] = []
    with app_in_chromium(workspace, tmp_path / "streamlit.log") as (url, page):
        page.on("request", lambda request: requests.append(request.url))
        page.goto(f"{url}/ask")
        wait_idle(page)
        ask_question(page, QUESTION, "ANSWER")
        page.get_by_test_id("stSidebarNav").get_by_role("link", name="Reasoning DAG").click()
        expect(page.get_by_role("heading", name="Reasoning DAG", level=1)).to_be_visible()
        wait_idle(page)
        # The quote sits on the PDF's third page, which is printed as page 2.
        expect(page.get_by_text("Reader 2020, p. 2")).to_be_visible(timeout=30_000)
        shot(page, "vault-reasoning-dag")
    assert requests and all(is_local(u) for u in requests)

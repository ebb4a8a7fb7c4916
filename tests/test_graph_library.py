"""The graph library served once: in-app graph pages reference it, standalone pages inline it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import pyvis

from engine import EngineError, NavResult
from engine.api import ask, open_workspace
from present.dag_graph import dag_html
from present.graph_page import (
    LIBRARY_DIR,
    LIBRARY_SCRIPT,
    LIBRARY_STYLE,
    SERVED_LIBRARY,
    STATIC_DIR,
    library_tags,
    served_files,
)
from present.graphs import neighbourhood_html
from tests.workspaces import make_workspace

BUNDLED = Path(pyvis.__file__).parent / "templates" / "lib" / "vis-9.1.2"
APP_DIR = Path(__file__).resolve().parent.parent
QUESTION = "Do momentum crashes occur after market rebounds?"
PAGES = {
    "neighbourhood": lambda run, library: neighbourhood_html(
        run, len(run.steps) - 1, height=600, library=library
    ),
    "dag": lambda run, library: dag_html(run, height=500, library=library),
}
# Any tag that would load a resource: the only ones a served page may have are the library's.
_LOADING_TAG = re.compile(r"<(?:script|link|img|iframe)\b[^>]*\b(?:src|href)\s*=[^>]*>", re.I)


def _chunk(name: str) -> str:
    """A stretch from the middle of a bundled library file: present only if it is inlined."""
    text = (BUNDLED / name).read_text(encoding="utf-8")
    middle = len(text) // 2
    return text[middle : middle + 200]


def _live_tags(page: str) -> list[str]:
    """The resource-loading tags of `page` outside HTML comments."""
    return _LOADING_TAG.findall(re.sub(r"<!--.*?-->", "", page, flags=re.S))


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> NavResult:
    """An answer on momentum-lab with a trace and a reasoning DAG."""
    opened = open_workspace(make_workspace(tmp_path_factory.mktemp("library"), "momentum-lab"))
    try:
        result = ask(opened, QUESTION)
    finally:
        opened.close()
    assert result.steps and result.decision is not None
    return result


@pytest.mark.parametrize("name", [LIBRARY_SCRIPT, LIBRARY_STYLE], ids=["script", "style"])
def test_the_served_copy_is_the_library_pyvis_bundles(name: str) -> None:
    served = STATIC_DIR / LIBRARY_DIR / name
    assert served.read_bytes() == (BUNDLED / name).read_bytes()
    assert served in served_files()


def test_the_copy_is_served_beside_the_main_script_with_its_licence() -> None:
    # Streamlit serves `static/` beside the main script (app.py) once enableStaticServing is on.
    assert STATIC_DIR == APP_DIR / "static" and (APP_DIR / "app.py").is_file()
    notice = (STATIC_DIR / LIBRARY_DIR / "NOTICE").read_text(encoding="utf-8")
    assert "MIT License" in notice and "Almende" in notice
    config = (APP_DIR / ".streamlit" / "config.toml").read_text(encoding="utf-8")
    assert re.search(r"^enableStaticServing = true$", config, re.M)


@pytest.mark.parametrize("kind", list(PAGES), ids=list(PAGES))
def test_an_in_app_graph_page_references_the_served_library(run: NavResult, kind: str) -> None:
    page = PAGES[kind](run, SERVED_LIBRARY)
    assert "new vis.Network(container, data, options)" in page
    for name in (LIBRARY_SCRIPT, LIBRARY_STYLE):
        assert _chunk(name) not in page
    assert _live_tags(page) == [
        f'<link rel="stylesheet" href="{SERVED_LIBRARY}{LIBRARY_STYLE}">',
        f'<script src="{SERVED_LIBRARY}{LIBRARY_SCRIPT}">',
    ]
    assert not SERVED_LIBRARY.startswith(("/", "http")) and "//" not in SERVED_LIBRARY
    assert len(page.encode()) < 60_000  # the library alone is 0.69 MB


@pytest.mark.parametrize("kind", list(PAGES), ids=list(PAGES))
def test_a_standalone_graph_page_still_carries_the_library(run: NavResult, kind: str) -> None:
    page = PAGES[kind](run, None)
    for name in (LIBRARY_SCRIPT, LIBRARY_STYLE):
        assert _chunk(name) in page
    assert _live_tags(page) == []
    assert "sourceMappingURL" not in page


@pytest.mark.parametrize(
    "base",
    ["https://cdn.example/vis/", "//cdn.example/vis/", 'app/static/"><script>/', "app/static"],
    ids=["remote", "protocol-relative", "markup", "no-slash"],
)
def test_the_library_is_only_loaded_from_a_plain_same_origin_address(base: str) -> None:
    with pytest.raises(EngineError):
        library_tags(base)

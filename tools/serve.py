"""`python -m tools.serve [streamlit options]`: `streamlit run app.py`, deep links working at once.

The page modules live in `pages/`, which Streamlit takes, on a fresh server's first run, for
its old pages-folder layout: the first visitor of a link such as `/dag?q=…` then gets a
"Page not found" dialog. The app declares its pages with `st.navigation`, so that layout is
switched off before the server starts.
"""

from __future__ import annotations

import importlib
import sys

from streamlit.runtime.pages_manager import PagesManager
from streamlit.web import cli

# Imported before the server starts, so the first visitor does not wait for them.
WARM = (
    "engine.api",
    "engine.core.llm",
    "engine.review.matrix",
    "present.graphs",
    "present.heatmap",
    "present.views",
    "present.highlight",
    "present.tables",
)


def main(argv: list[str]) -> None:
    PagesManager.uses_pages_directory = False
    for name in WARM:
        importlib.import_module(name)
    sys.argv = ["streamlit", "run", "app.py", *argv]
    cli.main()


if __name__ == "__main__":
    main(sys.argv[1:])

"""`python -m tools.serve [streamlit options]`: `streamlit run app.py`, deep links working at once.

The page modules live in `pages/`, which Streamlit takes, on a fresh server's first run, for
its old pages-folder layout: the first visitor of a link such as `/dag?q=…` then gets a
"Page not found" dialog. The app declares its pages with `st.navigation`, so that layout is
switched off before the server starts.
"""

from __future__ import annotations

import importlib
import inspect
import logging
import sys

from streamlit.runtime.pages_manager import PagesManager
from streamlit.web import cli

from engine.workspace.opened import Worker

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
    # The emoji catalogue, whose one large pattern compiles on import (a page link's icon).
    "streamlit.emojis",
)
OPEN_BEFORE_SERVING_S = 20.0  # at most this long between start and serving


def main(argv: list[str]) -> None:
    PagesManager.uses_pages_directory = False
    worker = open_default_workspace()
    for name in WARM:
        importlib.import_module(name)
    # Streamlit's first element looks up the call stack once, and resolving the source file
    # of every loaded module is slow; this fills inspect's cache of them beforehand.
    inspect.stack()
    # Serving once the default workspace is open means the first visitor never waits on it;
    # a workspace too large to open in time is served anyway and the pages follow its load.
    worker.ready(wait=OPEN_BEFORE_SERVING_S)
    sys.argv = ["streamlit", "run", "app.py", *argv]
    cli.main()


def open_default_workspace() -> Worker:
    """Start opening the default workspace as the server starts, so the first visitor finds it open.

    The open runs on the workspace's own thread; the pages get that same worker from their
    resource cache. Their data caches are only checked here, before the runtime exists, and
    Streamlit's warning about that check is silenced.
    """
    check = logging.getLogger("streamlit.runtime.caching.cache_data_api")
    level = check.level
    check.setLevel(logging.ERROR)
    try:
        from pages import services
    finally:
        check.setLevel(level)
    return services.worker(services.resolve(services.default_workspace()))


if __name__ == "__main__":
    main(sys.argv[1:])

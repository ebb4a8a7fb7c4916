"""The app's server: `python -m webapp.serve [--workspaces-root FOLDER] [streamlit options]`.

`--workspaces-root FOLDER` (repeatable; or `SYNAPSE_WORKSPACES_ROOT`) lets a link open any
workspace under FOLDER; otherwise a link opens only a folder its user opened in the app.

It runs `streamlit run app.py` once the default workspace has started opening and the
heavy modules are imported, so the first visitor waits for neither. The page scripts live
in `pages/`, declared with `st.navigation` in `app.py`.
"""

from __future__ import annotations

import gc
import importlib
import inspect
import logging
import os
import sys
from pathlib import Path

from streamlit.runtime.pages_manager import PagesManager
from streamlit.web import cli

from engine import ENV_WORKSPACES_ROOT, Worker, environment

# Imported before the server starts, so the first visitor does not wait for them.
WARM = (
    "engine.api",
    "engine.models.llm",
    "engine.review.matrix",
    "present.graphs",
    "present.heatmap",
    "present.views",
    "present.highlight",
    "present.tables",
    # The emoji catalogue, whose one large pattern compiles on import (a page link's icon).
    "streamlit.emojis",
)
OPEN_BEFORE_SERVING_S = 20.0
APP = (
    Path(__file__).resolve().parent.parent / "app.py"
)  # at most this long between start and serving


ROOT_OPTION = "--workspaces-root"


def main(argv: list[str]) -> None:
    argv = take_workspaces_roots(argv)
    worker = open_default_workspace()
    for name in WARM:
        importlib.import_module(name)
    # Streamlit's first element looks up the call stack once, and resolving the source file
    # of every loaded module is slow; this fills inspect's cache of them beforehand.
    inspect.stack()
    # What is imported now lives as long as the server: kept out of every later collection.
    # Part of the default workspace, opening meanwhile on its thread, is frozen with it; if
    # the user switches away, only the cycles among those objects are never reclaimed.
    gc.freeze()
    # Serving once the default workspace is open means the first visitor never waits on it;
    # a workspace too large to open in time is served anyway and the pages follow its load.
    worker.ready(wait=OPEN_BEFORE_SERVING_S)
    # app.py declares its pages with st.navigation. Streamlit would otherwise take the
    # scripts' folder, `pages/`, for its older layout on a session's first run (every file
    # a page under its file name), so a deep link such as `/dag?q=…` would open the wrong page.
    PagesManager.uses_pages_directory = False
    sys.argv = ["streamlit", "run", str(APP), *argv]
    cli.main()


def take_workspaces_roots(argv: list[str]) -> list[str]:
    """`argv` without its `--workspaces-root` options, whose folders join the environment's
    `SYNAPSE_WORKSPACES_ROOT` (the app reads them there). Exits naming a missing folder."""
    roots, rest, args = [], [], iter(argv)
    for arg in args:
        if arg == ROOT_OPTION:
            value = next(args, None)
            if value is None or not value.strip():
                sys.exit(f"{ROOT_OPTION} needs a folder")
            roots.append(value)
        elif arg.startswith(f"{ROOT_OPTION}="):
            roots.append(arg.split("=", 1)[1])
        else:
            rest.append(arg)
    if roots:
        given = environment().workspaces_roots
        joined = [str(Path(r).expanduser().resolve()) for r in roots if r.strip()]
        os.environ[ENV_WORKSPACES_ROOT] = os.pathsep.join([*given, *joined])
    return rest


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
        from webapp import services
    finally:
        check.setLevel(level)
    return services.worker(services.resolve(services.default_workspace()))


if __name__ == "__main__":
    main(sys.argv[1:])

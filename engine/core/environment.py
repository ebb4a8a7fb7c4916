"""The process's settings: every `SYNAPSE_*` environment variable, read in this one place.

`environment()` reads them afresh on each call (a test or a server may set one before it
asks) into one typed value; every reader in the engine, the pages and the server takes
its field from there. What each variable means is said once, in `VARIABLES`, and the
README's table of settings is held to it by a test. A workspace's own settings
(`workspace.toml`) are read the same way, once, by `engine.workspace.settings`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

ENV_STATE_DIR = "SYNAPSE_STATE_DIR"
ENV_WORKSPACE = "SYNAPSE_WORKSPACE"
ENV_WORKSPACES_ROOT = "SYNAPSE_WORKSPACES_ROOT"
ENV_OPEN_WAIT = "SYNAPSE_OPEN_WAIT"
ENV_ENCODER = "SYNAPSE_ENCODER"
ENV_ENCODER_THREADS = "SYNAPSE_ENCODER_THREADS"
ENV_READER = "SYNAPSE_READER"
ENV_MINILM_MODEL = "SYNAPSE_MINILM_MODEL"
ENV_MINILM_FOLDED = "SYNAPSE_MINILM_FOLDED"
ENV_LLM_BASE_URL = "SYNAPSE_LLM_BASE_URL"
ENV_LLM_MODEL = "SYNAPSE_LLM_MODEL"
ENV_LLM_API_KEY = "SYNAPSE_LLM_API_KEY"
ENV_REVIEWER = "SYNAPSE_REVIEWER"

# Each variable and what it does, for people: the README's settings table lists these.
VARIABLES: dict[str, str] = {
    ENV_STATE_DIR: "the folder for this user's derived state (index seal key, encoder tables, "
    "each workspace's index, vectors and passage offsets under `caches/`); "
    "default `$XDG_STATE_HOME/synapse-review` or `~/.local/state/synapse-review`",
    ENV_WORKSPACE: "the workspace the app opens first; default the built SciFact demo, "
    "else the bundled momentum-lab",
    ENV_WORKSPACES_ROOT: "folders (joined by the path separator) under which a link may open "
    "any workspace; the server's `--workspaces-root` sets it",
    ENV_OPEN_WAIT: "seconds a page waits for a workspace still loading before it draws",
    ENV_ENCODER: "the sentence encoder: `minilm` (default) or `none` for words alone",
    ENV_ENCODER_THREADS: "threads for a long encode (an index build); default up to 2",
    ENV_READER: "the trained reader that types contradiction candidates: `reader` (default) "
    "or `none` for the offline typer alone",
    ENV_MINILM_MODEL: "a MiniLM ONNX file to use instead of the installed pinned one "
    "(checked against the same hash)",
    ENV_MINILM_FOLDED: "`1` keeps the encoder's embedding tables in float32 (about 40 MB "
    "more memory, the same vectors)",
    ENV_LLM_BASE_URL: "the OpenAI-compatible endpoint the model reasoner and typer talk to",
    ENV_LLM_MODEL: "the model name to ask at that endpoint",
    ENV_LLM_API_KEY: "the endpoint's key; empty for a local server that needs none",
    ENV_REVIEWER: "the name a triage decision is recorded under; default the login name",
}


@dataclass(frozen=True)
class Environment:
    """The `SYNAPSE_*` variables as typed values; "" or None where a variable is unset.

    A value that does not parse (a wait that is no number, threads that are no positive
    integer) reads as unset, so the reader's default applies.
    """

    state_dir: Path | None = None
    xdg_state_home: str = ""
    workspace: str = ""
    workspaces_roots: tuple[str, ...] = ()
    open_wait: float | None = None
    encoder: str | None = None  # None unset; "" set empty (words alone)
    encoder_threads: int | None = None
    reader: str = ""  # "" unset: the reader is on
    minilm_model: str = ""
    minilm_folded: bool = False
    llm_base_url: str = ""
    llm_model: str = ""
    llm_api_key: str = ""
    reviewer: str = ""


def environment(env: Mapping[str, str] | None = None) -> Environment:
    """Every setting from `env` (the process environment by default), read now."""
    env = os.environ if env is None else env

    def text(name: str) -> str:
        return env.get(name, "").strip()

    roots = tuple(p.strip() for p in env.get(ENV_WORKSPACES_ROOT, "").split(os.pathsep))
    threads = text(ENV_ENCODER_THREADS)
    return Environment(
        state_dir=Path(env[ENV_STATE_DIR]) if env.get(ENV_STATE_DIR) else None,
        xdg_state_home=env.get("XDG_STATE_HOME", ""),
        workspace=text(ENV_WORKSPACE),
        workspaces_roots=tuple(p for p in roots if p),
        open_wait=_seconds(text(ENV_OPEN_WAIT)),
        encoder=env[ENV_ENCODER].strip() if ENV_ENCODER in env else None,
        encoder_threads=int(threads) if threads.isdigit() and int(threads) > 0 else None,
        reader=text(ENV_READER).lower(),
        minilm_model=text(ENV_MINILM_MODEL),
        minilm_folded=text(ENV_MINILM_FOLDED) not in ("", "0"),
        llm_base_url=text(ENV_LLM_BASE_URL),
        llm_model=text(ENV_LLM_MODEL),
        llm_api_key=text(ENV_LLM_API_KEY),
        reviewer=text(ENV_REVIEWER),
    )


def _seconds(raw: str) -> float | None:
    try:
        return max(0.0, float(raw)) if raw else None
    except ValueError:
        return None

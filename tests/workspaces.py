"""The one workspace factory: fresh copies of named workspace variants, under a tmp folder."""

from __future__ import annotations

import fcntl
import gzip
import hashlib
import json
import os
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from engine.api import open_workspace
from engine.core.environment import ENV_ENCODER
from engine.datasets.scifact import import_scifact

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"

# Each variant is a bundled example workspace, or None for an empty folder.
VARIANTS: dict[str, Path | None] = {
    "momentum-lab": EXAMPLES / "momentum-lab",
    "vault-lab": EXAMPLES / "vault-lab",
    "empty": None,
}


def make_workspace(where: Path, variant: str = "momentum-lab", *, name: str | None = None) -> Path:
    """A fresh copy of `variant` at `where / name` (the variant's name by default).

    Copies leave out `.synapse/`, so every copy starts unindexed and without app state.
    Raises KeyError for an unknown variant.
    """
    source = VARIANTS[variant]
    target = where / (name or variant)
    if source is None:
        target.mkdir(parents=True)
    else:
        shutil.copytree(source, target, ignore=shutil.ignore_patterns(".synapse"))
    return target


def user_bytes(root: Path) -> dict[str, str]:
    """Every user file under `root` (all but `.synapse/`) → its sha256, or where its link points.

    Links are recorded, never followed, so a write through one shows as a changed target.
    """
    out: dict[str, str] = {}
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root)
        if relative.parts[0] == ".synapse":
            continue
        if path.is_symlink():
            out[relative.as_posix()] = f"link -> {os.readlink(path)}"
        elif path.is_file():
            out[relative.as_posix()] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


@contextmanager
def words_alone() -> Iterator[None]:
    """Within: this process, and any app server it starts, answer on words alone."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(ENV_ENCODER, "none")
        yield


def built_once(factory: pytest.TempPathFactory, name: str, build: Callable[[Path], None]) -> Path:
    """The folder `name`, built by `build` once per test run, whichever worker asks first.

    The workers of one run share the parent of their temporary folders; a lock file there
    makes the others wait for the first build instead of repeating it. Users of the folder
    only read it (or copy it before writing).
    """
    base = factory.getbasetemp()
    shared = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "built-once"
    shared.mkdir(exist_ok=True)
    out, done = shared / name, shared / f"{name}.done"
    with (shared / f"{name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            shutil.rmtree(out, ignore_errors=True)
            with words_alone():
                build(out)
            done.touch()
    return out


def scifact_workspace(out: Path, limit: int | None = None) -> None:
    """A real SciFact workspace in `out`: the first `limit` abstracts, the claims citing them."""
    data = ROOT / "data" / "scifact"
    import_scifact(data / "corpus.jsonl.gz", data / "claims_train.jsonl", out, limit=limit)
    open_workspace(out).close()


def sentence_workspace(tmp: Path, findings: list[tuple[str, ...]]) -> Path:
    """A small SciFact-shaped workspace in `tmp/ws`: one abstract a finding, its sentences
    between an opening and a closing sentence (doc ids 100, 101, …), and 30 filler abstracts
    on asthma that rival none of them."""
    docs = [
        {"doc_id": str(100 + n), "title": f"Study {n}",
         "sentences": ["We conducted a study.", *sentences, "Funding was public."]}
        for n, sentences in enumerate(findings)
    ]  # fmt: skip
    docs += [
        {"doc_id": str(1000 + n), "title": f"Filler study {n} of asthma",
         "sentences": [f"Patients with asthma in cohort {n} were followed.",
                       "Therapy was recorded in 53 clinics."]}
        for n in range(30)
    ]  # fmt: skip
    corpus = tmp / "corpus.jsonl.gz"
    with gzip.open(corpus, "wt", encoding="utf-8") as out:
        out.writelines(json.dumps(doc) + "\n" for doc in docs)
    (tmp / "claims.jsonl").write_text("", encoding="utf-8")
    import_scifact(corpus, tmp / "claims.jsonl", tmp / "ws")
    return tmp / "ws"

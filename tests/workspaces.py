"""The one workspace factory: fresh copies of named workspace variants, under a tmp folder."""

from __future__ import annotations

import shutil
from pathlib import Path

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

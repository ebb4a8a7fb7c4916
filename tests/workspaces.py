"""The one workspace factory: fresh copies of named workspace variants, under a tmp folder."""

from __future__ import annotations

import hashlib
import os
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

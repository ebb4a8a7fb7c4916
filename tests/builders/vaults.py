"""A Markdown vault whose `#claim` note rests on three notes, one of them not written yet."""

from __future__ import annotations

from pathlib import Path

from tests.workspaces import make_workspace

CLAIM_QUESTION = "Is stroke-induced neurogenesis likely to become a therapy for stroke in humans?"
MISSING_ADDRESS = "zk:Concepts:Human-trial-of-neurogenesis"
MISSING_NAME = "Human trial of neurogenesis"
CLAIM = """# Neurogenesis therapy #claim

Stroke-induced neurogenesis is likely to become a therapy for stroke in humans #claim #topic/stroke.

See `#keep-in-code` and https://example.org/trial#results for the design.

derives-from:: [[Stroke and new neurons]]
derives-from:: [[IL-10 in NOD mice]]
derives-from:: [[Human trial of neurogenesis]]
"""


def claim_vault(where: Path) -> Path:
    """A copy of `examples/vault-lab` at `where` whose claim note links a note not written yet."""
    root = make_workspace(where, "vault-lab")
    (root / "Concepts" / "Stroke therapy.md").unlink()
    (root / "Concepts" / "Neurogenesis therapy.md").write_text(CLAIM, encoding="utf-8")
    return root

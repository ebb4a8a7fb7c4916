"""What the claim overlay is about: the relation between a practice entry and a canon note."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from enum import StrEnum
from typing import Any

from engine.core.jsonsafe import filled_strings
from engine.core.stance import ContradictionCue
from engine.workspace.notes import PRACTICE_SOURCE, Store, note_address

__all__ = ["EdgeKey", "Relation", "Typing"]


class Relation(StrEnum):
    """How a practice claim relates to a canon note."""

    SUPPORTS = "supports"
    CONTRADICTS = "contradicts"
    # A contradiction candidate whose confidence band was right too rarely out of fold to be
    # called one: kept for a reviewer, who may confirm it; it contests nothing by itself.
    TENSION = "tension"
    EXTENDS = "extends"
    UNRELATED = "unrelated"

    @property
    def candidate(self) -> bool:
        """Whether a reviewer triages it: a machine contradiction or a possible tension."""
        return self in (Relation.CONTRADICTS, Relation.TENSION)


@dataclass(frozen=True)
class Typing:
    """One typed (practice, canon) pair; `evidence` is the canon sentence relied on, verbatim.

    `cue` names what disagrees when the relation is `contradicts` (else `none`).
    """

    relation: Relation
    confidence: float
    rationale: str
    evidence: str = ""
    cue: ContradictionCue = ContradictionCue.NONE

    @classmethod
    def unrelated(cls, rationale: str, evidence: str = "") -> Typing:
        return cls(Relation.UNRELATED, 0.0, rationale, evidence)

    @classmethod
    def failed(cls, reason: str) -> Typing:
        return cls(Relation.UNRELATED, 0.0, f"model typer failed: {reason}")


# The files saved before the stores were named practice and canon keep their keys: an
# edge's ids are written and read under these names, whatever the fields are called.
WIRE_KEYS = {"practice_id": "memory_id", "canon_source": "zk_source", "canon_id": "zk_id"}


@dataclass(frozen=True, order=True)
class EdgeKey:
    """Which (practice entry, canon note) pair an edge, a brief or a triage decision is about."""

    practice_id: str
    canon_source: str
    canon_id: str

    @property
    def practice_address(self) -> str:
        return note_address(Store.PRACTICE, PRACTICE_SOURCE, self.practice_id)

    @property
    def canon_address(self) -> str:
        return note_address(Store.CANON, self.canon_source, self.canon_id)

    @property
    def token(self) -> str:
        """The key as one string, for a selection or a link (`EdgeKey.from_token` reads it)."""
        return f"{self.practice_id}|{self.canon_source}|{self.canon_id}"

    @classmethod
    def from_token(cls, text: object) -> EdgeKey | None:
        """The key a `token` names, or None when `text` is not one."""
        parts = text.split("|") if isinstance(text, str) else []
        return cls(*parts) if len(parts) == 3 and all(parts) else None

    def to_dict(self) -> dict[str, Any]:
        """The key under its wire names (`WIRE_KEYS`), as the overlay and triage files hold it."""
        return {WIRE_KEYS[name]: value for name, value in asdict(self).items()}

    @classmethod
    def from_dict(cls, data: object) -> EdgeKey:
        """Raises ValueError unless `data` holds the three ids as non-empty strings."""
        if not isinstance(data, dict):
            raise ValueError("edge is not an object")
        values = [data.get(wire) for wire in WIRE_KEYS.values()]
        if not filled_strings(values):
            raise ValueError("edge needs memory_id, zk_source and zk_id as strings")
        return cls(*values)

"""How the claim overlay draws its candidate pairs and which typed edges it keeps."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from engine.core.errors import ConfigError


@dataclass(frozen=True)
class OverlayConfig:
    """How candidates are drawn and which typed edges are kept."""

    k: int = 5
    overfetch: int = 3
    sim_floor: float = 0.3
    min_confidence: float = 0.55
    limit: int | None = None  # only the first N practice entries, in address order

    def __post_init__(self) -> None:
        if self.k < 1 or self.overfetch < 1:
            raise ConfigError("k and overfetch must be at least 1")
        if not (0.0 <= self.sim_floor <= 1.0 and 0.0 <= self.min_confidence <= 1.0):
            raise ConfigError("sim_floor and min_confidence must lie in [0, 1]")
        if self.limit is not None and self.limit < 0:
            raise ConfigError("limit must not be negative")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

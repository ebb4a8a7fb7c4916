"""The bounds on one navigation: hops from the seeds, nodes in the neighbourhood, policy steps."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.core.errors import ConfigError


@dataclass(frozen=True)
class Budget:
    """Bounds on a navigation: hops from the seeds, nodes in the neighbourhood, policy steps."""

    hops: int = 2
    max_nodes: int = 40
    max_steps: int = 12

    def __post_init__(self) -> None:
        for name, low in (("hops", 0), ("max_nodes", 1), ("max_steps", 1)):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < low:
                raise ConfigError(
                    f"budget {name} must be an integer of at least {low}, got {value!r}"
                )
        if self.max_nodes > 5_000 or self.max_steps > 500 or self.hops > 20:
            raise ConfigError("budget too large: at most 20 hops, 5,000 nodes and 500 steps")

    def to_dict(self) -> dict[str, Any]:
        return {"hops": self.hops, "max_nodes": self.max_nodes, "max_steps": self.max_steps}

"""The engine's JSON seam: route a wire payload and return the decision as plain data."""

from __future__ import annotations

import json
from pathlib import Path

from engine.router import route
from engine.wire import parse_payload


def route_payload(payload: dict, *, workspace: str | Path | None = None) -> dict:
    """Route a decoded wire payload; raises `PayloadError` naming the problem when malformed.

    The result is JSON-serialisable and identical for identical input.
    """
    return route(parse_payload(payload), workspace=workspace).to_dict()


def dumps(data: object) -> str:
    """Canonical JSON: sorted keys, so identical input gives byte-identical output."""
    return json.dumps(data, sort_keys=True, ensure_ascii=False, indent=None)

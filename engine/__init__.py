"""Synapse Review engine: grounded navigation, routing and review, with no Streamlit import.

The public names below load on first use so that `import engine` stays cheap.
"""

from importlib import import_module

_EXPORTS = {
    "EngineError": "engine.errors",
    "PayloadError": "engine.errors",
    "route_payload": "engine.api",
    "open_workspace": "engine.api",
    "ask": "engine.api",
    "Budget": "engine.substrate",
    "verify_quote": "engine.quote",
    "route": "engine.router",
    "parse_payload": "engine.wire",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'engine' has no attribute {name!r}")
    return getattr(import_module(module), name)

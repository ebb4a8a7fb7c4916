"""Synapse Review engine: grounded navigation, routing and review, with no Streamlit import.

The public names below load on first use so that `import engine` stays cheap.
"""

from importlib import import_module

_EXPORTS = {
    "EngineError": "engine.core.errors",
    "PayloadError": "engine.core.errors",
    "route_payload": "engine.api",
    "open_workspace": "engine.api",
    "ask": "engine.api",
    "Budget": "engine.navigation.substrate",
    "verify_quote": "engine.core.quote",
    "route": "engine.core.router",
    "parse_payload": "engine.core.wire",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'engine' has no attribute {name!r}")
    return getattr(import_module(module), name)

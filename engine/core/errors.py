"""The one small exception hierarchy of the engine: raised only for misuse or bad input."""


class EngineError(Exception):
    """Base of every error the engine raises on purpose."""


class PayloadError(EngineError):
    """A wire payload or reasoning DAG is malformed; the message names the problem."""


class WorkspaceError(EngineError):
    """A workspace cannot be opened or a path inside it is unsafe."""


class ConfigError(EngineError):
    """A setting (budget, reasoner, endpoint) is invalid."""


class EncoderUnavailable(EngineError):
    """An encoder cannot run here (a package or its weights missing); the message says which."""

"""The reasoner registry: names mapped to factories; the built-ins register like a user's."""

from __future__ import annotations

from collections.abc import Callable

from engine.core.errors import ConfigError
from engine.core.registry import PLUGIN_GROUPS, Registry
from engine.models.llm import LLMConfig, OpenAIChat
from engine.navigation.navigator import Policy
from engine.navigation.reasoners.model_reasoner import ModelReasoner
from engine.navigation.reasoners.offline import OfflineReasoner

# A reasoner by registered name (`offline`, `openai`) or a policy object itself.
ReasonerSpec = str | Policy
Factory = Callable[[], Policy]

REASONERS: Registry[Factory] = Registry("reasoner", plugins=PLUGIN_GROUPS["reasoner"])


def register(name: str, factory: Factory) -> None:
    """Register a reasoner factory under `name` in `REASONERS`, replacing any earlier one."""
    REASONERS.register(name, factory)


def make_reasoner(name: str, *, registry: Registry[Factory] | None = None) -> Policy:
    """A fresh reasoner by name; raises ConfigError for an unknown name."""
    reasoners = REASONERS if registry is None else registry
    factory = reasoners.get(name)
    if factory is None:
        raise ConfigError(f"unknown reasoner {name!r} (known: {', '.join(reasoners.names())})")
    return factory()


def _openai_from_env() -> ModelReasoner:
    return ModelReasoner(OpenAIChat(LLMConfig.from_env()))


register("offline", OfflineReasoner)
register("openai", _openai_from_env)

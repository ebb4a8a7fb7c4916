"""The workspace's settings, `workspace.toml`, read once into one typed value.

The loader takes the vault folders and federated boxes from it and review takes the
contest scope; a file that cannot be read is one problem, named the same way for both.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Any

from engine.core.errors import ConfigError
from engine.core.paths import resolve_inside
from engine.workspace.layout import CONFIG_FILE
from engine.workspace.user_files import Refused, read_regular, read_toml

MAX_SETTINGS_BYTES = 1024 * 1024


class ContestScope(StrEnum):
    """Which contradictions make their endpoints contested for the router."""

    CONFIRMED = "confirmed"
    UNREVIEWED = "unreviewed"


@dataclass(frozen=True)
class WorkspaceSettings:
    """What `workspace.toml` says; empty when there is none.

    `problem` names why the file was not read ("" when it was, or is absent); the loader
    reports it and review refuses to guess a contest scope past it.
    """

    document: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    problem: str = ""

    @property
    def is_vault(self) -> bool:
        """Whether the settings declare a `[vault]` section mapping folders to stores."""
        return "vault" in self.document

    def contest(self) -> ContestScope:
        """The `contest` setting; `confirmed` when it is not set.

        Raises ConfigError naming the problem when the file or the setting is unusable.
        """
        if self.problem:
            raise ConfigError(f"{CONFIG_FILE}: {self.problem}")
        value = self.document.get("contest", ContestScope.CONFIRMED.value)
        try:
            return ContestScope(value)
        except ValueError:
            names = " or ".join(f'"{s.value}"' for s in ContestScope)
            raise ConfigError(f"{CONFIG_FILE}: contest must be {names}, got {value!r}") from None


def read_settings(root: str | os.PathLike[str]) -> WorkspaceSettings:
    """The settings of the workspace at `root`; never raises."""
    safe = resolve_inside(root, CONFIG_FILE)
    if safe.path is None:
        return WorkspaceSettings(problem=f"symlink not followed: {safe.reason}")
    try:
        data = read_regular(safe.path, limit=MAX_SETTINGS_BYTES)[0]
    except FileNotFoundError:
        return WorkspaceSettings()
    except Refused as exc:
        return WorkspaceSettings(problem=f"cannot read workspace settings: {exc}")
    except OSError as exc:
        return WorkspaceSettings(problem=f"cannot read workspace settings: {exc.strerror or exc}")
    try:
        return WorkspaceSettings(MappingProxyType(read_toml(data)))
    except ValueError as exc:
        return WorkspaceSettings(problem=f"cannot read workspace settings: not valid TOML ({exc})")

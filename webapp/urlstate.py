"""What a page shows, kept in its URL: a shared link or a reload opens the same view.

Every page carries the workspace (`ws`), the asked question (`q`) and an audited payload
(`payload`, a hash of its text saved in the workspace, or `example`, a bundled one), plus
`shows=audit` when the DAG and Traceability pages show the audit rather than the answer.
The Claim matrix adds its filters, search and selected edge.

A page's own parameters are applied to its widgets only when the URL brings values this
session did not write itself (a link, a reload, a link from another page); on every other
run the widgets are the truth and are written back. A page switch in the browser clears the
URL; the values kept in the session are then written back.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import streamlit as st

from engine import QueueOrder
from webapp.state import KEYS

# Parameters every page carries, kept by `ui/shared.sync_url`.
GLOBAL = ("ws", "q", "payload", "example", "shows")


@dataclass(frozen=True)
class Param:
    """One URL parameter bound to one widget: how to read it, write it and its default."""

    name: str
    widget: str
    kind: str  # text | float | bool | list | choice
    default: Any = None

    def encode(self, value: Any) -> str | None:
        """The URL text of `value`, or None when it is the default (left out of the URL)."""
        if value == self.default or value is None:
            return None
        if self.kind == "bool":
            return "1" if value else None
        if self.kind == "list":
            return ",".join(str(v) for v in value) if value else "-"
        return str(value)

    def decode(self, text: str | None, options: Sequence[Any] = ()) -> Any:
        """The widget value `text` stands for; anything it cannot mean gives the default."""
        if text is None:
            return self.default
        if self.kind == "bool":
            return text in ("1", "true", "yes")
        if self.kind == "float":
            try:
                number = float(text)
            except ValueError:
                return self.default
            return min(1.0, max(0.0, round(number * 20) / 20)) if number == number else 0.0
        if self.kind == "list":
            if text == "-":
                return []
            wanted = [part for part in text.split(",") if part]
            return [o for o in options if str(o) in wanted] or self.default
        if self.kind == "choice":
            return next((o for o in options if str(o) == text), self.default)
        return text[:500]


def page_values(params: Sequence[Param]) -> dict[str, str]:
    """This page's parameters as the URL holds them now."""
    return {p.name: st.query_params[p.name] for p in params if p.name in st.query_params}


def linked(page: str, params: Sequence[Param]) -> dict[str, str] | None:
    """The page's parameters when a link or reload brought them, else None.

    They count as linked when present and different from what this session last wrote.
    """
    found = page_values(params)
    written = st.session_state.setdefault(KEYS.url_written, {})
    if found and found != written.get(page):
        written[page] = found
        return found
    return None


def restore(
    page: str,
    params: Sequence[Param],
    options: Mapping[str, Sequence[Any]],
    defaults: Mapping[str, Any] | None = None,
) -> None:
    """Give each widget its value before it is drawn: from a link, else as the session kept it.

    `options` are the values a list or choice parameter may take; `defaults` override a
    parameter's default where it depends on the data (the relations present).
    """
    state = st.session_state
    kept = state.setdefault(KEYS.url_kept, {}).setdefault(page, {})
    link = linked(page, params)
    for p in params:
        default = (defaults or {}).get(p.name, p.default)
        param = Param(p.name, p.widget, p.kind, default)
        allowed = options.get(p.name, ())
        if link is not None:
            state[p.widget] = param.decode(link.get(p.name), allowed)
        elif p.widget not in state:
            state[p.widget] = kept.get(p.widget, default)
        if p.kind in ("list", "choice") and allowed:
            value = state[p.widget]
            valid = [v for v in value if v in allowed] if p.kind == "list" else value
            if p.kind == "choice" and value not in allowed:
                valid = default
            state[p.widget] = valid


def save(page: str, params: Sequence[Param], defaults: Mapping[str, Any] | None = None) -> None:
    """Write the widgets' values to the URL (defaults left out) and keep them in the session."""
    state = st.session_state
    kept = state.setdefault(KEYS.url_kept, {}).setdefault(page, {})
    written: dict[str, str] = {}
    for p in params:
        value = state.get(p.widget)
        kept[p.widget] = value
        default = (defaults or {}).get(p.name, p.default)
        text = Param(p.name, p.widget, p.kind, default).encode(value)
        if text is None:
            st.query_params.pop(p.name, None)
        else:
            written[p.name] = text
            if st.query_params.get(p.name) != text:
                st.query_params[p.name] = text
    state.setdefault(KEYS.url_written, {})[page] = written


def keep_only(names: Sequence[str]) -> None:
    """Drop every parameter but the global ones and `names` (another page's stay behind)."""
    for name in list(st.query_params):
        if name not in GLOBAL and name not in names:
            st.query_params.pop(name, None)


# The Claim matrix's filters, search, view and selected edge, in the order they are drawn.
MATRIX = (
    Param("rel", KEYS.matrix_relations, "list"),
    Param("find", KEYS.matrix_search, "text", ""),
    Param("conf", KEYS.matrix_min_conf, "float", 0.0),
    Param("sort", KEYS.matrix_order, "choice", str(QueueOrder.PENDING)),
    Param("hv", KEYS.matrix_high_value, "bool", False),
    Param("contested", KEYS.matrix_contested, "bool", False),
    Param("pending", KEYS.matrix_pending, "bool", False),
    Param("view", KEYS.matrix_view, "choice", "Queue"),
    Param("edge", KEYS.matrix_selected, "text", None),
)
MATRIX_NAMES = tuple(p.name for p in MATRIX)
# The Library's search and selected paper.
LIBRARY = (
    Param("find", KEYS.library_find, "text", ""),
    Param("paper", KEYS.library_paper, "text", None),
)
PAGE_PARAMS = {
    "matrix": MATRIX_NAMES,
    "library": tuple(p.name for p in LIBRARY),
    "ask": ("cite", "row"),
    "audit-dag": ("cite",),
    "dag": ("cite",),
}

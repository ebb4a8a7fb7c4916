"""Text on one line, for display: white space collapsed, long text cut with an ellipsis."""

from __future__ import annotations


def one_line(text: object) -> str:
    """`text` with every run of white space, line breaks included, as one space."""
    return " ".join(str(text).split())


def shorten(text: object, width: int) -> str:
    """`text` on one line, cut to `width` characters with an ellipsis when longer."""
    flat = one_line(text)
    return flat if len(flat) <= width else flat[: width - 1].rstrip() + "…"

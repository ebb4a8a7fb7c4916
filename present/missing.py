"""Missing hops in the graphs: a premise not written yet, or never checked, drawn solid red.

Each is named as the link that points at it named it, and never left out of a drawing.
"""

from __future__ import annotations

import textwrap

from pyvis.network import Network

from engine import NavResult, Node
from present.markup import esc, missing_mark


def _wrapped(text: str) -> str:
    """The name on at most three lines of 24 characters."""
    return "\n".join(_label(line) for line in textwrap.wrap(text, 24)[:3]) or _label(text)


# The border around a missing hop's red box.
_EDGE_RED = "#7a1f16"


def _label(text: object) -> str:
    """Label text for vis-network in HTML mode, angle brackets neutralised (as in graphs)."""
    return str(text).replace("<", "‹").replace(">", "›")


def missing_node(net: Network, result: NavResult, ref: str) -> None:
    """A missing hop: named as the link named it, solid red, never left out of the DAG."""
    known = result.neighbourhood.nodes.get(ref)
    name = known.title if known is not None and known.title else ref
    unwritten = result.neighbourhood.unwritten(ref)
    state = "missing: not written yet" if unwritten else "missing: never checked"
    tip = (
        f"<b>{esc(name)}</b><br><code>{esc(ref)}</code><br>{esc(state)}: a missing hop, "
        "so nothing says whether it holds and no answer can rest on it"
    )
    net.add_node(
        f"cite:{ref}",
        label=f"<b>{_label(name)}</b>\n<i>{_label(state)}</i>",
        tip=tip,
        shape="box",
        margin=8,
        widthConstraint={"maximum": 220},
        borderWidth=3,
        color={"background": missing_mark.colour, "border": _EDGE_RED},
        font={"color": "#ffffff", "size": 13, "multi": "html"},
    )


def unwritten_node(net: Network, node: Node, x: float, y: float) -> None:
    """A note the walk's claim links to that is not written yet: a missing hop, in red."""
    net.add_node(
        node.address,
        label="✗ " + _wrapped(node.title or node.address) + "\n<i>missing: not written yet</i>",
        tip=(
            f"<b>{esc(node.title or node.address)}</b><br><code>{esc(node.address)}</code><br>"
            "a linked note not written yet: a missing hop"
        ),
        shape="box",
        x=x,
        y=y,
        borderWidth=3,
        color={"background": missing_mark.colour, "border": _EDGE_RED},
        font={"color": "#ffffff", "size": 18},
    )

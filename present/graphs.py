"""Graph pages built with pyvis: the navigation neighbourhood step by step, and the DAG."""

from __future__ import annotations

import math
import textwrap
from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any

from pyvis.network import Network

from engine import (
    ActionKind,
    Edge,
    NavResult,
    Neighbourhood,
    Node,
    PassagePlace,
    Step,
    passage_place,
)
from present.graph_labels import Box, dot_box, edge_label_place, label_box, overlap
from present.graph_page import PAST_EDGE, SEED_EDGE, network, render
from present.markup import (
    esc,
    relation_colours,
    store_colours,
    unknown_colour,
)
from present.missing import unwritten_node
from present.names import node_name

new_colour = "#e15759"


def label_text(text: object) -> str:
    """Text for a vis-network label in HTML mode, its angle brackets neutralised."""
    # vis-network 9.1.2 draws entities such as &lt; literally, so escaping would show; a
    # look-alike bracket keeps the text readable and can never open a tag.
    return str(text).replace("<", "‹").replace(">", "›")


# --- navigation -----------------------------------------------------------------------


def step_count(result: NavResult) -> int:
    """How many recorded steps the answer's trace has."""
    return len(result.steps)


def step_caption(result: NavResult, step: int) -> str:
    """One line saying what the navigator did at `step`."""
    trace = result.steps
    if not trace:
        return "no steps were recorded"
    item = trace[max(0, min(step, len(trace) - 1))]
    target = f" {node_name(result, item.target)}" if item.target else ""
    added = len(item.nodes_added)
    grew = f" (+{added} node{'s' if added != 1 else ''})" if added else ""
    return f"step {item.index}: {item.action.value}{target}{grew} — {item.reason}"


QUESTION_NODE = "question"
# A paper drawn above its passages (never a note address: addresses hold a colon).
PAPER_NODE = "paper~"
PAPER_RISE = 140.0  # how far above its passages a paper's box sits
grounded_colour = "#2e7d32"
cited_colour = "#b8860b"
store_shapes = {"zk": "dot", "mem": "square", "code": "triangle"}
LABEL_WIDTH = 22
LABEL_LINES = 3
RING_SPACING = 160.0  # layout units between neighbours on a ring of the walk graph
MAX_LABELS = 6  # labelled nodes in the walk graph; the others show their title on hover
QUESTION_FONT = 28
MIN_LABEL_PX = 11  # the smallest a label of the walk may be drawn on screen
NODE_FONT = 32  # large enough to read when the whole neighbourhood is fitted in view
RELATED_EDGE = "related"  # the navigator's edge between notes that share rare words
EDGE_FONT = 24  # an edge's relation, at least 11 px on screen at the page's floor zoom
cited_text = "#7a5200"  # a cited node's label: the gold of its mark, dark enough to read


@dataclass(frozen=True)
class WalkMarks:
    """What the walk did to each node up to a step: the marks a node keeps once it has them."""

    visible: tuple[str, ...]
    fresh: frozenset[str]
    expanded: frozenset[str]
    grounded: frozenset[str]
    cited: frozenset[str]
    seeds: tuple[str, ...]


def walk_marks(result: NavResult, step: int) -> WalkMarks:
    """The marks after `step` (clamped): visited, grounded and cited persist once set."""
    trace = result.steps
    step = max(0, min(int(step), len(trace) - 1)) if trace else 0
    shown = trace[: step + 1]
    visible = tuple(dict.fromkeys(a for s in shown for a in s.nodes_added))
    current = trace[step] if trace else None
    fresh = set(current.nodes_added) if current else set()
    if current and current.target:
        fresh.add(current.target)
    answered = any(s.action is ActionKind.ANSWER for s in shown)
    cited = frozenset(result.cited) if answered else frozenset()
    if current and current.action is ActionKind.ANSWER:
        fresh |= cited

    def targets(action: ActionKind) -> frozenset[str]:
        return frozenset(s.target for s in shown if s.action is action and s.target)

    seeds = tuple(a for s in trace[:1] if s.action is ActionKind.RETRIEVE for a in s.nodes_added)
    expanded, grounded = targets(ActionKind.EXPAND), targets(ActionKind.GROUND)
    return WalkMarks(visible, frozenset(fresh), expanded, grounded, cited, seeds)


def wrap_label(text: object, *, width: int = LABEL_WIDTH, lines: int = LABEL_LINES) -> str:
    """A title wrapped on word boundaries into at most `lines` lines, the last one shortened."""
    words = " ".join(str(text).split())
    wrapped = textwrap.wrap(words, width=width, break_long_words=True) or [""]
    if len(wrapped) > lines:
        last = textwrap.shorten(" ".join(wrapped[lines - 1 :]), width=width, placeholder="…")
        wrapped = [*wrapped[: lines - 1], last]
    return "\n".join(label_text(line) for line in wrapped)


def labelled_nodes(
    marks: WalkMarks,
    limit: int = MAX_LABELS,
    boxes: Mapping[str, Box] | None = None,
    taken: Sequence[Box] = (),
) -> frozenset[str]:
    """The visible nodes that carry a label: cited, new at this step, grounded, expanded, seeds.

    At most `limit`, in that order of importance, so labels stay large and readable at the
    default zoom; every other node shows its title on hover. With `boxes` (each node's label
    box in layout units), a label that would overlap one kept before, or one of `taken`,
    is left to the hover: labels never overlap, at any step of a replay.
    """
    ranked: list[str] = []
    for group in (marks.cited, marks.fresh, marks.grounded, marks.expanded, marks.seeds):
        ranked.extend(sorted(a for a in group if a in marks.visible))
    kept: list[str] = []
    placed = list(taken)
    for address in dict.fromkeys(ranked):
        if len(kept) >= limit:
            break
        box = boxes.get(address) if boxes is not None else None
        if box is not None:
            if any(overlap(box, other) for other in placed):
                continue
            placed.append(box)
        kept.append(address)
    return frozenset(kept)


def neighbourhood_html(
    result: NavResult,
    step: int,
    *,
    height: int = 520,
    overlay: Sequence[Edge] = (),
    library: str | None = None,
) -> str:
    """The walk after `step`: the question, its seeds, what each expansion revealed.

    Nodes are shaped by store (canon dot, practice square, code triangle) and keep their
    marks across steps (solid border once expanded, green once grounded, gold star label once
    cited); what changed at this step is enlarged with a red border. `overlay` edges (typed
    relations between a practice entry and a canon note) are drawn dashed between visible nodes.
    The page loads the graph library from `library` (see `graph_page.render`), else inline.
    """
    trace = result.steps
    hood = result.neighbourhood
    net = network(height, library=library)
    if not trace:
        return render(net, library)
    step = max(0, min(int(step), len(trace) - 1))
    marks = walk_marks(result, step)
    current = trace[step]
    positions = _positions(trace, hood)
    question = result.question
    names = {a: _node_label(hood, a) for a in marks.visible}
    boxes = {
        a: label_box(
            *positions.get(a, (0.0, 0.0)),
            ("★ ✓ " if a in marks.cited else "✓ ") + names[a],
            NODE_FONT,
            below=_dot_size(a, marks) + 4,
        )
        for a in marks.visible
    }
    # The cited nodes' names come first: the question's box gives way to them, shortened
    # to "Question" (its text is in the box above the page and in its tip) or left blank.
    cited_boxes = [boxes[a] for a in marks.cited if a in boxes]
    asked, taken = " ", []
    for text in (wrap_label(question, width=28), "Question"):
        box = label_box(0.0, 0.0, text, QUESTION_FONT, below=None)
        if not any(overlap(box, other) for other in cited_boxes):
            asked, taken = text, [box]
            break
    net.add_node(
        QUESTION_NODE,
        label=asked,
        tip=f"<b>Question</b><br>{esc(question)}",
        shape="box",
        x=0.0,
        y=0.0,
        borderWidth=2,
        color={"background": "#fff8dc", "border": "#333333"},
        font={"color": "#222222", "size": QUESTION_FONT},
    )
    labelled = labelled_nodes(marks, boxes=boxes, taken=taken)
    for address in marks.visible:
        node = hood.nodes.get(address) or Node(address, "", "", address, "", "")
        x, y = positions.get(address, (0.0, 0.0))
        is_new = address in marks.fresh
        grounded, cited = address in marks.grounded, address in marks.cited
        border = new_colour if is_new else grounded_colour if grounded else "#444444"
        prefix = ("★ " if cited else "") + ("✓ " if grounded else "")
        store = node.store
        if hood.unwritten(address):
            unwritten_node(net, node, x, y)
            continue
        # Only the nodes that matter at this step carry a label; the rest show it on hover.
        label = prefix + names[address] if address in labelled else " "
        net.add_node(
            address,
            label=label,
            tip=_node_tip(node, grounded, cited, address in marks.expanded),
            shape=store_shapes.get(store, "diamond"),
            size=_dot_size(address, marks),
            x=x,
            y=y,
            borderWidth=5 if is_new else (4 if grounded or cited else 2),
            color={
                "background": store_colours.get(store, unknown_colour),
                "border": border,
            },
            font={
                "color": cited_text if cited else "#222222",
                "size": NODE_FONT,
                "background": "rgba(255,255,255,0.85)",
            },
            shapeProperties={"borderDashes": False if address in marks.expanded else [4, 3]},
        )
    seen = set(marks.visible)
    placed = [*taken, *(boxes[a] for a in labelled if a in boxes)]
    placed += _papers(net, hood, marks.visible, positions, labelled)
    # A node's dot is no place for an edge's words either.
    placed += [dot_box(*positions.get(a, (0.0, 0.0)), _dot_size(a, marks)) for a in seen]
    first = trace[0]
    for seed in marks.seeds:
        if seed in seen:
            net.add_edge(
                QUESTION_NODE,
                seed,
                tip="retrieved for the question",
                color=new_colour if first is current else SEED_EDGE,
                width=2 if first is current else 1,
            )
    drawn: set[tuple[str, str, str]] = set()

    def draw(edge: Edge, *, prefix: str = "", **style: Any) -> None:
        """One edge between drawn nodes, once, whichever list it comes from."""
        src, dst, relation = edge.src, edge.dst, edge.relation
        if src in seen and dst in seen and (src, dst, relation) not in drawn:
            drawn.add((src, dst, relation))
            tip = f"<b>{prefix}{esc(relation)}</b><br>{esc(src)} → {esc(dst)}"
            # Index word overlap ("related") is the tip alone: on a link-less corpus every
            # edge is one, and their labels would only cover the nodes' names. Any other
            # relation is written at the edge's middle only where it covers no name, dot or
            # other edge's words; else it is the tip alone.
            label = "" if relation == RELATED_EDGE else label_text(relation)
            font: dict[str, Any] = {"size": EDGE_FONT}
            if label:
                ends = (positions.get(src, (0.0, 0.0)), positions.get(dst, (0.0, 0.0)))
                where = edge_label_place(ends, label, EDGE_FONT, placed)
                if where is None:
                    label = ""
                else:
                    font["vadjust"], box = where
                    placed.append(box)
            net.add_edge(src, dst, label=label, tip=tip, font=font, **style)

    # The overlay's typed relations (what a reviewer came for) are placed first, so a walk
    # edge's words give way to theirs.
    for edge in overlay:
        colour = relation_colours.get(edge.relation, "#7f7f7f")
        draw(edge, prefix="overlay: ", color=colour, dashes=True, width=1.5)
    for s in trace[: step + 1]:
        for edge in s.edges_added:
            now = s is current
            draw(edge, color=new_colour if now else PAST_EDGE, width=2.5 if now else 1)
    return render(net, library, min_label_px=MIN_LABEL_PX)


def _dot_size(address: str, marks: WalkMarks) -> int:
    """A node's dot radius: enlarged for what changed at this step."""
    return 22 if address in marks.fresh else 14


def _node_label(hood: Neighbourhood, address: str) -> str:
    """A node's label wrapped; a passage hangs under its paper's box, so its label is its page."""
    node = hood.nodes.get(address)
    title = node.title if node is not None else ""
    place = passage_place(address, title)
    return wrap_label(place.where if place is not None and place.where else title or address)


def _papers(
    net: Network,
    hood: Neighbourhood,
    visible: Iterable[str],
    positions: Mapping[str, tuple[float, float]],
    labelled: AbstractSet[str],
) -> list[Box]:
    """Each paper whose passages are drawn, as one box linked to them by page; its title is
    a label only when one of its passages carries one (else it shows on hover). Returns
    where the labelled titles are drawn."""
    pages: dict[str, list[tuple[str, PassagePlace]]] = {}
    for address in visible:
        node = hood.nodes.get(address)
        place = passage_place(address, node.title) if node is not None else None
        if place is not None:
            pages.setdefault(place.paper, []).append((address, place))
    drawn: list[Box] = []
    for paper, found in sorted(pages.items()):
        xs = [positions.get(a, (0.0, 0.0)) for a, _ in found]
        # Above its highest passage, so the box never sits on a passage's label.
        x = sum(p[0] for p in xs) / len(xs)
        y = min(p[1] for p in xs) - PAPER_RISE
        paper_id = f"{PAPER_NODE}{paper}"
        title = found[0][1].paper_title
        label = wrap_label(title) if any(a in labelled for a, _ in found) else " "
        if label.strip():
            drawn.append(label_box(x, y, label, NODE_FONT, below=None))
        net.add_node(
            paper_id,
            label=label,
            tip=f"<b>{esc(title)}</b><br>paper {esc(paper)}: its passages, by page",
            shape="box",
            x=x,
            y=y,
            borderWidth=1,
            color={"background": "#f4f1ea", "border": "#6b5b3e"},
            font={"color": "#222222", "size": NODE_FONT},
        )
        for address, place in found:
            net.add_edge(paper_id, address, tip=esc(place.where), color="#9c8a66", dashes=True)
    return drawn


def _node_tip(node: Node, grounded: bool, cited: bool, expanded: bool) -> str:
    lines = [
        f"<b>{esc(node.title or node.address)}</b>",
        f"<code>{esc(node.address)}</code>",
    ]
    kind = " · ".join(x for x in (node.store, node.kind) if x)
    if kind:
        lines.append(f"<i>{esc(kind)}</i>")
    if node.excerpt:
        lines.append(esc(node.excerpt))
    marks = [
        label
        for flag, label in (
            (grounded, "checked"),
            (cited, "cited by the answer"),
            (expanded, "expanded"),
            (not expanded, "links not followed"),
        )
        if flag
    ]
    if marks:
        lines.append(f"<small>{esc(', '.join(marks))}</small>")
    return "<br>".join(lines)


def _positions(trace: Sequence[Step], hood: Neighbourhood) -> dict[str, tuple[float, float]]:
    """Fixed places on rings round the question by hop, children near their parents."""
    hops = hood.hops
    order: list[str] = []
    parent: dict[str, str] = {}
    for s in trace:
        for address in s.nodes_added:
            order.append(address)
            if s.action is ActionKind.EXPAND and s.target:
                parent.setdefault(address, s.target)
    rings: dict[int, list[str]] = {}
    for address in dict.fromkeys(order):
        rings.setdefault(int(hops.get(address, 0)), []).append(address)
    angle: dict[str, float] = {}
    out: dict[str, tuple[float, float]] = {}
    radius = 0.0
    for depth in sorted(rings):
        ring = sorted(rings[depth], key=lambda a: angle.get(parent.get(a, ""), 0.0))
        # Each ring sits outside the last. Most nodes show their title on hover only, so a
        # ring packs them closer than a label's width: the fitted view stays large enough
        # for the few labels to read.
        radius = max(radius + 240.0, len(ring) * RING_SPACING / (2 * math.pi))
        for i, address in enumerate(ring):
            theta = 2 * math.pi * i / len(ring) + 0.3 * depth
            angle[address] = theta
            # Wider than tall: labels run horizontally.
            out[address] = (1.6 * radius * math.cos(theta), 0.8 * radius * math.sin(theta))
    return out

"""Where a graph's words are drawn: label boxes in layout units, and room for each.

Labels are estimated generously, so two labels estimated apart never touch when drawn;
the walk graph keeps a label only where its box covers no other (see `present.graphs`).
"""

from __future__ import annotations

from collections.abc import Sequence

# How much room a label takes, in layout units per unit of font size: wider than an average
# letter and taller than a line, so two labels estimated apart never touch when drawn.
CHAR_WIDTH = 0.62
LINE_HEIGHT = 1.3
LABEL_GAP = 6.0
EDGE_LABEL_LINES = 3  # how many lines off its edge a relation may move to stay clear
Box = tuple[float, float, float, float]


def label_box(x: float, y: float, label: str, font: float, *, below: float | None) -> Box:
    """Where a label is drawn, in layout units: under a dot `below` past its centre, or
    centred on a box shape (`below` None). Estimated generously (`CHAR_WIDTH`)."""
    lines = label.split("\n") or [""]
    width = max(len(line) for line in lines) * CHAR_WIDTH * font
    height = len(lines) * LINE_HEIGHT * font
    top = y + below if below is not None else y - height / 2
    return (x - width / 2, top, x + width / 2, top + height)


def overlap(a: Box, b: Box) -> bool:
    gap = LABEL_GAP
    return a[0] < b[2] + gap and b[0] < a[2] + gap and a[1] < b[3] + gap and b[1] < a[3] + gap


def edge_label_place(
    ends: tuple[tuple[float, float], tuple[float, float]],
    label: str,
    font: float,
    placed: Sequence[Box],
) -> tuple[float, Box] | None:
    """Where an edge's words go: on its middle, else the nearest of up to EDGE_LABEL_LINES
    lines above or below it that covers nothing `placed` (the vertical shift and the box);
    None when every place would cover something."""
    (x0, y0), (x1, y1) = ends
    middle = label_box((x0 + x1) / 2, (y0 + y1) / 2, label, font, below=None)
    height = middle[3] - middle[1]
    shifts = [0.0]
    for lines in range(1, EDGE_LABEL_LINES + 1):
        shifts += [-lines * height, lines * height]
    for shift in shifts:
        box = (middle[0], middle[1] + shift, middle[2], middle[3] + shift)
        if not any(overlap(box, other) for other in placed):
            return shift, box
    return None


def dot_box(x: float, y: float, size: float) -> Box:
    """The square a node's dot of `size` (its radius) covers."""
    return (x - size, y - size, x + size, y + size)

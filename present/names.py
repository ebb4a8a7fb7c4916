"""A walked node named as a reader knows it: a passage by its paper and page, a note by title.

The renderers show these names; a node's address stays in its tooltip and the downloads.
"""

from __future__ import annotations

from engine import NavResult, passage_place, shorten

NAME_CHARS = 70


def node_name(result: NavResult, ref: str) -> str:
    """`ref` as the walk knows it: "Paper title, p. 3", a note's title, else the address."""
    node = result.neighbourhood.nodes.get(ref)
    if node is None or not node.title.strip():
        return ref
    place = passage_place(ref, node.title)
    if place is not None:
        paper = shorten(place.paper_title, NAME_CHARS)
        return f"{paper}, {place.where}" if place.where else paper
    return shorten(node.title, NAME_CHARS)

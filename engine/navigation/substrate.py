"""The navigation substrate: nodes, edges, the budget, the neighbourhood and the store adapters."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from engine.core.errors import PayloadError
from engine.core.model import Address, Edge
from engine.navigation.budget import Budget as Budget
from engine.navigation.retrieval import retrieve
from engine.text.lines import shorten
from engine.workspace.index import Index
from engine.workspace.notes import PRACTICE_SOURCE, Note, Store
from engine.workspace.passage_notes import PASSAGE_BOX
from engine.workspace.semantic import Semantic
from engine.workspace.stores import Workspace

EXCERPT_CHARS = 280
CODE_STORE = "code"
CODE_SOURCE = "repo"
MAX_CODE_BYTES = 2 * 1024 * 1024
RELATED = "related"
RELATED_PER_EXPAND = 5
# The kind of a node a note links to that is not written yet: a missing hop, named by the link.
UNWRITTEN = "unwritten"


@dataclass(frozen=True)
class Node:
    """What the navigator sees of a note or file: its address, title and an excerpt."""

    address: str
    store: str
    source: str
    title: str
    excerpt: str
    kind: str

    @classmethod
    def from_note(cls, note: Note) -> Node:
        kind = note.type.value if note.type else ""
        return cls(
            note.address, note.store.value, note.source, note.title, _excerpt(note.body), kind
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "address": self.address,
            "store": self.store,
            "source": self.source,
            "title": self.title,
            "excerpt": self.excerpt,
            "kind": self.kind,
        }


@dataclass(frozen=True)
class Neighbourhood:
    """The nodes and edges reached so far, with each node's hop distance from the seeds."""

    nodes: Mapping[str, Node] = field(default_factory=dict)
    edges: tuple[Edge, ...] = ()
    hops: Mapping[str, int] = field(default_factory=dict)
    expanded: frozenset[str] = frozenset()

    def grow(
        self, nodes: Iterable[Node], edges: Iterable[Edge], *, hop: int, max_nodes: int
    ) -> tuple[Neighbourhood, tuple[str, ...], tuple[Edge, ...]]:
        """Add new nodes up to `max_nodes` and the edges whose both ends are present.

        Returns the grown neighbourhood and what was actually added; no edge dangles.
        """
        merged = dict(self.nodes)
        hops = dict(self.hops)
        added: list[str] = []
        for node in nodes:
            if node.address in merged or len(merged) >= max_nodes:
                continue
            merged[node.address] = node
            hops[node.address] = hop
            added.append(node.address)
        known = {(e.src, e.dst, e.relation) for e in self.edges}
        new_edges = []
        for edge in edges:
            key = (edge.src, edge.dst, edge.relation)
            if key in known or edge.src not in merged or edge.dst not in merged:
                continue
            known.add(key)
            new_edges.append(edge)
        grown = replace(self, nodes=merged, edges=self.edges + tuple(new_edges), hops=hops)
        return grown, tuple(added), tuple(new_edges)

    def unwritten(self, address: str) -> bool:
        """Whether `address` is a note some note links to that is not written yet."""
        node = self.nodes.get(address)
        return node is not None and node.kind == UNWRITTEN

    def mark_expanded(self, address: str) -> Neighbourhood:
        return replace(self, expanded=self.expanded | {address})


class Adapter(Protocol):
    """One store's view for navigation: retrieval, one-hop expansion and fetch-back.

    `store` and `source` are the first two segments of every address it owns (the
    navigator routes a node to the adapter whose pair matches).

    - `retrieve(query, k)` receives the question and how many seeds are wanted: at most
      `k` `Node`s, best first, deterministic for the same workspace; possibly none. If it
      raises, the run ends as a labelled abstention naming the error.
    - `expand(node)` receives a node it owns: its one-hop neighbours and the edges to them
      (links, backlinks, tethers). It may raise (an unreadable store, say): the navigator
      records the failure in the step and goes on with no neighbours.
    - `get(address)` receives an address it owns (fetch-back for callers outside the loop):
      the note, or None when it does not resolve. It should not raise.

    Retrieval and fetch-back are read-only; nothing is written to the workspace.
    """

    store: str
    source: str

    def retrieve(self, query: str, k: int) -> list[Node]: ...

    def expand(self, node: Node) -> tuple[list[Node], list[Edge]]: ...

    def get(self, address: str) -> Note | None: ...


class NoteAdapter:
    """Canon box or practice store backed by the workspace and the index."""

    def __init__(
        self,
        workspace: Workspace,
        index: Index,
        *,
        store: str,
        source: str,
        backlinks: Mapping[str, tuple[tuple[str, str], ...]],
        related: bool = False,
        semantic: Semantic | None = None,
    ):
        self.workspace, self.index, self.backlinks = workspace, index, backlinks
        self.store, self.source, self.related = store, source, related
        self.semantic = semantic

    def retrieve(self, query: str, k: int) -> list[Node]:
        found = retrieve(self.index, self.semantic, query, k, store=self.store, box=self.source)
        notes = (self.workspace.note(address) for address in found)
        return [Node.from_note(n) for n in notes if n is not None]

    def expand(self, node: Node) -> tuple[list[Node], list[Edge]]:
        note = self.workspace.note(node.address)
        if note is None:
            return [], []
        neighbours: list[Node] = []
        edges: list[Edge] = []
        for link in note.links:
            target = self.workspace.note(link.target_address)
            if target is not None:
                neighbours.append(Node.from_note(target))
                edges.append(Edge(note.address, target.address, link.relation))
        for source_address, relation in self.backlinks.get(note.address, ()):
            neighbours.append(Node.from_note(self.workspace.notes[source_address]))
            edges.append(Edge(source_address, note.address, relation))
        if note.tether is not None:
            code = code_node(self.workspace, note.tether.path)
            if code is not None:
                neighbours.append(code)
                edges.append(Edge(note.address, code.address, "tethers"))
        if not neighbours and self.related:
            return self._related(note)
        return neighbours, edges

    def _related(self, note: Note) -> tuple[list[Node], list[Edge]]:
        """The note's nearest neighbours in its own box by its rarest terms."""
        text = f"{note.title} {note.body}"
        hits = self.index.related(
            note.address, text, k=RELATED_PER_EXPAND, store=self.store, box=self.source
        )
        found = [n for n in (self.workspace.note(hit.address) for hit in hits) if n is not None]
        return (
            [Node.from_note(n) for n in found],
            [Edge(note.address, n.address, RELATED) for n in found],
        )

    def get(self, address: str) -> Note | None:
        return self.workspace.note(address)


class CodeAdapter:
    """Tethered files of the workspace, addressed `code:repo:<path>`."""

    store, source = CODE_STORE, CODE_SOURCE

    def __init__(self, workspace: Workspace):
        self.workspace = workspace

    def retrieve(self, query: str, k: int) -> list[Node]:
        return []

    def expand(self, node: Node) -> tuple[list[Node], list[Edge]]:
        path = Address.parse(node.address).id
        tethered = [
            n
            for n in self.workspace.notes.written.values()
            if n.tether is not None and n.tether.path == path
        ]
        return (
            [Node.from_note(n) for n in tethered],
            [Edge(n.address, node.address, "tethers") for n in tethered],
        )

    def get(self, address: str) -> Note | None:
        return None


def code_node(workspace: Workspace, path: str) -> Node | None:
    """A node for a tethered file, or None when it is missing or unsafe."""
    text = code_text(workspace, path)
    if text is None:
        return None
    return Node(
        f"{CODE_STORE}:{CODE_SOURCE}:{path}", CODE_STORE, CODE_SOURCE, path, _excerpt(text), "file"
    )


def code_text(workspace: Workspace, path: str) -> str | None:
    data = workspace.read_file(path, limit=MAX_CODE_BYTES)
    return None if data is None else data.decode("utf-8", errors="replace")


def build_adapters(
    workspace: Workspace, index: Index, semantic: Semantic | None = None
) -> list[Adapter]:
    """Adapters in a fixed priority: local canon boxes, federated boxes, the sources'
    passages, practice, code; with `semantic`, retrieval fuses BM25 with meaning."""
    backlinks = backlink_map(workspace)
    related = link_less(workspace)
    sources = [(Store.CANON.value, box) for box in workspace.boxes]
    sources += [(Store.CANON.value, fed.source) for fed in workspace.federated]
    if workspace.notes.passages:
        sources.append((Store.CANON.value, PASSAGE_BOX))
    sources.append((Store.PRACTICE.value, PRACTICE_SOURCE))
    adapters: list[Adapter] = [
        NoteAdapter(
            workspace,
            index,
            store=store,
            source=source,
            backlinks=backlinks,
            related=related,
            semantic=semantic,
        )
        for store, source in sources
    ]
    adapters.append(CodeAdapter(workspace))
    return adapters


def link_less(workspace: Workspace) -> bool:
    """True for a corpus whose notes hold no link and no tether (SciFact, say).

    There, expanding a note reveals its related notes from the index instead of nothing.
    """
    notes = workspace.notes
    if _link_less_seen and _link_less_seen[0][0] is notes:
        return _link_less_seen[0][1]
    # A passage holds no link and no tether: only the written notes can.
    answer = not any(n.links or n.tether is not None for n in notes.written.values())
    # One entry: a reasoner asks this at every step of a navigation over the same load.
    _link_less_seen[:] = [(notes, answer)]
    return answer


_link_less_seen: list[tuple[object, bool]] = []


def owner(adapters: Iterable[Adapter], address: str) -> Adapter | None:
    """The adapter whose store and source the address belongs to."""
    try:
        parsed = Address.parse(address)
    except PayloadError:
        return None
    return next((a for a in adapters if (a.store, a.source) == (parsed.store, parsed.source)), None)


def backlink_map(workspace: Workspace) -> Mapping[str, tuple[tuple[str, str], ...]]:
    """Incoming links per address: (linking note, relation)."""
    out: dict[str, list[tuple[str, str]]] = {}
    for note in workspace.notes.written.values():  # a passage links nowhere
        for link in note.links:
            out.setdefault(link.target_address, []).append((note.address, link.relation))
    return {k: tuple(v) for k, v in out.items()}


def unwritten_nodes(workspace: Workspace, refs: Iterable[str]) -> tuple[list[Node], list[Edge]]:
    """Nodes for `refs` that no note holds but some note links to, named as the link wrote
    them, with the links that point at them: a claim's missing hop, shown, never dropped."""
    wanted = {ref for ref in refs if workspace.note(ref) is None}
    nodes: dict[str, Node] = {}
    edges: list[Edge] = []
    if not wanted:
        return [], []
    for note in workspace.notes.written.values():  # a passage links nowhere
        for link in note.links:
            ref = link.target_address
            if ref not in wanted:
                continue
            edges.append(Edge(note.address, ref, link.relation))
            if ref not in nodes:
                where = Address.parse(ref)
                name = link.label or where.id
                nodes[ref] = Node(ref, where.store, where.source, name, "", UNWRITTEN)
    return [nodes[ref] for ref in sorted(nodes)], edges


def _excerpt(text: str) -> str:
    return shorten(text, EXCERPT_CHARS)

"""A hostile workspace loads what it can, reports the rest, never reads outside, escapes HTML."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from engine import Budget, NavResult, OpenWorkspace, cell_detail
from engine import triage_history as triage_rows
from engine.api import ask, open_workspace, route_payload
from engine.navigation.grounding import ground_node
from engine.navigation.substrate import Neighbourhood
from engine.review.matrix import matrix_frame
from engine.review.overlay import Overlay, OverlayEdge, save_overlay
from engine.review.relations import Relation
from engine.review.triage import record, state
from engine.workspace.passage_notes import PASSAGE_BOX
from engine.workspace.stores import TetherState, tether_status
from present.cells import quotes_html
from present.dag_graph import dag_html
from present.graphs import neighbourhood_html
from present.heatmap import matrix_figure
from present.highlight import cited_prose_html, highlight_html, sentence_rows, traceability
from present.markup import md_escape
from present.tables import claim_rows, claims_table_html, ground_rows, table_html
from present.views import audit_result, banner, explanations
from tests.hostile import BOX, HOVER, IMG, LEAKY_IDS, SCRIPT, Hostile, build_hostile

# What a refusal to read a path says, whichever check caught it.
REFUSAL = re.compile(
    r"leads outside the workspace|climbs out with '\.\.'|absolute path|not a file"
    r"|no usable source citekey"
)
RAW = (SCRIPT, IMG, HOVER)
# The only markup the app's own builders write; anything else came from the content.
BUILDER_TAGS = {
    "blockquote",
    "b",
    "br",
    "code",
    "div",
    "i",
    "small",
    "span",
    "sup",
    "table",
    "tbody",
    "td",
    "th",
    "thead",
    "tr",
}
BUILDER_ATTRS = {"class", "style", "title"}


class Tags(HTMLParser):
    """Every start tag of a fragment with its attribute names, and the text a reader sees."""

    def __init__(self, markup: str) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[str, tuple[str, ...]]] = []
        self.text = ""
        self.feed(markup)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found.append((tag, tuple(name for name, _ in attrs)))

    def handle_data(self, data: str) -> None:
        self.text += data


def assert_builder_markup_only(markup: str, tags: set[str] = BUILDER_TAGS) -> None:
    """Only the builders' own tags and attributes, and no hostile string left verbatim."""
    for tag, attrs in Tags(markup).found:
        assert tag in tags, (tag, markup[:300])
        assert set(attrs) <= BUILDER_ATTRS, (tag, attrs)
    for raw in RAW:
        assert raw not in markup


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Hostile:
    return build_hostile(tmp_path_factory.mktemp("hostile") / "ws")


@pytest.fixture(scope="module")
def opened(hostile: Hostile) -> Iterator[OpenWorkspace]:
    opened = open_workspace(hostile.root)
    yield opened
    opened.close()


@pytest.fixture(scope="module")
def runs(opened: OpenWorkspace, hostile: Hostile) -> dict[str, NavResult]:
    return {q: ask(opened, q) for q in hostile.questions}


@pytest.fixture(scope="module")
def answers(runs: dict[str, NavResult]) -> dict[str, dict[str, Any]]:
    return {q: run.to_dict() for q, run in runs.items()}


# --- loading --------------------------------------------------------------------------


def test_every_bad_file_is_reported_with_its_reason(
    opened: OpenWorkspace, hostile: Hostile
) -> None:
    report = [(p.path, p.problem) for p in opened.report]
    missing = [
        (path, reason)
        for path, reason in hostile.refused
        if not any(path == seen and reason in problem for seen, problem in report)
    ]
    assert missing == [], report
    assert {path for path, _ in report} == {path for path, _ in hostile.refused}


def test_the_good_notes_load_and_nothing_from_outside(
    opened: OpenWorkspace, hostile: Hostile
) -> None:
    notes = opened.workspace.notes
    # The marked source's text is split into passages too; every other note is one file's.
    passages = {a for a in notes if a.startswith(f"zk:{PASSAGE_BOX}:")}
    assert set(hostile.good) | set(hostile.leaky) | set(hostile.marked) == set(notes) - passages
    assert {notes[a].citekey for a in passages} <= {"marked"}
    # The same id in two boxes is two notes; twice in one box, the first file is kept.
    assert notes[f"zk:{BOX}:twin"].title == "Twin here"
    assert notes["zk:peer:twin"].title == "Twin there"
    assert not any(hostile.canary in n.title + n.body for n in notes.values())
    assert opened.index.search(hostile.canary) == []


# --- never reading outside ------------------------------------------------------------


def test_answers_never_show_what_lies_outside(
    answers: dict[str, dict[str, Any]], hostile: Hostile
) -> None:
    for question, result in answers.items():
        assert hostile.canary not in json.dumps(result), question
        for ref, check in (result["decision"].get("verifiers") or {}).items():
            if ref in hostile.leaky:
                assert check["status"] == "unverifiable", (ref, check)
                assert REFUSAL.search(check["detail"]), check
    reached = {n["address"] for r in answers.values() for n in r["neighbourhood"]["nodes"]}
    assert reached & set(hostile.leaky) and reached & set(hostile.marked)


@pytest.mark.parametrize("note_id", LEAKY_IDS, ids=str)
def test_grounding_a_leaky_note_is_unverifiable_with_the_reason(
    opened: OpenWorkspace, hostile: Hostile, note_id: str
) -> None:
    workspace = opened.workspace
    ground = ground_node(workspace, f"zk:{BOX}:{note_id}")
    assert ground is not None
    result, verdict = ground.check(workspace)
    if ground.spec is None:  # a tether: its file is refused, so its freshness is unknown
        assert ground.tether is TetherState.UNRESOLVED
        assert tether_status(workspace, workspace.notes[ground.address]) is TetherState.UNRESOLVED
    else:
        assert result is not None
        assert result.unverifiable, result
        assert REFUSAL.search(result.detail), result.detail
        assert hostile.canary not in json.dumps(result.to_dict())
    assert verdict.unresolved


def outside_groundings(hostile: Hostile) -> dict[str, dict[str, Any]]:
    climb = f"../{hostile.outside.name}"
    return {
        "quote-climbing-source": {"type": "quote", "payload": {"body": "x", "source": f"{climb}"}},
        "quote-linked-source": {"type": "quote", "payload": {"body": "x", "source": "leaky"}},
        "figure-absolute": {
            "type": "figure",
            "payload": {"path": str(hostile.outside / "canary.png")},
        },
        "figure-linked": {"type": "figure", "payload": {"path": "figures/leak.png"}},
        "recompute-linked": {
            "type": "expr-recompute",
            "payload": {"file": "data/leak.csv", "column": "ret", "agg": "mean", "value": 0.5},
        },
        "recompute-climbing": {
            "type": "expr-recompute",
            "payload": {
                "file": f"{climb}/canary.csv",
                "column": "ret",
                "agg": "mean",
                "value": 0.5,
            },
        },
        "tree-climbing": {
            "type": "decision_tree",
            "payload": {"file": f"{climb}/canary.json", "target": "root", "params": {}},
        },
    }


GROUNDING_KINDS = (
    "quote-climbing-source",
    "quote-linked-source",
    "figure-absolute",
    "figure-linked",
    "recompute-linked",
    "recompute-climbing",
    "tree-climbing",
)


@pytest.mark.parametrize("kind", GROUNDING_KINDS, ids=str)
def test_routed_groundings_at_outside_paths_are_unverifiable(hostile: Hostile, kind: str) -> None:
    ref = f"zk:{BOX}:leak-source"
    payload = {
        "dag": {
            "claims": [
                {
                    "id": "c1",
                    "text": "Momentum persists.",
                    "kind": "restatement",
                    "cites": [ref],
                    "premises": [],
                }
            ],
            "conclusion": "c1",
        },
        "prose": "Momentum persists.",
        "groundings": {ref: outside_groundings(hostile)[kind]},
    }
    decision = route_payload(payload, workspace=hostile.root)
    check = decision["verifiers"][ref]
    assert check["status"] == "unverifiable", check
    assert REFUSAL.search(check["detail"]), check["detail"]
    assert decision["label"] == "ABSTAIN"
    assert hostile.canary not in json.dumps(decision)


# --- HTML -----------------------------------------------------------------------------


def hostile_audit(hostile: Hostile) -> NavResult:
    """An audited payload whose every text field carries markup, with a failing quote."""
    ref = f"zk:{BOX}:marked"
    prose = f"Momentum persists {SCRIPT}. Stray {IMG} 42% claim."
    payload = {
        "dag": {
            "claims": [
                {
                    "id": "c1",
                    "text": f"Momentum persists {HOVER}",
                    "kind": "restatement",
                    "cites": [ref],
                    "premises": [],
                },
                {
                    "id": "c2",
                    "text": f"So it pays {SCRIPT}",
                    "kind": "inference",
                    "cites": ["zk:lab:<script>alert(3)"],
                    "premises": ["c1"],
                },
            ],
            "conclusion": "c2",
            "prose_citations": [{"start": 0, "end": 18, "claim": "c1"}],
        },
        "prose": prose,
        "groundings": {
            ref: {
                "type": "quote",
                "payload": {
                    "body": f"Momentum persists {IMG} always",
                    "fulltext": f"{IMG} {SCRIPT}",
                },
            }
        },
        "node_bodies": {ref: f"Momentum persists {HOVER}"},
    }
    return audit_result(json.dumps(payload), workspace=hostile.root).run


@pytest.fixture(scope="module")
def results(runs: dict[str, NavResult], hostile: Hostile) -> dict[str, NavResult]:
    marked = runs[hostile.questions[-1]]
    # The marked note, or a passage of its marked source: hostile text either way.
    of_marked = {a for a in marked.cited if a.startswith(f"zk:{PASSAGE_BOX}:marked~")}
    assert set(marked.cited) & (set(hostile.marked) | of_marked)
    return {"answer": marked, "audit": hostile_audit(hostile)}


HTML_BUILDERS: dict[str, Callable[[NavResult], str]] = {
    "cited-prose": cited_prose_html,
    "highlights": lambda r: highlight_html(r.prose, traceability(r)),
    "claims-table": lambda r: claims_table_html(claim_rows(r)),
    "grounds-table": lambda r: table_html(ground_rows(r)),
    "sentences-table": lambda r: table_html(sentence_rows(r)),
}


@pytest.mark.parametrize("source", ["answer", "audit"], ids=str)
@pytest.mark.parametrize("builder", list(HTML_BUILDERS), ids=str)
def test_html_builders_escape_hostile_text(
    results: dict[str, NavResult], builder: str, source: str
) -> None:
    markup = HTML_BUILDERS[builder](results[source])
    assert_builder_markup_only(markup)


@pytest.mark.parametrize("builder", list(HTML_BUILDERS), ids=str)
def test_hostile_markup_reaches_the_reader_as_text(
    results: dict[str, NavResult], builder: str
) -> None:
    # Otherwise the escaping test above would pass on empty tables.
    shown = Tags(HTML_BUILDERS[builder](results["audit"])).text
    assert any(raw in shown for raw in RAW), shown


def vis_items(page: str) -> list[dict[str, Any]]:
    """The nodes and edges a pyvis page hands to vis-network."""
    found = re.findall(r"(?:nodes|edges) = new vis\.DataSet\((.*?)\);\n", page, re.S)
    assert len(found) == 2
    return [item for data in found for item in json.loads(data)]


def graph_pages(result: NavResult) -> list[str]:
    steps = range(len(result.steps))
    return [dag_html(result), *(neighbourhood_html(result, step) for step in steps)]


@pytest.mark.parametrize("source", ["answer", "audit"], ids=str)
def test_graph_labels_and_tips_are_escaped(results: dict[str, NavResult], source: str) -> None:
    empty = NavResult("", "offline", Budget(), Neighbourhood(), ())
    template = Counter(tag for tag, _ in Tags(neighbourhood_html(empty, 0)).found)
    pages = graph_pages(results[source])
    for page in pages:
        # Content can add no element to the page, say by closing a script early.
        assert Counter(tag for tag, _ in Tags(page).found) == template
        for item in vis_items(page):
            # vis draws labels itself, reading only <b>, <i> and <code> in html mode.
            assert_builder_markup_only(str(item.get("label", "")), {"b", "i", "code"})
            assert_builder_markup_only(item.get("tip", ""), {"b", "br", "code", "i", "small"})
    shown = " ".join(Tags(item.get("tip", "")).text for page in pages for item in vis_items(page))
    assert any(raw in shown for raw in RAW)


def flat(values: object) -> list[str]:
    """Hover texts of a trace, whether given per point or per heatmap row."""
    out: list[object] = []
    for value in values if isinstance(values, list | tuple) else [values]:
        out += flat(value) if isinstance(value, list | tuple) else [value]
    return [v for v in out if isinstance(v, str)]


def test_matrix_hover_ticks_quotes_and_triage_are_escaped(tmp_path: Path) -> None:
    hostile = build_hostile(tmp_path / "ws", huge=False)
    edge = OverlayEdge(
        "marked-decision",
        BOX,
        "marked",
        Relation.CONTRADICTS,
        0.9,
        0.8,
        0.8,
        f"rationale {SCRIPT}",
        f"evidence {IMG}",
    )
    save_overlay(hostile.root, Overlay("t", "offline", {}, {}, 0.0, (edge,)))
    record(hostile.root, edge.key, "confirmed", note=f"note {IMG}")
    opened = open_workspace(hostile.root)
    try:
        overlay = Overlay("t", "offline", {}, {}, 0.0, (edge,))
        frame = matrix_frame(overlay, opened.workspace, triage=state(hostile.root))
        figure = matrix_figure(frame)
        quotes = cell_detail(opened, edge).quotes
    finally:
        opened.close()
    hovers = [text for trace in figure.data for text in flat(trace.hovertext) if text]
    ticks = [*figure.layout.xaxis.ticktext, *figure.layout.yaxis.ticktext]
    assert any(raw in Tags(text).text for text in [*hovers, *ticks] for raw in RAW)
    for text in hovers:
        assert_builder_markup_only(text, {"b", "br"})
    for text in ticks:
        assert_builder_markup_only(text, set())
    assert any(IMG in q.body for q in quotes)
    assert_builder_markup_only(quotes_html(quotes))
    assert_builder_markup_only(table_html(triage_rows(hostile.root)))


@pytest.mark.parametrize("source", ["answer", "audit"], ids=str)
def test_markdown_lines_escape_every_angle_bracket(
    results: dict[str, NavResult], source: str
) -> None:
    result = results[source]
    lines = [banner(result).text, result.question]
    lines += [s for e in explanations(result) for s in e.specifics]
    for line in lines:
        assert not re.search(r"(?<!\\)<", md_escape(line)), line

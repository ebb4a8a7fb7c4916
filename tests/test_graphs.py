import json
import re
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pandas as pd
import pytest

from engine import (
    Budget,
    Claim,
    Edge,
    NavResult,
    ReasoningDAG,
)
from engine.api import ask, open_workspace
from engine.core.model import ClaimKind
from engine.navigation.navigator import ActionKind, Step
from engine.navigation.substrate import Neighbourhood, Node
from present import dag_graph, graph_labels, graphs, heatmap, views
from present.gallery import example
from present.markup import flag_mark, status_colours, store_colours, violation_mark
from tests.values import decision
from tests.workspaces import make_workspace

HOSTILE_TITLE = "<img src=x onerror=alert(1)> <script>alert(1)</script>"
REMOTE_TAG = re.compile(r"<(?:script|link)\b[^>]*(?:src|href)\s*=\s*[\"']?\s*(?:https?:)?//", re.I)


def graph_data(markup: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The node and edge lists the page hands to vis-network."""
    nodes = re.search(r"nodes = new vis\.DataSet\((\[.*?\])\);\n", markup, re.S)
    edges = re.search(r"edges = new vis\.DataSet\((\[.*?\])\);\n", markup, re.S)
    assert nodes is not None and edges is not None
    return json.loads(nodes.group(1)), json.loads(edges.group(1))


def hostile_answer() -> NavResult:
    """A navigation result whose node titles, excerpts and relations are hostile."""
    a, b = "zk:lab:<script>", "mem:_memory:m1"
    relation = Edge(a, b, "<b>rel</b>")
    steps = (
        Step(0, ActionKind.RETRIEVE, None, "seed", nodes_added=(a,)),
        Step(1, ActionKind.EXPAND, a, "follow", nodes_added=(b,), edges_added=(relation,)),
        Step(2, ActionKind.ANSWER, None, "done"),
    )
    hood = Neighbourhood(
        nodes={
            a: Node(a, "zk", "lab", HOSTILE_TITLE, HOSTILE_TITLE, "finding"),
            b: Node(b, "mem", "lab", "Plain & simple", "", "finding"),
        },
        edges=(relation,),
        hops={a: 0, b: 1},
        expanded=frozenset({a}),
    )
    claim = Claim("c1", "x", ClaimKind.RESTATEMENT, (a,))
    answer = decision(ReasoningDAG((claim,), "c1"))
    return NavResult("q", "offline", Budget(), hood, steps, decision=answer)


@pytest.fixture(scope="module")
def lab_answers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, NavResult]]:
    root = make_workspace(tmp_path_factory.mktemp("graphs"), "momentum-lab", name="lab")
    opened = open_workspace(root)
    try:
        yield {
            "signal": ask(opened, "Does the momentum signal skip the most recent month?"),
            "crash": ask(opened, "Do momentum crashes occur after market rebounds?"),
        }
    finally:
        opened.close()


def assert_offline(markup: str) -> None:
    assert not REMOTE_TAG.search(markup)
    assert "sourceMappingURL" not in markup
    assert "cdn.jsdelivr" not in markup and "cdnjs.cloudflare" not in markup
    assert "vis.Network" in markup  # the library is inlined, not fetched


def test_neighbourhood_labels_and_tips_are_escaped() -> None:
    markup = graphs.neighbourhood_html(hostile_answer(), 2)
    assert "<img" not in markup and "<script>alert" not in markup
    nodes, edges = graph_data(markup)
    first = next(n for n in nodes if n["id"] == "zk:lab:<script>")
    assert first["label"].startswith("★ ‹img src=x\nonerror=")
    assert "<" not in first["label"]
    assert "&lt;img src=x onerror=alert(1)&gt;" in first["tip"]
    assert "<img" not in first["tip"] and "<script" not in first["tip"]
    plain = next(n for n in nodes if n["id"] == "mem:_memory:m1")
    assert plain["label"].strip() == ""  # neither new, cited, grounded nor expanded: on hover
    assert "Plain &amp; simple" in plain["tip"]
    relation = next(e for e in edges if e.get("label"))
    assert relation["label"] == "‹b›rel‹/b›"
    assert "&lt;b&gt;rel&lt;/b&gt;" in relation["tip"]


def test_the_walk_labels_only_the_nodes_that_matter_in_large_type(
    lab_answers: dict[str, NavResult],
) -> None:
    result = lab_answers["signal"]
    nodes, _ = graph_data(graphs.neighbourhood_html(result, len(result.steps) - 1))
    walked = [n for n in nodes if n["id"] != graphs.QUESTION_NODE]
    labelled = [n for n in walked if n["label"].strip()]
    assert 0 < len(labelled) <= graphs.MAX_LABELS < len(walked)
    assert all(n["font"]["size"] >= 30 for n in labelled)
    assert all(n["tip"] for n in walked)  # the others keep their title on hover
    cited = set(result.cited)
    assert cited <= {n["id"] for n in labelled}


def test_dag_labels_and_tips_are_escaped() -> None:
    data = json.loads(example("grounded").text)
    data["dag"]["claims"][0]["text"] = HOSTILE_TITLE
    data["dag"]["claims"][0]["id"] = "<script>"
    data["dag"]["conclusion"] = "<script>"
    data["dag"]["prose_citations"][0]["claim"] = "<script>"
    data["dag"]["prose_citations"][0]["end"] = len(data["prose"])
    result = views.audit_result(json.dumps(data)).run
    markup = dag_graph.dag_html(result)
    assert "<img" not in markup and "<script>alert" not in markup
    nodes, _ = graph_data(markup)
    claim = next(n for n in nodes if n["id"] == "claim:<script>")
    assert "‹script›" in claim["label"] and "<script" not in claim["label"]
    assert "&lt;img src=x onerror=alert(1)&gt;" in claim["tip"]


def test_graph_pages_make_no_remote_request(lab_answers: dict[str, NavResult]) -> None:
    for result in lab_answers.values():
        assert_offline(graphs.neighbourhood_html(result, 0))
        assert_offline(dag_graph.dag_html(result))
    assert_offline(graphs.neighbourhood_html(hostile_answer(), 1))


def test_node_ids_are_strings_and_tips_become_elements() -> None:
    markup = graphs.neighbourhood_html(hostile_answer(), 2)
    nodes, _ = graph_data(markup)
    assert all(isinstance(n["id"], str) for n in nodes)
    assert "box.innerHTML = item.tip" in markup


def _paper(node: dict[str, Any]) -> bool:
    """A paper box drawn above its passages, not a node of the walk."""
    node_id: str = node["id"]
    return node_id.startswith(graphs.PAPER_NODE)


def test_steps_grow_the_graph_and_highlight_what_is_new(lab_answers: dict[str, NavResult]) -> None:
    result = lab_answers["signal"]
    first, first_edges = graph_data(graphs.neighbourhood_html(result, 0))
    last_step = graphs.step_count(result) - 1
    last, last_edges = graph_data(graphs.neighbourhood_html(result, last_step))
    assert len(first) < len(last)
    seeds = [n for n in first if n["id"] != graphs.QUESTION_NODE and not _paper(n)]
    assert all(n["color"]["border"] == graphs.new_colour for n in seeds)
    # The question is joined to every seed it retrieved.
    walk = [e for e in first_edges if not e["from"].startswith(graphs.PAPER_NODE)]
    assert {(e["from"], e["to"]) for e in walk} == {(graphs.QUESTION_NODE, n["id"]) for n in seeds}
    cited = set(result.cited)
    fresh = {n["id"] for n in last if n["color"]["border"] == graphs.new_colour and not _paper(n)}
    assert fresh == cited
    # Every relation is named in its edge's tip; its words show on the edge where they
    # cover no name (see the overlap test below).
    relations = [e for e in last_edges if e.get("label") is not None]
    assert any("<b>tethers</b>" in e["tip"] for e in relations)
    assert {e["label"] for e in relations} >= {"implements", "qualified-by"}
    positions = {n["id"]: (n["x"], n["y"]) for n in first}
    assert all(positions[n["id"]] == (n["x"], n["y"]) for n in last if n["id"] in positions)


def test_unexpanded_nodes_are_dashed_and_expanded_ones_solid(
    lab_answers: dict[str, NavResult],
) -> None:
    result = lab_answers["signal"]
    nodes, _ = graph_data(graphs.neighbourhood_html(result, graphs.step_count(result) - 1))
    nodes = [n for n in nodes if n["id"] != graphs.QUESTION_NODE and not _paper(n)]
    expanded = set(result.neighbourhood.expanded)
    for node in nodes:
        dashed = node["shapeProperties"]["borderDashes"]
        assert (dashed is False) == (node["id"] in expanded)
    stores = {n["color"]["background"] for n in nodes}
    assert store_colours["zk"] in stores and store_colours["code"] in stores


def test_step_is_clamped_and_captioned(lab_answers: dict[str, NavResult]) -> None:
    result = lab_answers["crash"]
    steps = graphs.step_count(result)
    assert graph_data(graphs.neighbourhood_html(result, 999)) == graph_data(
        graphs.neighbourhood_html(result, steps - 1)
    )
    assert graphs.step_caption(result, 0).startswith("step 0: retrieve")
    assert graphs.step_caption(replace(result, steps=()), 0) == "no steps were recorded"


def test_dag_colours_claims_by_derived_status_and_marks_flags_and_violations() -> None:
    stale = graph_data(dag_graph.dag_html(views.audit_result(example("stale").text).run))[0]
    claim = next(n for n in stale if n["id"] == "claim:c1")
    assert claim["color"]["background"] == status_colours["inferred"]
    assert claim["color"]["border"] == flag_mark.colour
    assert claim["shapeProperties"]["borderDashes"]
    honest = graph_data(dag_graph.dag_html(views.audit_result(example("honesty").text).run))[0]
    claim = next(n for n in honest if n["id"] == "claim:c1")
    assert claim["color"]["background"] == status_colours["grounded"]
    assert claim["color"]["border"] == violation_mark.colour
    assert claim["label"].startswith("⚠")


def test_dag_draws_premises_and_cites_and_refuted_grounds() -> None:
    hedged = graph_data(dag_graph.dag_html(views.audit_result(example("hedged").text).run))
    assert {(e["from"], e["to"], e["label"]) for e in hedged[1]} == {
        ("claim:c2", "claim:p1", "rests on"),
        ("claim:p1", "cite:zk:lab:n1", "cites"),
    }
    refuted = graph_data(dag_graph.dag_html(views.audit_result(example("false-premise").text).run))[
        0
    ]
    cite = next(n for n in refuted if n["id"] == "cite:zk:lab:n1")
    assert "refuted" in cite["label"] and "near miss" in cite["tip"]


def test_matrix_figure_escapes_labels_and_bands_colours_by_relation() -> None:
    frame = pd.DataFrame(
        [
            {
                "practice_id": "m1",
                "practice_title": HOSTILE_TITLE,
                "canon_address": "zk:lab:<b>",
                "canon_source": "lab",
                "canon_id": "<b>",
                "canon_title": HOSTILE_TITLE,
                "relation": relation,
                "confidence": confidence,
                "claim_strength": None,
                "priority": 0.5,
                "high_value": False,
                "contested": relation == "contradicts",
                "triage": "confirmed" if relation == "contradicts" else "",
            }
            for relation, confidence in (("contradicts", 1.0), ("supports", 0.6))
        ]
    ).assign(practice_id=["m1", "m2"])
    figure = heatmap.matrix_figure(frame)
    heat, picks = figure.data
    assert list(figure.layout.xaxis.ticktext) == ["1"]  # titles go to the column key
    key = heatmap.column_key_html(heatmap.heatmap_view(frame))
    assert "&lt;img src=x" in key and "<img" not in key and "<b>1</b>" in key
    assert all("<img" not in t and "<script" not in t for t in figure.layout.yaxis.ticktext)
    hover = " ".join(picks.hovertext)
    assert "<img" not in hover and "<script" not in hover and "&lt;img" in hover
    assert heat.colorscale[0][0] == 0 and heat.colorscale[-1][0] == 1
    assert 1 < heat.z[0][0] < 2 and 0 < heat.z[1][0] < 1  # contradicts band, supports band
    assert heat.text[0][0] == "⚑✓"
    assert list(picks.customdata) == ["m1|lab|<b>", "m2|lab|<b>"]  # edge tokens, for selection
    event = {"selection": {"points": [{"customdata": picks.customdata[1]}]}}
    assert heatmap.picked_edge(event) == "m2|lab|<b>"
    assert heatmap.picked_edge({"selection": {"points": [{"customdata": 3}]}}) is None


def test_the_heatmap_paints_no_background_of_its_own() -> None:
    """The theme shows through: an opaque paper or plot colour is a bright block in the dark."""
    frame = pd.DataFrame([matrix_row(1, practice_id="m1", practice_title="entry 1")])
    layout = heatmap.matrix_figure(frame).layout
    for colour in (layout.paper_bgcolor, layout.plot_bgcolor):
        assert colour.startswith("rgba(") and float(colour.rstrip(")").split(",")[-1]) <= 0.2


def matrix_row(i: int, **fields: Any) -> dict[str, Any]:
    """One claim-matrix row: a supporting edge to canon note n`i`, `fields` set on top."""
    return {
        "canon_address": f"zk:lab:n{i}",
        "canon_title": f"note {i}",
        "relation": "supports",
        "confidence": 0.7,
        "claim_strength": 0.5,
        "high_value": False,
        "contested": False,
        "triage": "",
        **fields,
    }


def test_matrix_figure_shows_at_most_the_limit() -> None:
    rows = [matrix_row(i, practice_id=f"m{i}", practice_title=f"entry {i}") for i in range(12)]
    heat = heatmap.matrix_figure(pd.DataFrame(rows), limit=5).data[0]
    assert len(heat.y) == 5 and len(heat.x) == 5


def test_heatmap_pages_rows_and_columns_and_says_so() -> None:
    title = "Birth-weight and later outcomes in a long cohort study"
    rows = [
        matrix_row(i, practice_id=f"m{i // 2}", practice_title=title, canon_source="lab")
        for i in range(30)
    ]
    view = heatmap.heatmap_view(
        pd.DataFrame(rows), row_page=1, rows_per_page=10, columns_per_page=8
    )
    assert (view.rows.start, view.rows.stop, view.rows.total) == (10, 15, 15)
    assert (view.columns.stop, view.columns.total, view.drawn, view.total) == (8, 10, 8, 30)
    assert "showing 11–15 of 15 practice entries" in view.caption()
    assert "8 of 30 edges drawn" in view.caption()
    labels = list(view.figure.layout.yaxis.ticktext)
    assert len(set(labels)) == len(labels) == 5  # the same title, told apart by id


def test_grounded_and_cited_marks_persist_across_steps(lab_answers: dict[str, NavResult]) -> None:
    result = lab_answers["signal"]
    trace = result.steps
    first_ground = next(s for s in trace if s.action is ActionKind.GROUND)
    target = first_ground.target
    for step in range(first_ground.index, len(trace)):
        nodes, _ = graph_data(graphs.neighbourhood_html(result, step))
        node = next(n for n in nodes if n["id"] == target)
        assert "✓" in node["label"], step
        if node["color"]["border"] != graphs.new_colour:
            assert node["color"]["border"] == graphs.grounded_colour, step
    nodes, _ = graph_data(graphs.neighbourhood_html(result, len(trace) - 1))
    starred = {n["id"] for n in nodes if n["label"].startswith("★")}
    assert starred == set(result.cited)
    before, _ = graph_data(graphs.neighbourhood_html(result, len(trace) - 2))
    assert not any(n["label"].startswith("★") for n in before)


def test_stores_have_their_own_shapes(lab_answers: dict[str, NavResult]) -> None:
    nodes, _ = graph_data(graphs.neighbourhood_html(lab_answers["signal"], 99))
    shapes = {n["id"].split(":", 1)[0]: n["shape"] for n in nodes if ":" in n["id"]}
    assert shapes == {"zk": "dot", "mem": "square", "code": "triangle"}


@pytest.mark.parametrize(
    ("title", "lines"),
    [
        pytest.param("Short", ["Short"], id="short"),
        pytest.param(
            "Momentum returns persist over three to twelve months in US stocks",
            ["Momentum returns", "persist over three to", "twelve months in US…"],
            id="wrapped-and-shortened",
        ),
    ],
)
def test_labels_wrap_on_words(title: str, lines: list[str]) -> None:
    assert graphs.wrap_label(title).split("\n") == lines


def test_overlay_edges_draw_between_visible_nodes_only() -> None:
    result = hostile_answer()
    a, b = "zk:lab:<script>", "mem:_memory:m1"
    overlay = [Edge(b, a, "contradicts"), Edge(b, "zk:lab:absent", "supports")]
    _, edges = graph_data(graphs.neighbourhood_html(result, 2, overlay=overlay))
    drawn = [e for e in edges if e.get("dashes")]
    assert [(e["from"], e["to"], e["label"]) for e in drawn] == [(b, a, "contradicts")]


@pytest.mark.parametrize("name", ["signal", "crash"])
def test_walk_labels_never_overlap_and_the_cited_is_named_at_every_step(
    lab_answers: dict[str, NavResult], name: str
) -> None:
    result = lab_answers[name]
    for step in range(len(result.steps)):
        nodes, edges = graph_data(graphs.neighbourhood_html(result, step))
        boxes = {}
        for n in nodes:
            if not n["label"].strip() or n["id"].startswith(graphs.PAPER_NODE):
                continue
            below = None if n["id"] == graphs.QUESTION_NODE else n["size"] + 4
            boxes[n["id"]] = graph_labels.label_box(
                n["x"], n["y"], n["label"], n["font"]["size"], below=below
            )
        at = {n["id"]: (n["x"], n["y"]) for n in nodes}
        for e in edges:
            if e.get("label"):
                (x0, y0), (x1, y1) = at[e["from"]], at[e["to"]]
                middle = ((x0 + x1) / 2, (y0 + y1) / 2)
                box = graph_labels.label_box(*middle, e["label"], e["font"]["size"], below=None)
                shift = e["font"].get("vadjust", 0.0)
                shifted = (box[0], box[1] + shift, box[2], box[3] + shift)
                boxes[f"edge {e['from']} {e['to']} {e['label']}"] = shifted
        ids = sorted(boxes)
        for i, a in enumerate(ids):
            for b in ids[i + 1 :]:
                assert not graph_labels.overlap(boxes[a], boxes[b]), (step, a, b)
    labelled = {n["id"] for n in nodes if n["label"].strip()}
    assert set(result.cited) <= labelled


@pytest.mark.parametrize(
    ("placed", "shift"),
    [
        ([], 0.0),
        ([(40.0, -5.0, 60.0, 5.0)], -1.0),
        ([(40.0, -5.0, 60.0, 5.0), (40.0, -40.0, 60.0, -30.0)], 1.0),
        ([(-500.0, -500.0, 500.0, 500.0)], None),
    ],
    ids=["middle-free", "a-line-up", "a-line-down-when-up-is-taken", "nowhere-free"],
)
def test_an_edge_label_goes_where_it_covers_nothing(
    placed: list[graph_labels.Box], shift: float | None
) -> None:
    where = graph_labels.edge_label_place(((0.0, 0.0), (100.0, 0.0)), "cites", 24, placed)
    if shift is None:
        assert where is None
        return
    assert where is not None
    height = graph_labels.LINE_HEIGHT * 24
    assert where[0] == shift * height
    assert not any(graph_labels.overlap(where[1], other) for other in placed)

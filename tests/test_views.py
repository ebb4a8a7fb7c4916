import html
import json
import re
from dataclasses import replace
from typing import Any

import pandas as pd
import pytest

from engine import (
    Answer,
    Budget,
    Disclosure,
    Failure,
    FailureKind,
    NavResult,
    PayloadError,
    Traceability,
)
from engine.core.traceability import OrphanKind, OrphanSpan, SentenceTrace, TraceMode
from engine.navigation.substrate import Neighbourhood
from engine.review.contest import ContestScope, Contradiction, Disclosed, ReviewState
from engine.review.relations import EdgeKey
from engine.workspace.notes import Quote
from present import answer, cells, contests, highlight, markup, tables, views
from present.gallery import example, examples
from present.markup import (
    legend_html,
    md_escape,
    relation_legend_html,
    relation_swatches,
    status_colours,
    status_swatches,
    store_legend_html,
    trace_colours,
    trace_legend_html,
    trace_swatches,
)

HOSTILE = '<img src=x onerror=alert(1)> and <script>alert("x")</script>'


def routed(key: str) -> NavResult:
    return views.audit_result(example(key).text).run


def failed(kind: FailureKind, detail: str = "") -> NavResult:
    """A run that never reached the router."""
    failure = Failure(kind, detail)
    return NavResult("q", "offline", Budget(), Neighbourhood(), (), failure=failure)


def trace_of(
    prose: str, sentences: list[dict[str, Any]], spans: list[dict[str, Any]]
) -> Traceability:
    return Traceability(
        False,
        TraceMode.CITATION,
        sentences=tuple(SentenceTrace(**s) for s in sentences),
        spans=tuple(OrphanSpan(**{**s, "kind": OrphanKind(s["kind"])}) for s in spans),
    )


def hostile_result() -> NavResult:
    """A hostile claim id, claim text, cite and prose, routed for real."""
    ref = "zk:lab:<script>x</script>"
    data = {
        "dag": {
            "claims": [
                {"id": "<b>c1</b>", "text": HOSTILE, "kind": "restatement", "cites": [ref]},
            ],
            "conclusion": "<b>c1</b>",
            "prose_citations": [{"start": 0, "end": len(HOSTILE), "claim": "<b>c1</b>"}],
        },
        "prose": HOSTILE + " Then 42 more.",
        "node_status": {ref: {"tier": "grounded", "stale": True}},
        "node_bodies": {ref: HOSTILE},
        "asserted": {"<b>c1</b>": "measured"},
    }
    return views.audit_result(json.dumps(data)).run


def assert_escaped(markup: str) -> None:
    assert "<img" not in markup
    assert "<script" not in markup
    assert "&lt;img src=x onerror=alert(1)&gt;" in markup
    assert "&lt;script&gt;" in markup


def strip_tags(markup: str) -> str:
    return re.sub(r"<[^>]*>", "", markup)


def test_highlight_html_escapes_every_piece_of_text() -> None:
    result = hostile_result()
    assert result.decision is not None
    markup = highlight.highlight_html(result.prose, result.decision.traceability)
    assert "<img" not in markup and "<script" not in markup and "<b>" not in markup
    assert "&lt;script&gt;" in markup
    assert html.unescape(strip_tags(markup)) == result.prose
    assert 'title="orphan sentence: cites &lt;b&gt;c1&lt;/b&gt;' in markup


def test_claims_table_html_escapes_ids_text_and_cites() -> None:
    markup = tables.claims_table_html(tables.claim_rows(hostile_result()))
    assert_escaped(markup)
    assert "&lt;b&gt;c1&lt;/b&gt;" in markup
    assert "<b>c1</b>" not in markup


def test_plain_tables_and_cited_prose_escape_cells() -> None:
    result = hostile_result()
    assert_escaped(tables.table_html(highlight.sentence_rows(result)))
    assert "&lt;script&gt;" in tables.table_html(tables.ground_rows(result))
    assert_escaped(highlight.cited_prose_html(result))


def test_title_attributes_are_escaped() -> None:
    prose = 'A "quoted" <tag> & more.'
    trace = trace_of(
        prose,
        [{"start": 0, "end": len(prose), "text": prose, "claim": None, "reason": '"x"'}],
        [{"start": 0, "end": len(prose), "kind": "sentence", "reason": 'has "<x>"'}],
    )
    markup = highlight.highlight_html(prose, trace)
    assert 'title="orphan sentence: has &quot;&lt;x&gt;&quot;"' in markup
    assert "&lt;tag&gt; &amp; more." in markup


def test_highlight_marks_each_kind_with_its_colour_and_reason() -> None:
    result = routed("orphan-prose")
    prose = result.prose
    assert result.decision is not None
    markup = highlight.highlight_html(prose, result.decision.traceability)
    for kind in ("licensed", "orphan", "uncited", "number"):
        assert f'class="trace-{kind}"' in markup
        assert trace_colours[kind] in markup
    assert 'class="trace-number" style="background:#d9c8f5' in markup
    assert "stray number: in an orphan sentence" in markup
    assert "uncited: outside every citation" in markup
    assert 'title="restates c1"' in markup


def test_highlight_keeps_every_character_once() -> None:
    result = routed("orphan-prose")
    assert result.decision is not None
    markup = highlight.highlight_html(result.prose, result.decision.traceability)
    assert html.unescape(strip_tags(markup)) == result.prose


def test_number_wins_over_uncited_and_orphan_where_they_overlap() -> None:
    prose = "Up 40% today."
    trace = trace_of(
        prose,
        [{"start": 0, "end": 13, "text": prose, "claim": None, "reason": "r"}],
        [
            {"start": 0, "end": 13, "kind": "sentence", "reason": "r"},
            {"start": 3, "end": 6, "kind": "uncited", "reason": "u"},
            {"start": 3, "end": 6, "kind": "number", "reason": "n"},
        ],
    )
    markup = highlight.highlight_html(prose, trace)
    assert '<span class="trace-number"' in markup
    assert "orphan sentence: r; uncited: u; stray number: n" in markup


def test_empty_traceability_is_plain_escaped_text() -> None:
    assert highlight.highlight_html("a < b", None).endswith(">a &lt; b</div>")


def test_legend_names_every_status_and_both_marks() -> None:
    markup = legend_html()
    for name in ("measured", "grounded", "inferred", "assumption"):
        assert f">{name}</span>" in markup
        assert status_colours[name] in markup
    for flag in ("stale", "outdated", "contested", "unresolved"):
        assert flag in markup
    assert "honesty violation" in markup
    assert len({s.colour for s in status_swatches}) == 4
    assert len({s.colour for s in trace_swatches}) == 4


def test_trace_and_store_legends_cover_their_kinds() -> None:
    assert all(f">{s.name}</span>" in trace_legend_html() for s in trace_swatches)
    store = store_legend_html()
    # The stores by the names a reader knows, never their wire prefixes.
    names = ("canon", "practice", "code", "not expanded")
    assert all(f">{name}</span>" in store for name in names)
    assert ">zk</span>" not in store and ">mem</span>" not in store


@pytest.mark.parametrize(
    ("key", "tone", "start"),
    [
        ("grounded", "success", "ANSWER — grounded"),
        ("hedged", "warning", "HEDGED ANSWER"),
        ("stale", "error", "ABSTAIN — stale source."),
        ("missing-hop", "error", "ABSTAIN — missing hop."),
        ("false-premise", "error", "ABSTAIN — refuted source."),
        ("orphan-prose", "error", "ABSTAIN — unlicensed sentence."),
        ("honesty", "error", "ABSTAIN — honesty violation."),
        ("contested", "error", "ABSTAIN — contested source."),
        (
            "all-reasons",
            "error",
            "ABSTAIN — missing hop, stale source, refuted source, unlicensed sentence.",
        ),
    ],
    ids=[
        "grounded",
        "hedged",
        "stale",
        "missing-hop",
        "false-premise",
        "orphan-prose",
        "honesty",
        "contested",
        "all-reasons",
    ],
)
def test_banner_starts_with_the_label_and_names_status_or_reasons(
    key: str, tone: str, start: str
) -> None:
    verdict = views.banner(routed(key))
    assert verdict.tone == tone
    assert verdict.text.startswith(start)


def test_banner_discloses_outdated_and_failures() -> None:
    assert "outdated" in views.banner(routed("outdated")).text
    assert views.banner(failed(FailureKind.INTERNAL, "endpoint down")).text == (
        "ABSTAIN — the run failed. The run failed inside: endpoint down."
    )


@pytest.mark.parametrize(
    ("failure", "head", "advice"),
    [
        (
            Failure(FailureKind.ENDPOINT, "model endpoint failed: connection refused"),
            "the reasoner failed",
            "endpoint URL",
        ),
        (
            Failure(FailureKind.INVALID_OUTPUT, "model output invalid after 2 attempts: x"),
            "the model's reply was unusable",
            "JSON",
        ),
        (
            Failure(FailureKind.BUDGET, "step budget of 3 exhausted before an answer"),
            "step budget exhausted",
            "Raise",
        ),
        (Failure(FailureKind.NOTHING_FOUND), "nothing relevant found", "matched"),
    ],
    ids=["endpoint", "invalid", "budget", "nothing"],
)
def test_a_failed_run_is_an_actionable_error_not_a_coverage_verdict(
    failure: Failure, head: str, advice: str
) -> None:
    result = failed(failure.kind, failure.detail)
    verdict = views.banner(result)
    assert verdict.text.startswith(f"ABSTAIN — {head}.") and "low-coverage" not in verdict.text
    assert advice in verdict.text
    (item,) = views.explanations(result)
    assert item.reason == head


def test_every_abstain_reason_is_explained_with_specifics() -> None:
    result = routed("all-reasons")
    items = views.explanations(result)
    assert [i.reason for i in items] == [
        "missing hop",
        "stale source",
        "refuted source",
        "unlicensed sentence",
    ]
    assert all(i.explanation for i in items)
    by_reason = {i.reason: i for i in items}
    assert any("zk:lab:n1" in s for s in by_reason["missing hop"].specifics)
    assert any("zk:lab:n2" in s for s in by_reason["stale source"].specifics)
    assert any("nearest text in the source" in s for s in by_reason["refuted source"].specifics)
    (grounded,) = views.explanations(routed("grounded"))
    assert grounded.reason == "grounded" and grounded.specifics


def test_honesty_violation_is_explained_and_marked() -> None:
    result = routed("honesty")
    (item,) = views.explanations(result)
    assert any("as measured, but only grounded could be derived" in s for s in item.specifics)
    (row,) = tables.claim_rows(result)
    assert row["violation"] and row["asserted"] == "measured" and row["derived"] == "grounded"
    assert "⚠ grounded" in tables.claims_table_html([row])


def test_claim_and_ground_rows_carry_verifier_results() -> None:
    result = routed("false-premise")
    (row,) = tables.claim_rows(result)
    assert row["kind"] == "restatement" and row["conclusion"]
    assert "failed" in row["verifiers"][0] and "near miss" in row["verifiers"][0]
    (ground,) = tables.ground_rows(result)
    assert ground["verifier"] == "failed" and ground["near miss"]
    assert isinstance(ground["score"], float)


def test_ground_rows_show_a_reference_when_given_citations() -> None:
    result = routed("false-premise")
    (plain,) = tables.ground_rows(result)
    assert "reference" not in plain
    (ground,) = tables.ground_rows(result, citations={plain["cite"]: "Smith 2020, p. 3"})
    assert list(ground)[:2] == ["cite", "reference"] and ground["reference"] == "Smith 2020, p. 3"
    assert "Smith 2020, p. 3" in tables.table_html([ground])


def test_missing_hop_ground_row_says_so() -> None:
    (ground,) = tables.ground_rows(routed("missing-hop"))
    assert ground["status"] == "missing"
    assert "missing hop" in ground["detail"]


def test_sentence_rows_name_the_licensing_claim_or_the_reason() -> None:
    rows = highlight.sentence_rows(routed("orphan-prose"))
    assert [r["licensed"] for r in rows] == [True, False, False]
    assert rows[0]["claim"] == "c1" and rows[0]["claim text"]
    assert rows[2]["reason"] == "cites no claim"
    assert highlight.trace_counts(routed("orphan-prose")) == {
        "licensed": 1,
        "orphan": 2,
        "uncited": 4,
        "number": 2,
    }


def test_audit_result_has_the_answer_shape_and_rejects_cycles() -> None:
    result = routed("hedged")
    assert result.reasoner == "audit"
    assert result.decision is not None
    assert result.label == "HEDGED ANSWER" and result.decision.dag.conclusion == "c2"
    with pytest.raises(PayloadError, match="cycle"):
        views.audit_result(example("cyclic").text)
    with pytest.raises(PayloadError, match="not valid JSON"):
        views.audit_result("{nope")


def test_gallery_examples_reach_their_expected_decisions() -> None:
    seen = set()
    for item in examples():
        if item.expect == "invalid":
            with pytest.raises(PayloadError):
                views.audit_result(item.text)
            continue
        result = views.audit_result(item.text).run
        assert result.label == item.expect, item.key
        seen.add((result.label, answer.reasons(result)))
    labels = {label for label, _ in seen}
    assert labels == {"ANSWER", "HEDGED ANSWER", "ABSTAIN"}
    reasons = {r for _, rs in seen for r in rs}
    assert reasons == {"missing-hop", "stale", "false-premise", "low-coverage"}


def test_markdown_escape_neutralises_links_images_and_markup() -> None:
    text = md_escape("![x](http://evil/x.png) [a](b) *b* `c` <i>\n# h")
    assert "\\!" not in text and "!\\[x\\]" in text
    assert "\\*b\\*" in text and "\\`c\\`" in text and "\\<i\\>" in text
    assert "\n" not in text
    assert md_escape("# title") == "\\# title"
    assert md_escape("12. item") == "12\\. item"


def matrix_row(**overrides: Any) -> dict[str, Any]:
    row = {
        "practice_id": "m1",
        "practice_title": "A <script>alert(1)</script> decision",
        "canon_address": "zk:lab:n1",
        "canon_source": "lab",
        "canon_id": "n1",
        "canon_title": "<img src=x onerror=alert(1)>",
        "relation": "contradicts",
        "confidence": 0.9,
        "claim_strength": None,
        "priority": 0.5,
        "high_value": True,
        "contested": True,
        "triage": "",
    }
    return {**row, **overrides}


def test_triage_queue_puts_unreviewed_contradictions_first() -> None:
    frame = pd.DataFrame(
        [
            matrix_row(practice_id="a", triage="confirmed", priority=0.9),
            matrix_row(practice_id="b", relation="supports", priority=0.8),
            matrix_row(practice_id="c", priority=0.2),
            matrix_row(practice_id="d", priority=0.4),
        ]
    )
    assert list(cells.triage_queue(frame)["practice_id"]) == ["d", "c", "a"]


def test_cell_label_marks_the_triage_state() -> None:
    assert cells.cell_label(matrix_row(triage="dismissed")).endswith("contradicts 0.90 ✗")
    assert "×" in cells.cell_label(matrix_row())


def test_quotes_and_triage_tables_are_escaped() -> None:
    markup = cells.quotes_html([Quote("<q1>", HOSTILE, 3)], "Smith <b>2020</b>")
    assert_escaped(markup)
    # The source by name and page on screen; the quote's id only in the tooltip.
    assert "(Smith &lt;b&gt;2020&lt;/b&gt;, p. 3)" in markup
    assert "title='quote &lt;q1&gt;'" in markup and markup.count("q1") == 1
    assert cells.quotes_html([]) == "<small>No stored quotes.</small>"


def test_relation_legend_and_overlay_summary() -> None:
    legend = relation_legend_html()
    assert all(f">{s.name}</span>" in legend for s in relation_swatches)
    counts = {"practice": 3, "typed": 6, "kept": 2, "by_relation": {"supports": 2}}
    assert cells.overlay_summary(counts) == (
        "3 practice entries, 6 pairs typed, 2 kept (2 supports)."
    )


def test_the_queue_table_names_both_sides_with_cue_and_state() -> None:
    frame = pd.DataFrame(
        [
            matrix_row(practice_label="Decision A", canon_label="Note [n1]", cue="direction"),
            matrix_row(
                practice_label="Decision B", canon_label="Note [n2]", relation="supports", cue=""
            ),
            matrix_row(
                practice_label="Decision C", canon_label="N", cue="number", triage="confirmed"
            ),
        ]
    )
    table = cells.queue_table(frame)
    assert list(table.columns) == list(cells.QUEUE_COLUMNS)
    assert table["state"].tolist() == ["unreviewed", "—", "The literature claim is contested"]
    assert table["practice"].tolist() == ["Decision A", "Decision B", "Decision C"]
    assert table["cue"].tolist() == ["direction", "", "number"]


def test_a_decision_message_names_both_titles_the_relation_and_the_note() -> None:
    row = matrix_row(
        practice_title="Birth-weight cohort", canon_title="Chenodeoxycholic acid trial"
    )
    text = cells.decision_message(row, "confirmed", "Checked the cohort.")
    assert text == (
        "The literature claim is contested: “Birth-weight cohort” contradicts "
        "“Chenodeoxycholic acid trial” "
        "— note: Checked the cohort."
    )
    assert cells.decision_message(row, "dismissed", " ").endswith("— no note")


def test_the_contest_disclosure_is_escaped_and_links_each_edge() -> None:
    found = Contradiction(
        EdgeKey("m1", "lab", "n1"), ReviewState.UNREVIEWED, False, 0.81, "direction"
    )
    disclosed = Disclosed(found, "zk:lab:n1", HOSTILE, "A note")
    result = Answer(failed(FailureKind.EMPTY), Disclosure(ContestScope.CONFIRMED, (disclosed,)), "")
    markup = contests.contests_html(result)
    assert_escaped(markup)
    assert "unreviewed, confidence 0.81, cue: direction; does not contest it" in markup
    (line,) = contests.contest_lines(result)
    assert line.edge_id == "m1|lab|n1" and not line.contests
    nothing = replace(result, contests=Disclosure(ContestScope.CONFIRMED))
    assert contests.contests_html(nothing) == ""
    assert contests.review_note(replace(result, rerouted=True)).startswith("Re-routed")
    assert contests.review_note(replace(result, review_stale=True)).startswith("Stale")
    assert contests.review_note(result) == ""


def test_the_question_box_has_one_key_hint_and_the_cite_script_only_the_page_s_keys() -> None:
    css = markup.question_hint_css("question")
    assert ".st-key-question [data-testid='InputInstructions'] > span:first-child" in css
    assert 'content:"Enter asks, Shift+Enter: new line"' in css
    script = markup.cite_clicks_html("ask")
    assert '".st-key-ask_cite_"' in script and '".st-key-ask_evidence"' in script
    assert "parseInt(mark.getAttribute('data-source'),10)" in script


def test_a_legend_chip_without_a_colour_takes_the_theme_s() -> None:
    """A white chip is a bright block in the dark theme; a mark's chip has no fill."""
    legend = relation_legend_html()
    assert "background:#ffffff" not in legend
    assert "background:transparent;color:inherit" in legend

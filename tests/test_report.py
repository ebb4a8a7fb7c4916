"""The report to take away: what it holds, that it is the same for the same answer, and escaped."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from engine import (
    ReportReason,
    ReportWords,
    audit_answer,
    evidence_table,
    report_html,
    report_markdown,
)
from engine.api import answer
from present.gallery import example
from present.views import report_words

WINNERS = (
    "Does buying past winners and selling past losers generate abnormal returns over 3 to 12 "
    "month holding periods?"
)
CRASH = "Do momentum crashes occur after market rebounds?"
NAMES = {"zk:finance:z-mom-01": "Jegadeesh & Titman 1993"}


@pytest.fixture(scope="module")
def answers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    from engine.api import open_workspace
    from tests.workspaces import make_workspace

    root = make_workspace(tmp_path_factory.mktemp("report"), "momentum-lab")
    opened = open_workspace(root)
    try:
        winners = answer(opened, WINNERS)
        yield {
            "winners": winners,
            "crash": answer(opened, CRASH),
            "table": evidence_table(opened, winners),
        }
    finally:
        opened.close()


def test_a_grounded_answer_reports_question_verdict_dag_quote_page_and_source(
    answers: dict[str, Any],
) -> None:
    result = answers["winners"]
    words = report_words(result, names=NAMES, citations={})
    text = report_markdown(result, words)
    assert text.startswith("# Synapse Review report\n")
    assert f"**Question:** {WINNERS}" in text
    assert "## Verdict\n\nANSWER — grounded." in text
    # A yes/no question gets its reading: here the source says yes, in the question's words.
    assert "**Stance:** Yes" in text
    dag = text.split("## Reasoning DAG\n\n")[1].split("\n\n")[0]
    assert dag.startswith("- Buying past winners") and "(conclusion, restatement, grounded)" in dag
    assert "cites Jegadeesh & Titman 1993" in dag  # the source by name, never its address
    quotes = text.split("## Quotes\n\n")[1].split("\n\n")[0]
    assert "— Jegadeesh & Titman 1993, p. 2 (check: ok" in quotes
    assert "## Orphans\n\nNone: every sentence of the prose traces" in text
    assert "zk:finance:z-mom-01" not in text


def test_the_stance_is_reported_as_the_page_words_it(answers: dict[str, Any]) -> None:
    result = answers["winners"]
    words = ReportWords("ANSWER — grounded.", stance="The cited source supports the question.")
    assert "**Stance:** The cited source supports the question." in report_markdown(result, words)
    assert "<b>Stance:</b> The cited source supports the question." in report_html(result, words)


def test_an_abstention_reports_its_reasons_in_words_and_its_orphans(
    answers: dict[str, Any],
) -> None:
    result = answers["crash"]
    text = report_markdown(result, report_words(result))
    assert "ABSTAIN — refuted source" in text
    assert "- **refuted source**: A verifier refuted a ground" in text
    assert "the nearest text in the source is “Momentum crashes tend to occur" in text
    assert "## Not an answer (not licensed)" in text
    orphans = text.split("## Orphans\n\n")[1]
    assert orphans.startswith("- Momentum crashes never occur after market rebounds.")


@pytest.mark.parametrize("kind", ["markdown", "html"], ids=["markdown", "html"])
def test_the_same_answer_gives_the_same_report(answers: dict[str, Any], kind: str) -> None:
    render = report_markdown if kind == "markdown" else report_html
    result = answers["winners"]
    first = render(result, report_words(result, names=NAMES))
    again = render(result, report_words(result, names=dict(NAMES)))
    assert first == again


def test_the_html_report_escapes_every_text_from_the_payload() -> None:
    payload = json.loads(example("grounded").text)
    hostile = "<script>alert(1)</script> & <img src=x onerror=alert(2)>"
    payload["dag"]["claims"][0]["text"] = hostile
    result = audit_answer(json.dumps(payload))
    words = ReportWords(
        "ABSTAIN — <b>bold</b>", (ReportReason("<i>r</i>", "<u>why</u>", ("<s>x</s>",)),)
    )
    page = report_html(result, words)
    assert "<script>" not in page and "<img" not in page
    assert "<b>bold</b>" not in page and "<i>r</i>" not in page and "<s>x</s>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;img" in page
    text = report_markdown(result, words)
    assert "<script>" not in text and "\\<script\\>" in text


def test_a_run_that_never_reached_the_router_says_so(answers: dict[str, Any]) -> None:
    from dataclasses import replace

    result = answers["crash"]
    bare = replace(result, run=replace(result.run, decision=None))
    text = report_markdown(bare, ReportWords("ABSTAIN — nothing relevant found"))
    assert "## Reasoning DAG" not in text and "## Quotes" not in text
    assert "No prose was traced: the run never reached the router." in text


def test_the_evidence_table_is_a_section_of_the_report(answers: dict[str, Any]) -> None:
    result, table = answers["winners"], answers["table"]
    words = report_words(result, names=NAMES, citations={})
    assert "Evidence table" not in report_markdown(result, words)
    text = report_markdown(result, words, table)
    section = text.split("## Evidence table\n\n")[1].split("\n\n")[0]
    head, _, first = section.splitlines()
    assert head == "| # | Paper | Finding (verbatim) | Page | Stance | Row |"
    assert first.startswith("| 1 | Past winners keep beating past losers") and "| 2 |" in first
    assert first.endswith("| green |") and "abnormal returns of about 1% per month" in first
    page = report_html(result, words, table)
    assert "<h2>Evidence table</h2><table>" in page and "<td>green</td>" in page

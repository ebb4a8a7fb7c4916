"""Seed behaviours kept soundly: a typo'd quote licenses its source's own span; a sentence
saying exactly what a recomputation reproduced is measured."""

import json
from pathlib import Path
from typing import Any

import pytest

from engine.api import Answer, route_json, route_payload
from present.answer import answer_area
from tests import values

REF = "zk:lab:n1"
SOURCE = "Background first. Winner portfolios earned 1.2% a month in the sample. More follows."
TYPED = "Winner portfolois earned 1.2% a month in the sample."


def restating(claim: str, ground: dict[str, Any]) -> dict[str, Any]:
    return values.restating(claim, REF, ground)


def typed_quote(claim: str) -> dict[str, Any]:
    return restating(claim, {"type": "quote", "payload": {"body": TYPED, "fulltext": SOURCE}})


@pytest.mark.parametrize(
    "claim",
    [TYPED, "Winner portfolios earned 1.2% a month in the sample."],
    ids=["as-typed", "as-in-source"],
)
def test_a_typo_d_quote_licenses_its_source_span(claim: str) -> None:
    out = route_payload(typed_quote(claim))
    assert (out["label"], out["status"]) == ("ANSWER", "grounded"), out["detail"]
    assert out["verifiers"][REF]["method"] == "fuzzy"
    assert out["verifiers"][REF]["confirmed_source_text"] == (
        "Winner portfolios earned 1.2% a month in the sample."
    )


def test_the_answer_shows_the_source_spelling() -> None:
    out = route_payload(typed_quote(TYPED))
    assert out["claims"]["c1"]["as_in_source"] == (
        "Winner portfolios earned 1.2% a month in the sample."
    )


@pytest.mark.parametrize("spans", [True, False], ids=["cited-span", "no-spans"])
def test_the_page_and_the_report_show_the_answer_as_the_source_spells_it(spans: bool) -> None:
    payload = typed_quote(TYPED)
    if not spans:
        payload["dag"].pop("prose_citations")
    run = Answer.from_route(route_json(json.dumps(payload)), payload).run
    assert run.label == "ANSWER"
    shown = answer_area(run).html
    assert "Winner portfolios earned" in shown and "portfolois" not in shown
    assert run.spelt_prose == "Winner portfolios earned 1.2% a month in the sample."


@pytest.mark.parametrize(
    "claim",
    [
        "Winner portfolois earned 1.3% a month in the sample.",
        "Winner portfolois earned \u2212 1.2% a month in the sample.",
        "Winner portfolois did not earn 1.2% a month in the sample.",
        "Loser portfolois earned 1.2% a month in the sample.",
        "Winner portfolois earned 1.2% a month.",
    ],
    ids=["number", "sign", "negation", "word", "dropped-scope"],
)
def test_the_tolerance_is_typos_inside_words_only(claim: str) -> None:
    assert route_payload(typed_quote(claim))["label"] != "ANSWER"


def recomputed(tmp_path: Path, claim: str, agg: str = "mean") -> dict[str, Any]:
    (tmp_path / "data").mkdir(exist_ok=True)
    (tmp_path / "data" / "returns.csv").write_text("ret\n0.010\n0.014\n0.012\n", encoding="utf-8")
    payload = {"file": "data/returns.csv", "column": "ret", "agg": agg, "value": 0.012}
    data = restating(claim, {"type": "expr-recompute", "payload": payload | {"tolerance": 1e-9}})
    return route_payload(data, workspace=tmp_path)


def test_a_sentence_stating_the_reproduced_mean_is_measured(tmp_path: Path) -> None:
    out = recomputed(tmp_path, "Mean monthly return was 0.012.")
    assert (out["label"], out["status"]) == ("ANSWER", "measured"), out["detail"]


@pytest.mark.parametrize(
    "claim",
    [
        "Median monthly return was 0.012.",
        "Mean monthly return was 0.013.",
        "Mean monthly return was 0.012 in 12 months.",
        "Mean monthly return was not 0.012.",
        "Mean monthly return was at least 0.012.",
        "Monthly return was 0.012.",
    ],
    ids=["other-aggregate", "other-number", "second-number", "negated", "bound", "no-aggregate"],
)
def test_anything_beyond_the_recomputation_stays_below_green(tmp_path: Path, claim: str) -> None:
    out = recomputed(tmp_path, claim)
    assert not (out["label"] == "ANSWER" and out["status"] == "measured"), out["detail"]
    assert out["label"] != "ANSWER"

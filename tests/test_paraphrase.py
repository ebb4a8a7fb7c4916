"""A paraphrase the trained reader vouches for: at most hedged, its measure said, its wire checked."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.api import route_json
from engine.core.errors import PayloadError
from engine.core.paraphrase import Paraphrased, parse_paraphrased
from engine.core.wire import parse_payload
from engine.models.paraphraser import Band, ParaphraseBands

SOURCE = "Regular aspirin use was followed by fewer colorectal adenomas over ten years."
ABSTRACT = f"We followed 4,000 adults. {SOURCE} Bleeding was rare."
READ = {"evidence": 0.93, "band": [0.9, 0.95], "right": 41, "read": 52}


def payload(**extra: Any) -> dict[str, Any]:
    """One claim restating a sentence quoted from its abstract: green on its own."""
    ref = "zk:papers:p1"
    return {
        "dag": {
            "claims": [{"id": "c1", "text": SOURCE, "kind": "restatement", "cites": [ref]}],
            "conclusion": "c1",
        },
        "prose": SOURCE,
        "prose_citations": [{"start": 0, "end": len(SOURCE), "claim": "c1"}],
        "groundings": {ref: {"type": "quote", "payload": {"body": SOURCE, "fulltext": ABSTRACT}}},
        "node_bodies": {ref: ABSTRACT},
        **extra,
    }


def test_the_control_without_a_reading_answers_green() -> None:
    decision = route_json(json.dumps(payload()))
    assert decision.label == "ANSWER"
    assert decision.paraphrased is None


def test_a_paraphrase_is_hedged_and_says_the_reader_s_rate() -> None:
    decision = route_json(json.dumps(payload(paraphrased=READ)))
    assert decision.label == "HEDGED ANSWER"
    assert "trained reader" in decision.detail
    assert "about 8 in 10 at this confidence were right (41 of 52, held out)" in decision.detail
    assert decision.to_dict()["paraphrased"] == READ


def test_a_paraphrase_names_the_words_it_never_says() -> None:
    report = {"unmentioned": ["cancer", "risk"]}
    decision = route_json(json.dumps(payload(paraphrased=READ, coverage_report=report)))
    assert decision.label == "HEDGED ANSWER"
    assert "the answer never says 'cancer', 'risk'" in decision.detail


def test_a_paraphrase_that_fails_its_quote_abstains() -> None:
    data = payload(paraphrased=READ)
    data["groundings"]["zk:papers:p1"]["payload"]["fulltext"] = "Nothing of the kind."
    assert route_json(json.dumps(data)).label == "ABSTAIN"


def test_the_reading_travels_in_the_payload() -> None:
    inp = parse_payload(payload(paraphrased=READ))
    assert inp.paraphrased == Paraphrased(0.93, 0.9, 0.95, 41, 52)
    assert inp.to_dict()["paraphrased"] == READ


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("yes", "paraphrased must be null or an object"),
        ({**READ, "band": [0.9]}, "band must be two numbers"),
        ({**READ, "band": ["a", "b"]}, "band must be two numbers"),
        ({**READ, "evidence": 1.5}, "evidence must be a number from 0 to 1"),
        ({**READ, "evidence": True}, "evidence must be a number from 0 to 1"),
        ({**READ, "right": 60}, "right at most read"),
        ({**READ, "read": -1}, "must be counts"),
        ({**READ, "right": 2.5}, "must be counts"),
    ],
    ids=["not-object", "band-short", "band-text", "evidence-high", "evidence-bool",
         "right-over-read", "read-negative", "right-fraction"],
)  # fmt: skip
def test_a_malformed_reading_is_refused_by_name(raw: object, message: str) -> None:
    with pytest.raises(PayloadError, match=message):
        parse_paraphrased(raw)


@pytest.mark.parametrize(
    ("evidence", "answers"),
    [(0.55, False), (0.75, False), (0.85, True), (0.97, True), (1.2, False)],
    ids=["below-every-band", "band-too-weak", "band-strong", "top-band", "outside"],
)
def test_only_a_band_measured_strong_enough_answers(evidence: float, answers: bool) -> None:
    bands = ParaphraseBands(
        "enc",
        "reader",
        0.7,
        (Band(0.7, 0.8, 6, 10), Band(0.8, 0.95, 8, 10), Band(0.95, 1.01, 19, 20)),
    )
    assert (bands.band_of(evidence) is not None) is answers


@pytest.mark.parametrize(
    ("right", "read", "in_ten"),
    [(41, 52, 8), (7, 10, 7), (19, 20, 10), (0, 0, 0)],
    ids=["about-8", "exactly-7", "rounds-up", "nothing-read"],
)
def test_the_rate_in_tens(right: int, read: int, in_ten: int) -> None:
    assert Paraphrased(0.9, 0.9, 0.95, right, read).in_ten == in_ten

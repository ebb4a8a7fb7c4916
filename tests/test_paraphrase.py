"""A paraphrase the trained reader vouches for: at most hedged, its rate said, its wire checked."""

from __future__ import annotations

import gzip
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from engine.api import ask, open_workspace, route_json
from engine.core.errors import PayloadError
from engine.core.paraphrase import Band, Paraphrased, parse_paraphrased
from engine.core.wire import parse_payload
from engine.datasets.scifact import import_scifact
from engine.models.encoder import load_encoder
from engine.models.paraphraser import ParaphraseBands, Paraphraser, load_paraphraser
from engine.models.reader import load_reader
from engine.workspace.opened import OpenWorkspace, Reading, read_with
from present.answer import Hedge, answer_area, hedge_of, summary
from present.views import banner

CORPUS = Path(__file__).resolve().parents[1] / "data" / "scifact" / "corpus.jsonl.gz"

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
    assert inp.paraphrased == Paraphrased(0.93, Band(0.9, 0.95, 41, 52))
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
    assert Paraphrased(0.9, Band(0.9, 0.95, right, read)).in_ten == in_ten


# A real paraphrase from SciFact train (claim 85): the abstract says the macrophages are of
# fetal origin, never that they are "seeded". Words leave it; a reader may not.
CLAIM = "Adult tissue-resident macrophages are seeded before birth."
DOCS = ("7521113", "13794374", "4824840")


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A three-abstract SciFact workspace whose claim only a paraphrase answers."""
    folder = tmp_path_factory.mktemp("paraphrase")
    with gzip.open(CORPUS, "rt", encoding="utf-8") as handle:
        docs = [d for d in map(json.loads, handle) if str(d["doc_id"]) in DOCS]
    (folder / "corpus.jsonl").write_text("".join(json.dumps(d) + "\n" for d in docs))
    claim = {"id": 85, "claim": CLAIM, "evidence": {}, "cited_doc_ids": [7521113]}
    (folder / "claims.jsonl").write_text(json.dumps(claim) + "\n")
    import_scifact(folder / "corpus.jsonl", folder / "claims.jsonl", folder / "ws")
    return folder / "ws"


@pytest.fixture(scope="module")
def judge() -> Paraphraser:
    """The shipped reader with a band table of the test's own: every reading answers."""
    reader = load_reader().reader
    assert reader is not None, "the reader ships with the repository"
    bands = ParaphraseBands("", reader.fingerprint, 0.7, (Band(0.0, 1.01, 8, 10),))
    return Paraphraser(reader, bands)


def _with_meaning(judge: Paraphraser, workspace: Path) -> tuple[OpenWorkspace, Paraphraser]:
    opened = open_workspace(workspace, encoder=load_encoder("minilm"))
    assert opened.meaning.semantic is not None, opened.meaning_notice
    fingerprint = opened.meaning.semantic.encoder.fingerprint
    return opened, Paraphraser(judge.reader, replace(judge.bands, encoder=fingerprint))


def test_words_alone_leave_the_paraphrase(seeded: Path, judge: Paraphraser) -> None:
    opened, fitted = _with_meaning(judge, seeded)
    try:
        for view in (read_with(opened, Reading.MEANING), read_with(opened, Reading.WORDS)):
            assert ask(view, CLAIM, paraphraser=fitted).label == "ABSTAIN"
    finally:
        opened.close()


def test_the_reader_answers_it_hedged_naming_the_unsaid_word_and_its_rate(
    seeded: Path, judge: Paraphraser
) -> None:
    opened, fitted = _with_meaning(judge, seeded)
    try:
        result = ask(opened, CLAIM, paraphraser=fitted)
    finally:
        opened.close()
    assert result.label == "HEDGED ANSWER", result.decision and result.decision.detail
    assert result.decision is not None and result.decision.paraphrased is not None
    assert "seeded" in result.decision.unmentioned
    assert hedge_of(result) is Hedge.PARAPHRASE
    assert "read as a paraphrase by the reader" in banner(result).text
    assert "about 8 in 10 at this confidence were right (8 of 10, held out)" in summary(result)
    area = answer_area(result).html
    assert "read by the trained reader as an answer in other words." in area
    assert "About 8 in 10 at this confidence were right: 8 of 10, held out." in area
    assert "never says ‘seeded’" in area
    assert "tissue-resident macrophage" in area  # the quoted sentence itself
    # Routed again from its saved payload, it stands as it stood: hedged, never green.
    again = route_json(json.dumps(result.payload), workspace=seeded)
    assert (again.label, again.paraphrased) == ("HEDGED ANSWER", result.decision.paraphrased)


def test_the_shipped_bands_let_no_paraphrase_answer(seeded: Path) -> None:
    # Held out, no band of the shipped reader reached the precision a paraphrase needs.
    assert load_paraphraser() is None
    opened = open_workspace(seeded, encoder=load_encoder("minilm"))
    try:
        assert ask(opened, CLAIM).label == "ABSTAIN"
    finally:
        opened.close()

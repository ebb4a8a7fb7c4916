import pytest

from engine.core.environment import ENV_READER
from engine.review import band_precision as measured
from engine.review.offline_stance import OfflineTyper
from engine.review.reader_typer import (
    ReaderStance,
    ReaderTyper,
    called,
    reader_band,
    reader_bands,
)
from engine.review.relations import Relation
from engine.review.typers import GatedTyper, make_typer

PRACTICE = "Vitamin D supplementation reduces the risk of hip fractures in older women."
NOTE = (
    "Vitamin D and fractures in older women.\n\n"
    "The trial enrolled 2,256 community-dwelling women aged 70 years or older. "
    "Annual high-dose oral vitamin D increased the risk of hip fractures compared with placebo. "
    "The study was funded by a national research council."
)


def test_the_shipped_bands_cover_the_upper_range_and_match_their_calls() -> None:
    bands = reader_bands()
    assert bands and bands[-1].high > 1.0
    for band in bands:
        above = [b for b in bands if b.low >= band.low]
        expected = Relation.CONTRADICTS if all(b.contradicts for b in above) else Relation.TENSION
        assert called(band) is expected


def test_below_the_lowest_band_there_is_no_band() -> None:
    assert reader_band(reader_bands()[0].low - 0.01) is None


def test_the_registry_gates_the_reader_with_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_READER, raising=False)
    typer = make_typer("reader")
    assert isinstance(typer, GatedTyper) and isinstance(typer.typer, ReaderTyper)
    assert isinstance(typer.stance, ReaderStance) and typer.gate == "reader"
    assert typer.floor == reader_bands()[0].low


def test_without_the_reader_the_offline_typer_stands_in(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_READER, "none")
    typer = make_typer("reader")
    assert isinstance(typer, GatedTyper) and isinstance(typer.typer, OfflineTyper)
    assert typer.name == "offline"


@pytest.mark.xfail(
    strict=True, reason="the shipped reader misses a reversed direction (P(CONTRADICT) 0.11)"
)
def test_a_contradiction_quotes_its_sentence_and_its_band(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_READER, raising=False)
    typing = make_typer("reader")(PRACTICE, NOTE)
    assert typing.relation.candidate
    assert typing.evidence.startswith("Annual high-dose oral vitamin D increased")
    assert "in 10 at this confidence were right" in typing.rationale
    assert measured.measured(typing.relation, typing.confidence, "reader").startswith("about")


def test_an_off_topic_note_is_no_candidate(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_READER, raising=False)
    typing = make_typer("reader")(PRACTICE, "Glacier retreat in the Alps. Ice cores were drilled.")
    assert not typing.relation.candidate


@pytest.mark.parametrize(
    ("typer", "expected"),
    [("reader", True), ("offline", True), ("openai", False)],
    ids=["reader", "offline", "model"],
)
def test_which_typers_are_measured(typer: str, expected: bool) -> None:
    phrase = measured.measured(Relation.TENSION, 0.97, typer)
    assert (phrase != measured.UNMEASURED) is expected

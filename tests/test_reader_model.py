from pathlib import Path

import pytest

from engine.core.environment import ENV_READER
from engine.models.reader import (
    MODEL,
    TOKENIZER,
    Label,
    Reader,
    ReaderUnavailable,
    load_reader,
    reader_notice,
)

CLAIM = "Vitamin D supplementation reduces the risk of hip fractures in older women."
SENTENCES = (
    "Annual high-dose vitamin D increased the risk of falls and fractures in older women.",
    "Vitamin D supplementation lowered the rate of hip fractures among women over 70.",
    "The study was funded by a national research council.",
)


@pytest.fixture(scope="module")
def reader() -> Reader:
    return Reader.load()


def test_readings_are_probabilities_in_order(reader: Reader) -> None:
    readings = reader.read(CLAIM, SENTENCES)
    assert len(readings) == len(SENTENCES)
    for r in readings:
        assert r.none + r.support + r.contradict == pytest.approx(1.0, abs=1e-6)


def test_an_off_topic_sentence_is_no_evidence(reader: Reader) -> None:
    readings = reader.read(CLAIM, SENTENCES)
    assert readings[2].label is Label.NONE
    assert readings[2].evidence < min(readings[0].evidence, readings[1].evidence)


# Strict: the day a rebuilt model reads this right, the mark must go.
@pytest.mark.xfail(
    strict=True,
    reason="the shipped reader misses a reversed direction (P(CONTRADICT) 0.04 on both)",
)
def test_a_reversed_direction_reads_as_more_contradicting(reader: Reader) -> None:
    readings = reader.read(CLAIM, SENTENCES)
    assert readings[0].contradict > readings[1].contradict + 0.2


def test_a_reading_does_not_depend_on_its_batch(reader: Reader) -> None:
    together = reader.read(CLAIM, SENTENCES)
    alone = [reader.read(CLAIM, [s])[0] for s in SENTENCES]
    assert list(together) == alone
    assert reader.read(CLAIM, SENTENCES) == together  # the same bits every time


def test_nothing_to_read_gives_nothing(reader: Reader) -> None:
    assert reader.read(CLAIM, []) == ()


@pytest.mark.parametrize("which", ["model", "tokenizer"], ids=["model", "tokenizer"])
def test_a_changed_file_is_refused(tmp_path: Path, which: str) -> None:
    model, tokenizer = tmp_path / "model.onnx", tmp_path / "tokenizer.json"
    model.write_bytes(MODEL.read_bytes())
    tokenizer.write_bytes(TOKENIZER.read_bytes())
    changed = model if which == "model" else tokenizer
    changed.write_bytes(changed.read_bytes() + b" ")
    with pytest.raises(ReaderUnavailable, match="sha256 differs"):
        Reader.load(model, tokenizer)


def test_a_missing_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ReaderUnavailable, match="cannot be read"):
        Reader.load(tmp_path / "absent.onnx", TOKENIZER)


def test_turned_off_it_says_words_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_READER, "none")
    choice = load_reader()
    assert choice.reader is None
    assert "words alone" in reader_notice(choice)


def test_on_by_default_it_loads_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_READER, raising=False)
    first, second = load_reader(), load_reader()
    assert first.reader is not None and first is second
    assert reader_notice(first) == ""

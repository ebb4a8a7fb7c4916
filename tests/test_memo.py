"""The content-keyed text memo: equal text gives the result computed once; it stays bounded."""

from __future__ import annotations

import bisect
import copy

import pytest

from engine.api import route_payload
from engine.core import licensing, prose_reading, quote_fold, verifiers
from engine.core.licensing import extractively_licensed
from engine.core.model import ProseCitation
from engine.core.quote import verify_quote
from engine.core.traceability import check_traceability
from engine.core.verifiers import verify
from engine.text.memo import PairMemo, TextMemo
from engine.text.sentences import Span, sentences
from engine.text.tokens import token_spans, word_sequence


def _counting() -> tuple[TextMemo[str], list[str]]:
    calls: list[str] = []

    def upper(value: str) -> str:
        calls.append(value)
        return value.upper()

    return TextMemo(upper, entries=3, chars=100), calls


def test_equal_content_is_computed_once_whatever_object_holds_it() -> None:
    memo, calls = _counting()
    first = "".join(["cells ", "grow"])
    second = "".join(["cells", " grow"])  # equal, a different object
    assert first is not second
    assert memo(first) == memo(second) == "CELLS GROW"
    assert calls == ["cells grow"]


def test_entries_are_bounded_least_recent_first() -> None:
    memo, calls = _counting()
    for word in ("a", "b", "c", "a", "d"):
        memo(word)
    assert len(memo) == 3
    memo("b")  # the least recently used when "d" came in: forgotten, computed again
    assert calls == ["a", "b", "c", "d", "b"]


def test_characters_are_bounded_and_a_text_over_the_budget_is_never_kept() -> None:
    memo, calls = _counting()
    memo("x" * 60)
    memo("y" * 60)  # 120 characters would pass the budget: the older goes
    assert memo.size == 60 and len(memo) == 1
    memo("z" * 101)
    memo("z" * 101)
    assert calls.count("z" * 101) == 2 and memo.size == 60


@pytest.mark.parametrize(("entries", "chars"), [(0, 10), (10, 0)], ids=["no-entry", "no-char"])
def test_an_empty_budget_is_refused(entries: int, chars: int) -> None:
    with pytest.raises(ValueError):
        TextMemo(str.upper, entries=entries, chars=chars)


def test_a_payloads_sources_stay_folded_between_checks() -> None:
    # Ten sources checked in turn, then again: the second round folds none of them. (Page
    # breaks: the page of a match is counted in the whole fold, no window settles these.)
    sources = [f"Source {i}:\fthe drug lowered mortality in cohort {i}." for i in range(10)]
    for source in sources:
        verify_quote("the drug lowered mortality", source)
    kept = len(quote_fold.fold_cached)
    for source in sources:
        assert verify_quote("the drug lowered mortality", source).verified
    assert len(quote_fold.fold_cached) == kept
    assert all(source in quote_fold.fold_cached._kept for source in sources)


def test_routing_equal_content_twice_gives_the_same_decision() -> None:
    abstract = "Background here. The drug lowered mortality in adults. More text follows."
    payload = {
        "dag": {
            "claims": [
                {"id": "c0", "text": "The drug lowered mortality in adults.",
                 "kind": "restatement", "cites": ["zk:s:n0"]},
            ],
            "conclusion": "c0",
            "prose_citations": [{"start": 0, "end": 37, "claim": "c0"}],
        },
        "prose": "The drug lowered mortality in adults.",
        "groundings": {"zk:s:n0": {"type": "quote", "payload": {
            "body": "The drug lowered mortality in adults.", "fulltext": abstract}}},
        "node_bodies": {"zk:s:n0": abstract},
    }  # fmt: skip
    first = route_payload(payload)
    assert first["verdict"] == "answer"
    assert route_payload(copy.deepcopy(payload)) == first
    # The quote's result against the abstract is kept by the abstract's content.
    assert abstract in verifiers._QUOTE_RESULTS._tables._kept


# Prose whose sentences are tokenised one by one (kept by content) must read exactly as the
# whole prose does; where a token could reach over a sentence's end the whole is read.
PROSE = {
    "plain-sentences": "Cells grew. Mice died? Rates fell by 5%.",
    "dash-after-a-terminator": "Doses were 5. -3 mg was given.",
    "number-ends-a-paragraph": "Rates were 5\n\n-3 mg was given.",
    "heading-before-a-dash": "RESULTS- 5 mg was given. Mice died.",
    "leading-and-trailing-space": "  Cells grew.  Mice died.\n",
    "marker-before-a-terminator": "Cells were ER(+). HER2- cells died.",
    "non-ascii-prose": "Cells grew \u22125%. Mice died.",
    "folded-lengths-change": "The \ufb01nal dose was 10\u00b2 mg. Mice di\u0301ed.",
    "sentence-opens-non-ascii": "Cells grew 10. \u00b2H was traced.",
    "no-break-space-between": "Cells grew.\u00a0-3 mg was given.",
}


@pytest.mark.parametrize("prose", PROSE.values(), ids=PROSE.keys())
def test_sentences_tokenised_alone_read_as_the_whole_prose(prose: str) -> None:
    spans = sentences(prose) or (Span(0, len(prose)),)
    starts = [span.start for span in spans]
    whole: list[list[object]] = [[] for _ in spans]
    for token in token_spans(prose):
        whole[max(0, bisect.bisect_right(starts, token.start) - 1)].append(token)
    assert [list(part.words) for part in prose_reading.read_prose(prose)] == whole


def _read(prose: str) -> list[tuple[str, ...]]:
    return [part.seq for part in prose_reading.read_prose(prose)]


def test_a_prose_sentence_is_read_once_by_content() -> None:
    _read("Serum levels rose in site 9. Mice died.")
    misses = word_sequence.cache_info().misses
    _read("Serum levels rose in site 9. Rats died.")
    assert word_sequence.cache_info().misses == misses + 1  # only the new sentence is read
    _read("Serum levels rose by 9 \u00b5g. Mice died.")
    assert "Serum levels rose by 9 \u00b5g." in prose_reading._SENTENCE_TOKENS._kept


def test_a_prose_sentence_copying_its_claim_is_not_read() -> None:
    claim = "Serum kallikrein rose in site 4117."
    misses = word_sequence.cache_info().misses
    found = check_traceability(claim, {"c1": claim}, citations=[ProseCitation(0, 35, "c1")])
    assert [trace.claim for trace in found.sentences] == ["c1"]
    assert word_sequence.cache_info().misses == misses  # settled by its text, not tokenised
    found = check_traceability(claim, {"c1": claim.lower()}, citations=[ProseCitation(0, 35, "c1")])
    assert [trace.claim for trace in found.sentences] == ["c1"]  # read when it is no copy
    assert word_sequence.cache_info().misses == misses + 2


def test_a_pair_is_computed_once_per_equal_text_and_bounded_per_text() -> None:
    calls: list[tuple[str, str]] = []

    def joined(key: str, text: str) -> str:
        calls.append((key, text))
        return key + text

    memo = PairMemo(joined, entries=2, chars=100, per_text=2)
    text = "".join(["cells ", "grow"])
    assert memo("a", text) == memo("a", "cells grow") == "acells grow"
    assert calls == [("a", "cells grow")]
    memo("b", text)
    memo("c", text)  # a third key fills the text's table: it starts again from this one
    memo("a", text)
    assert [key for key, _ in calls] == ["a", "b", "c", "a"]


def test_a_quote_against_equal_content_is_checked_once() -> None:
    source = "Background here. Serum levels rose in site 12. More text follows."
    payload = {"body": "Serum levels rose in site 12.", "fulltext": source}
    first = verify("quote", payload)
    assert first.ok and first.confirmed_source_text == "Serum levels rose in site 12."
    assert verify("quote", copy.deepcopy(payload)) is first


def test_a_claim_is_licensed_once_per_source_content() -> None:
    source = "Background here. Mice in group 7 gained weight. More text follows."
    assert extractively_licensed("Mice in group 7 gained weight.", source)
    assert not extractively_licensed("Mice in group 7 gained.", source)
    assert source in licensing._LICENSED._tables._kept

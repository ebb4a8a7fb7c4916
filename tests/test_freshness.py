"""An answer is stamped with the bytes it was made from: an edit during the answer is stale."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from engine.api import Freshness, OpenWorkspace, answer
from engine.core.reads import CHANGED_WHILE_READ, FileRead, as_read
from engine.core.verifiers import VERIFIERS, VerifierResult, VerifyContext, check_quote
from engine.navigation.navigator import NavState
from engine.navigation.steps import Action, ActionKind

WINNERS = (
    "Does buying past winners and selling past losers generate abnormal returns over 3 to 12 "
    "month holding periods?"
)
MEAN = "What mean monthly return did the momentum portfolio earn in the 2000 to 2019 sample?"
SKIP = "Does the momentum signal skip the most recent month?"
TREE = "What does the rebalance rule do in a high volatility regime?"

# Each question, and a file its answer was read from: the file gains a harmless byte (a
# trailing newline), which changes no verdict, only what is on disk.
READ_DURING = [
    pytest.param(WINNERS, "sources/jt1993.txt", id="quoted-source"),
    pytest.param(WINNERS, "sources/jt1993.annotations.json", id="highlights"),
    pytest.param(MEAN, "data/returns.csv", id="recomputed-data"),
    pytest.param(SKIP, "src/signal.py", id="tethered-file"),
    pytest.param(TREE, "trees/rebalance.json", id="decision-tree"),
]


def touch(root: Path, relative: str) -> None:
    path = root / relative
    path.write_bytes(path.read_bytes() + b"\n")


@pytest.mark.parametrize(("question", "relative"), READ_DURING)
def test_a_file_edited_after_it_was_read_leaves_the_answer_stale_at_once(
    lab: OpenWorkspace, question: str, relative: str
) -> None:
    def edit_when_answering(state: NavState, action: Action) -> None:
        if action.kind is ActionKind.ANSWER:  # everything cited was read; routing is next
            touch(lab.root, relative)

    result = answer(lab, question, observer=edit_when_answering)
    assert result.run.decision is not None and result.run.decision.answered
    assert result.freshness(lab) is not Freshness.CURRENT


def test_a_source_edited_right_after_its_verifier_read_it_is_stale(lab: OpenWorkspace) -> None:
    verifiers = VERIFIERS.copy()

    def quote_then_edit(payload: Mapping[str, Any], context: VerifyContext) -> VerifierResult:
        result = check_quote(payload, context)
        touch(lab.root, "sources/jt1993.txt")
        return result

    verifiers.register("quote", quote_then_edit)
    result = answer(lab, WINNERS, verifiers=verifiers)
    assert result.label == "ANSWER"
    assert result.freshness(lab) is not Freshness.CURRENT


def test_an_answer_nothing_touched_is_current_and_an_edit_after_it_is_not(
    lab: OpenWorkspace,
) -> None:
    result = answer(lab, WINNERS)
    assert result.freshness(lab) is Freshness.CURRENT
    touch(lab.root, "sources/jt1993.txt")
    assert result.freshness(lab) is Freshness.FILES_CHANGED


def test_a_file_read_twice_with_different_bytes_matches_no_file() -> None:
    reads = [FileRead.of("./sources/a.txt", b"one"), FileRead.of("sources/a.txt", b"two")]
    assert as_read(reads) == {"sources/a.txt": CHANGED_WHILE_READ}
    assert as_read(reads[:1]) == {"sources/a.txt": FileRead.of("x", b"one").sha256}

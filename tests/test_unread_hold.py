"""A claim or a yes/no question whose sentence says neither yes nor no is never green."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from engine.api import OpenWorkspace, ask, open_workspace, route_json
from engine.core.stance import Overstated
from present.views import banner
from tests.workspaces import sentence_workspace

NEITHER = "Quality of life one year after sleeve gastrectomy differed between sexes."
PLAIN = "Vertical banding improved quality of life."


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Iterator[OpenWorkspace]:
    root = sentence_workspace(tmp_path_factory.mktemp("unread"), [(NEITHER,), (PLAIN,)])
    opened = open_workspace(root)
    yield opened
    opened.close()


@pytest.mark.parametrize(
    "question",
    [
        "Does sleeve gastrectomy raise quality of life?",
        "Does sleeve gastrectomy lower quality of life?",
        "Sleeve gastrectomy raises quality of life.",
        "Sleeve gastrectomy lowers quality of life.",
    ],
    ids=["asked-raise", "asked-lower", "stated-raise", "stated-lower"],
)
def test_a_sentence_that_reads_neither_way_answers_no_claim_green(
    workspace: OpenWorkspace, question: str
) -> None:
    result = ask(workspace, question)
    decision = result.decision
    assert decision is not None and decision.label == "HEDGED ANSWER"
    assert decision.withheld is Overstated.UNREAD and not decision.withheld_no
    if not question.endswith("?"):
        # An asked relation word the sentence never states is named first ("never states
        # 'raise'"); a stated claim's relation is met by any, so the reading is the reason.
        assert "neither a yes nor a no to the question" in banner(result).text
        assert decision.detail.startswith("hedged: not a yes or no to what was asked")
    again = route_json(json.dumps(result.payload), workspace=workspace.workspace.root)
    assert again.label == "HEDGED ANSWER" and again.withheld is Overstated.UNREAD
    assert again.detail == decision.detail


@pytest.mark.parametrize(
    ("question", "reading"),
    [
        ("Does vertical banding improve quality of life?", "yes"),
        ("Does vertical banding worsen quality of life?", "no"),
    ],
    ids=["yes", "no"],
)
def test_a_sentence_that_reads_yes_or_no_stays_green(
    workspace: OpenWorkspace, question: str, reading: str
) -> None:
    out = ask(workspace, question).to_dict()
    assert out["decision"]["label"] == "ANSWER"
    assert out["stance"]["reading"] == reading

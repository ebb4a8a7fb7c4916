"""Each workspace's example questions keep their promise: asked, they get the verdict and
the stance the Start page says they will."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import answer, open_workspace
from engine.core.stance import Cue, CueShape, Stance, StanceRelation
from engine.workspace.examples import Example, read_examples, stance_shown
from tests.workspaces import make_workspace, words_alone

DIRECTION = Cue(CueShape.DIRECTION, "increases", "decreases")
FIRM = Stance(StanceRelation.CONTRADICTS, DIRECTION, 0.9)
TENSION = Stance(StanceRelation.CONTRADICTS, DIRECTION, 0.4, tension=True)
YES = Stance(StanceRelation.SUPPORTS, Cue(CueShape.AGREEMENT, "rise", "rises"), 0.9)
NEITHER = Stance(StanceRelation.NEITHER, Cue(CueShape.NONE), 0.1)

PROMISES = [
    ("contradicts", "ANSWER", FIRM, True),
    ("contradicts", "ANSWER", TENSION, False),
    ("may contradict", "ANSWER", TENSION, True),
    ("contradicts", "HEDGED ANSWER", FIRM, False),
    ("supports", "ANSWER", YES, True),
    ("supports", "ANSWER", NEITHER, False),
    ("", "ANSWER", TENSION, True),
    ("", "ABSTAIN", None, True),
    ("contradicts", "ANSWER", None, False),
]


@pytest.mark.parametrize(
    ("stance", "label", "shown", "kept"),
    PROMISES,
    ids=[
        "firm-contradiction",
        "tension-is-not-a-contradiction",
        "tension-promised",
        "other-verdict",
        "supports",
        "neither-is-not-support",
        "no-stance-promised",
        "abstain",
        "no-stance-shown",
    ],
)
def test_a_promise_is_kept_only_by_the_verdict_and_stance_it_names(
    stance: str, label: str, shown: Stance | None, kept: bool
) -> None:
    promised = "ABSTAIN" if label == "ABSTAIN" else "ANSWER"
    assert Example("Q?", promised, stance).kept_by(label, shown) is kept


def test_the_stance_shown_is_named_as_an_example_names_it() -> None:
    assert [stance_shown(s) for s in (FIRM, TENSION, YES, NEITHER, None)] == [
        "contradicts",
        "may contradict",
        "supports",
        "neither",
        "",
    ]


def broken(root: Path) -> list[str]:
    """Every example of the workspace at `root` whose answer breaks its promise."""
    opened = open_workspace(root)
    try:
        out = []
        for example in read_examples(root):
            run = answer(opened, example.question).run
            if not example.kept_by(run.label, run.stance):
                shown = stance_shown(run.stance)
                out.append(f"{example.question} → {run.label} · {shown or 'no stance'}")
        return out
    finally:
        opened.close()


@pytest.mark.parametrize("variant", ["momentum-lab", "vault-lab"])
def test_every_bundled_example_keeps_its_promise(tmp_path: Path, variant: str) -> None:
    with words_alone():
        root = make_workspace(tmp_path, variant)
        assert read_examples(root)
        assert broken(root) == []


def test_every_scifact_example_keeps_its_promise(scifact_demo: Path) -> None:
    examples = read_examples(scifact_demo)
    assert {e.stance for e in examples} >= {"contradicts"}
    with words_alone():
        assert broken(scifact_demo) == []

"""A green answer is licensed only by text a verifier confirmed, asked through the navigator."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from engine.api import ask, open_workspace
from engine.navigation.result import NavResult
from tests.conftest import ROOT

VAULT = ROOT / "examples" / "vault-lab"
QUOTED = (
    "daily subcutaneous administration of IL-10, a known potent inhibitor of IFN-gamma "
    "production by TH1 T cells, to 9 and 10-week-old NODs was shown to delay the onset of "
    "disease and significantly reduce the incidence of diabetes"
)
OPPOSITE = (
    "Daily subcutaneous IL-10 given to 9 and 10-week-old NOD mice accelerated the onset of "
    "disease and raised the incidence of diabetes."
)


def answer(root: Path, question: str) -> NavResult:
    opened = open_workspace(root)
    try:
        return ask(opened, question)
    finally:
        opened.close()


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    shutil.copytree(VAULT, root, ignore=shutil.ignore_patterns(".synapse"))
    return root


def add_own_sentence(vault: Path, sentence: str) -> None:
    """The reader's own sentence beside the literature note's one checked quote."""
    note = vault / "Literature" / "IL-10 in NOD mice.md"
    note.write_text(note.read_text("utf-8") + f"\n{sentence}\n", "utf-8")


# With meaning the reasoner may restate the quote nearest the question; on words alone it
# answers the note's own sentence as an inference. Either way only the quote is green.
BOTH_WAYS = pytest.mark.parametrize("encoder", ["minilm", "none"], ids=["meaning", "words"])


@BOTH_WAYS
def test_the_reader_s_own_sentence_beside_a_verified_quote_is_no_green(
    vault: Path, monkeypatch: pytest.MonkeyPatch, encoder: str
) -> None:
    monkeypatch.setenv("SYNAPSE_ENCODER", encoder)
    add_own_sentence(vault, OPPOSITE)
    result = answer(vault, OPPOSITE)
    if result.label == "ANSWER":
        assert QUOTED in result.prose and OPPOSITE not in result.prose
        assert result.stance is not None and result.stance.relation.value == "contradicts"
    else:
        assert result.decision is not None
        assert OPPOSITE not in result.prose or "own text" in " ".join(
            result.decision.floor_reasons.values()
        )


def test_the_quote_itself_still_answers(vault: Path) -> None:
    add_own_sentence(vault, OPPOSITE)
    result = answer(vault, f"In subsequent studies, {QUOTED}.")
    assert result.decision is not None
    assert result.label == "ANSWER", result.decision.detail


CANON_NOTE = """---
id: z-risk-09
type: finding
title: Momentum profits and systematic risk
source: jt1993
quotes:
  - id: q1
    body: The profits are not due to systematic risk.
    page: 2
---
The profits are not due to systematic risk. The profits are entirely due to systematic risk.
"""


@BOTH_WAYS
def test_a_canon_note_s_body_sentence_beside_its_quote_is_no_green(
    lab_path: Path, monkeypatch: pytest.MonkeyPatch, encoder: str
) -> None:
    monkeypatch.setenv("SYNAPSE_ENCODER", encoder)
    (lab_path / ".zettelkasten" / "finance" / "z-risk-09.md").write_text(CANON_NOTE, "utf-8")
    result = answer(lab_path, "The profits are entirely due to systematic risk.")
    if result.label == "ANSWER":
        assert result.prose.strip() == "The profits are not due to systematic risk."
    floor = " ".join(result.decision.floor_reasons.values()) if result.decision else ""
    assert "entirely" not in result.prose or "own text" in floor


FIGURE_NOTE = """---
id: z-fig-12
type: finding
title: Cumulative momentum returns after 2008
figure: figures/cumulative.png
---
Cumulative momentum returns fell steadily after 2008.
"""


def test_a_real_image_never_grounds_a_sentence_about_it(lab_path: Path) -> None:
    (lab_path / ".zettelkasten" / "finance" / "z-fig-12.md").write_text(FIGURE_NOTE, "utf-8")
    result = answer(lab_path, "Did cumulative momentum returns fall steadily after 2008?")
    assert result.decision is not None
    assert result.label == "ABSTAIN", result.decision.detail


BIDI = "\u202e"
HOSTILE_NOTE = f"""---
id: z-bidi-13
type: finding
title: Blood pressure trial
source: bp2020
quotes:
  - id: q1
    body: "The drug lowered blood pressure at {BIDI}12 months (p < 0.001)."
    page: 1
---
The drug lowered blood pressure at {BIDI}12 months (p < 0.001).
"""


@pytest.mark.parametrize("where", ["note-and-source", "note-only"])
def test_a_bidi_override_in_a_hostile_note_never_answers(lab_path: Path, where: str) -> None:
    source = "The drug lowered blood pressure at 12 months (p < 0.001)."
    if where == "note-and-source":
        source = f"The drug lowered blood pressure at {BIDI}12 months (p < 0.001)."
    (lab_path / "sources" / "bp2020.txt").write_text(f"Trial. {source} End.", "utf-8")
    (lab_path / ".zettelkasten" / "finance" / "z-bidi-13.md").write_text(HOSTILE_NOTE, "utf-8")
    result = answer(lab_path, "Did the drug lower blood pressure at 12 months?")
    assert result.decision is not None
    assert result.label != "ANSWER", result.decision.detail

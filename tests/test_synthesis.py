from dataclasses import replace
from pathlib import Path
from typing import NoReturn

import pytest

from engine.api import OpenWorkspace, open_workspace
from engine.core.environment import ENV_ENCODER
from engine.datasets.scifact import import_scifact
from engine.models.llm import LLMConfig, OpenAIChat
from engine.review.overlay import Overlay, OverlayEdge, build_overlay
from engine.review.relations import Relation
from engine.review.synthesis import (
    BriefFailure,
    Material,
    ModelSynthesizer,
    cell_material,
    offline_brief,
    synthesize,
    synthesize_overlay,
    verify_brief,
)
from tests.chat_server import ChatServer, chat_server_fixture, reply, status  # noqa: F401
from tests.conftest import ROOT

SCIFACT = ROOT / "data" / "scifact"

RATIONALE = 'The aligned sentence states the opposite direction: "Buying past winners and…"'
MOM = OverlayEdge(
    "exp-2009-backtest", "finance", "z-mom-01", Relation.CONTRADICTS, 0.81, 0.8, 0.729,
    RATIONALE, "Buying past winners and selling past losers generated significant abnormal "
    "returns of about 1% per month over 3 to 12 month holding periods.",
)  # fmt: skip
SIG = OverlayEdge(
    "deci-a7688a22", "finance", "z-sig-03", Relation.SUPPORTS, 0.7, None, 0.525, "same", ""
)
WEAK = replace(SIG, practice_id="chk-2024-q1", relation=Relation.EXTENDS)


@pytest.fixture
def mom(lab: OpenWorkspace) -> Material:
    material = cell_material(lab, MOM)
    assert material is not None
    return material


def test_material_holds_the_notes_and_verbatim_quotes_evidence_first(mom: Material) -> None:
    assert mom.practice_address == "mem:_memory:exp-2009-backtest"
    assert [q.id for q in mom.quotes] == ["q1", "q2"]
    assert mom.quotes[0].body.startswith("Buying past winners and selling past losers")


def test_offline_brief_cites_the_id_quotes_verbatim_and_verifies(mom: Material) -> None:
    brief = offline_brief(mom)
    assert "mem:_memory:exp-2009-backtest" in brief and "zk:finance:z-mom-01" in brief
    assert f"“{mom.quotes[1].body}”" in brief
    assert "Relation: contradicts (confidence 0.81)" in brief
    assert verify_brief(brief, mom).ok


BPS = "We cut turnover, saving 400 bps a year, in our 2009 backtest."
CASES = [
    ("exp-2009-backtest: our book lost 4% per month, while “The profits are not due to "
     "systematic risk.”", None, None),
    ("Our 2009 backtest lost 4% per month.", None, BriefFailure.MISSING_ID),
    ("exp-2009-backtest: the momentum book lost 7% per month.", None,
     BriefFailure.UNTRACED_NUMBER),
    ("exp-2009-backtest: past winners cost four hundred basis points.", None,
     BriefFailure.UNTRACED_NUMBER),
    ("exp-2009-backtest saved four hundred basis points a year.", BPS, None),
    ("exp-2009-backtest saved four hundred basis points a year.",
     BPS.replace("bps", "basis points"), None),
    ("exp-2009-backtest saved twenty percent in the 2009 backtest.", BPS,
     BriefFailure.UNTRACED_NUMBER),
    ("exp-2009-backtest is one of our experiments on past winners and past losers.", None,
     None),
    ('exp-2009-backtest contradicts “Buying past winners generated significant abnormal '
     'returns”.', None, BriefFailure.UNTRACED_QUOTE),
    ('exp-2009-backtest agrees that "the profits are NOT due to   systematic risk".', None,
     None),
    ("exp-2009-backtest reminds everyone that volatile weather disrupts agricultural "
     "commodity pricing across emerging harbours.", None, BriefFailure.LOW_COVERAGE),
    ("   ", None, BriefFailure.EMPTY),
    ("exp-2009-backtest: our book lost \u202e4% per month, while “The profits are not due "
     "to systematic risk.”", None, BriefFailure.FORMAT_CONTROL),
    ("exp-2009-backtest: our book lost \u02d74% per month.", None,
     BriefFailure.UNTRACED_NUMBER),
]  # fmt: skip
IDS = [
    "passing", "missing-memory-id", "fabricated-number", "spelled-magnitude-absent",
    "spelled-magnitude-as-bps", "spelled-magnitude-as-basis-points", "spelled-percent-absent",
    "bare-cardinal-is-prose", "quote-not-verbatim", "quote-verbatim-any-case",
    "low-coverage", "empty", "bidi-override", "look-alike-minus-added",
]  # fmt: skip


@pytest.mark.parametrize(("brief", "body", "failure"), CASES, ids=IDS)
def test_verify_brief(
    mom: Material, brief: str, body: str | None, failure: BriefFailure | None
) -> None:
    material = mom if body is None else replace(mom, practice_body=body)
    assert verify_brief(brief, material).failure is failure


@pytest.mark.parametrize(
    ("brief", "failure"),
    [
        ("deci-a7688a22 skips the most recent month when ranking stocks.", None),
        ("deci-a7688a22 skips the most recent month across 7688 stocks.", "7688"),
        ("deci-a7688a22 skips the most recent month for 22 years.", "22"),
    ],
    ids=["id-cited", "id-hash-digits-7688", "id-hash-digits-22"],
)
def test_practice_id_digits_never_trace(
    lab: OpenWorkspace, brief: str, failure: str | None
) -> None:
    material = cell_material(lab, SIG)
    assert material is not None
    check = verify_brief(brief, material)
    assert check.ok is (failure is None)
    if failure:
        assert check.failure is BriefFailure.UNTRACED_NUMBER and failure in check.detail


def test_failing_brief_is_kept_and_flagged(mom: Material) -> None:
    brief = synthesize(mom, lambda material: "A brief that forgets whom it is about.")
    assert brief.text == "A brief that forgets whom it is about."
    assert (brief.verified, brief.check.failure) == (False, BriefFailure.MISSING_ID)
    assert brief.quote_ids == ("q1", "q2")


def test_synthesiser_that_raises_gives_a_flagged_empty_brief(mom: Material) -> None:
    def broken(material: Material) -> NoReturn:
        raise RuntimeError("down")

    brief = synthesize(mom, broken)
    assert (brief.text, brief.verified, brief.check.failure) == ("", False, BriefFailure.EMPTY)


def test_only_high_value_cells_get_a_brief(lab: OpenWorkspace) -> None:
    overlay = Overlay("t", "offline", {}, {}, 0.0, (MOM, SIG, WEAK))
    briefs = synthesize_overlay(lab, overlay)
    assert [b.key for b in briefs] == [MOM.key]
    assert briefs[0].brief.verified


def _model(server: ChatServer) -> ModelSynthesizer:
    config = LLMConfig(base_url=server.base_url, model="test-model", api_key="k", timeout_s=5)
    return ModelSynthesizer(OpenAIChat(config))


def test_model_synthesiser_brief_is_verified(chat_server: ChatServer, mom: Material) -> None:
    chat_server.script(reply("exp-2009-backtest lost 4% per month after the market rebound."))
    brief = synthesize(mom, _model(chat_server))
    assert brief.verified, brief.check
    assert "exp-2009-backtest" in chat_server.chat_requests[0].body["messages"][1]["content"]


def test_model_synthesiser_failure_is_flagged_not_raised(
    chat_server: ChatServer, mom: Material
) -> None:
    chat_server.script(status(500))
    brief = synthesize(mom, _model(chat_server))
    assert (brief.text, brief.verified, brief.check.failure) == ("", False, BriefFailure.EMPTY)


@pytest.mark.skipif(not (SCIFACT / "corpus.jsonl.gz").exists(), reason="SciFact data absent")
def test_offline_briefs_on_a_scifact_slice_all_verify(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Briefs read words; encoding the 6,000 sentences would cost a minute.
    monkeypatch.setenv(ENV_ENCODER, "none")
    import_scifact(SCIFACT / "corpus.jsonl.gz", SCIFACT / "claims_train.jsonl", tmp_path, limit=600)
    opened = open_workspace(tmp_path)
    try:
        briefs = synthesize_overlay(opened, build_overlay(opened))
    finally:
        opened.close()
    assert briefs and all(cell.brief.verified for cell in briefs)


def test_briefs_cite_author_year_and_page_from_the_bibliography(lab_path: Path) -> None:
    (lab_path / "references.bib").write_text(
        "@article{jt1993, author = {Jegadeesh, N. and Titman, S.}, year = {1993},"
        " title = {Returns to Buying Winners}}\n"
    )
    opened = open_workspace(lab_path)
    material = cell_material(opened, MOM)
    opened.close()
    assert material is not None
    brief = offline_brief(material)
    assert (
        "[Past winners keep beating past losers for up to a year, Jegadeesh & Titman 1993]" in brief
    )
    assert "[q1; Jegadeesh & Titman 1993, p. 2]" in brief
    assert verify_brief(brief, material).ok


@pytest.mark.parametrize(
    ("brief", "failure"),
    [
        ("exp-2009-backtest: the rationale says 88% of words match.", BriefFailure.UNTRACED_NUMBER),
        ("exp-2009-backtest was typed with a 0.81 score.", BriefFailure.UNTRACED_NUMBER),
        ("exp-2009-backtest: Relation: contradicts (confidence 0.81).", None),
        ("exp-2009-backtest returned about 1% per month.", None),
    ],
    ids=["rationale-score", "typer-score", "score-label", "quote-figure"],
)
def test_figures_trace_only_to_the_named_material(
    mom: Material, brief: str, failure: BriefFailure | None
) -> None:
    material = replace(mom, rationale="It shares 88% of the claim's words.")
    assert verify_brief(brief, material).failure is failure


@pytest.mark.parametrize(
    ("brief", "failure"),
    [
        ("exp-2009-backtest: «Buying past winners generated abnormal returns».", "untraced"),
        ("exp-2009-backtest: ‘Buying past winners generated abnormal returns’.", "untraced"),
        ("exp-2009-backtest: 'Buying past winners generated abnormal returns'.", "untraced"),
        ("exp-2009-backtest: «The profits are not due to systematic risk».", None),
        ("exp-2009-backtest: ‘the profits are not due to systematic risk’.", None),
        ("exp-2009-backtest: 'the profits are not due to systematic risk'.", None),
        ("exp-2009-backtest: the winners' returns don't persist past losers.", None),
    ],
    ids=[
        "guillemets-altered",
        "curly-single-altered",
        "straight-single-altered",
        "guillemets-verbatim",
        "curly-single-verbatim",
        "straight-single-verbatim",
        "apostrophes-are-not-quotes",
    ],
)
def test_every_quotation_style_is_a_quotation(
    mom: Material, brief: str, failure: str | None
) -> None:
    check = verify_brief(brief, mom)
    if failure is None:
        assert check.failure is not BriefFailure.UNTRACED_QUOTE, check.detail
    else:
        assert check.failure is BriefFailure.UNTRACED_QUOTE


def test_offline_brief_quotes_nothing_but_the_quotes(mom: Material) -> None:
    brief = offline_brief(replace(mom, practice_title="Our «test» 'run'"))
    assert "«" not in brief and "'run'" not in brief
    assert verify_brief(brief, mom).ok

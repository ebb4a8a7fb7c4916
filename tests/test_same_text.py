"""A sentence several papers state word for word answers citing the first by year, naming the rest;
a sentence that differs in a number, a sign or a negation stays a rival."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.api import ask, open_workspace
from engine.importers.zotero import import_zotero
from engine.navigation.result import NavResult
from present.answer import answered_lines
from tests.builders.zotero_library import Paper, build_library
from tests.workspaces import words_alone

FINDING = (
    "Atorvastatin changed the hepatic fibrosis score by -0.4 points in adults with fatty liver."
)
CLAIM = "Atorvastatin changes the hepatic fibrosis score in adults with fatty liver."
YES_NO = "Does atorvastatin change the hepatic fibrosis score in adults with fatty liver?"
# Each paper's other sentences differ, so only the finding is shared.
SETTINGS = {
    "okafor": ("Statins and the liver", "We followed adults at six-month visits for two years."),
    "brandt": ("Statins and the liver: final report", "Muscle pain was rare in both arms."),
    "chen": ("Pooled lipid trials", "Biopsies were read by two pathologists."),
}


def _workspace(root: Path, papers: dict[str, tuple[str, int, str]]) -> Path:
    """`sources/<key>.txt` per paper (its finding among sentences of its own) and their years
    in `references.bib`."""
    (root / "sources").mkdir(parents=True)
    bib = []
    for key, (author, year, finding) in papers.items():
        title, other = SETTINGS[key]
        text = f"{title}\n\nWe enrolled adults in a randomised trial. {other}\n{finding} {other}\n"
        (root / "sources" / f"{key}.txt").write_text(text, "utf-8")
        bib.append(f"@article{{{key},\n  author = {{{author}, A.}},\n  title = {{{title}}},\n")
        bib.append(f"  year = {{{year}}},\n}}\n")
    (root / "references.bib").write_text("".join(bib), "utf-8")
    return root


def _ask(root: Path, question: str) -> NavResult:
    opened = open_workspace(root)
    try:
        return ask(opened, question)
    finally:
        opened.close()


def _paper(address: str) -> str:
    return address.rsplit(":", 1)[1].split("~")[0]


@pytest.mark.parametrize(
    "years, first, named",
    [
        ({"okafor": 2019, "brandt": 2021}, "okafor", "Brandt 2021"),
        ({"okafor": 2022, "brandt": 2020}, "brandt", "Okafor 2022"),
        # The same year: the citekey decides, never the order retrieval met them in.
        ({"okafor": 2020, "brandt": 2020}, "brandt", "Okafor 2020"),
    ],
    ids=["earlier-okafor", "earlier-brandt", "same-year-by-citekey"],
)
@pytest.mark.parametrize("question", [CLAIM, YES_NO], ids=["claim", "yes-no"])
def test_two_papers_stating_the_finding_answer_citing_the_first_by_year(
    tmp_path: Path, years: dict[str, int], first: str, named: str, question: str
) -> None:
    papers = {key: (key.title(), year, FINDING) for key, year in years.items()}
    result = _ask(_workspace(tmp_path, papers), question)
    assert result.label == "ANSWER" and result.given_up is None
    assert [_paper(a) for a in result.cited] == [first]
    assert result.also_stated is not None and result.also_stated.names == (named,)
    said = json.loads(result.to_json())["also_stated"]["papers"]
    assert [(_paper(p["address"]), p["name"]) for p in said] == [(named.split()[0].lower(), named)]
    line = f"Also stated word for word in: {named}."
    assert line in answered_lines(result) and "zk:" not in line


def test_three_copies_name_the_two_later_papers_in_year_order(tmp_path: Path) -> None:
    years = {"chen": 2018, "okafor": 2023, "brandt": 2020}
    papers = {key: (key.title(), year, FINDING) for key, year in years.items()}
    result = _ask(_workspace(tmp_path, papers), CLAIM)
    assert result.label == "ANSWER" and [_paper(a) for a in result.cited] == ["chen"]
    assert result.also_stated is not None
    assert result.also_stated.words() == "also stated word for word in: Brandt 2020, Okafor 2023"


@pytest.mark.parametrize(
    "changed",
    [
        FINDING.replace("-0.4", "-0.7"),
        FINDING.replace("-0.4", "0.4"),
        FINDING.replace("changed", "never changed"),
    ],
    ids=["number", "sign", "negation"],
)
def test_a_sentence_that_differs_stays_a_rival_and_nothing_is_merged(
    tmp_path: Path, changed: str
) -> None:
    # Two papers state the finding word for word, a third one changed: the twins are one
    # piece of evidence, the changed one still keeps either from standing out.
    papers = {
        "okafor": ("Okafor", 2019, FINDING),
        "brandt": ("Brandt", 2020, changed),
        "chen": ("Chen", 2021, FINDING),
    }
    with words_alone():
        result = _ask(_workspace(tmp_path, papers), CLAIM)
    assert result.label == "ABSTAIN" and result.given_up is not None
    assert _paper(result.given_up.candidate.rival) == "brandt"
    assert result.also_stated is None


def test_a_changed_sentence_alone_is_never_named_as_the_same(tmp_path: Path) -> None:
    papers = {
        "okafor": ("Okafor", 2019, FINDING),
        "brandt": ("Brandt", 2020, FINDING.replace("-0.4", "-0.7")),
    }
    with words_alone():
        result = _ask(_workspace(tmp_path, papers), YES_NO)
    assert result.label == "ANSWER" and result.also_stated is None
    assert json.loads(result.to_json())["also_stated"] is None


def test_a_zotero_preprint_and_its_published_version_answer_naming_the_other(
    tmp_path: Path,
) -> None:
    authors = [("Okafor", "Ada"), ("Lee", "Min")]
    papers = [
        Paper("ITEM0002", "Statins and the liver: final report", authors, "2021",
              abstract=f"We report the trial in full. {FINDING}",
              pages=[["Statins and the liver"], ["Muscle pain was rare.", FINDING]]),
        Paper("ITEM0001", "Statins and the liver (preprint)", authors, "2019",
              abstract=f"A preprint of the trial. {FINDING}",
              pages=[["Statins and the liver"], ["We followed adults for two years.", FINDING]]),
    ]  # fmt: skip
    import_zotero(build_library(tmp_path / "Zotero", papers), tmp_path / "ws")
    result = _ask(tmp_path / "ws", CLAIM)
    assert result.label == "ANSWER" and [_paper(a) for a in result.cited] == ["okafor2019statins"]
    assert result.also_stated is not None
    assert result.also_stated.words() == "also stated word for word in: Okafor & Lee 2021"

import json
from pathlib import Path

import pytest

from engine.workspace.references import Reference, cite, load_references, page_label
from engine.workspace.stores import load_workspace

BIB = r"""
@article{jt1993,
  author = {Jegadeesh, Narasimhan and Titman, Sheridan},
  title = {Returns to Buying Winners and Selling Losers},
  year = {1993},
}
@article{dm2016, author = {Daniel, Kent and Moskowitz, Tobias J. and M{\"u}ller, K.},
  title = {Momentum Crashes}, year = 2016}
@misc{broken, title = {unterminated
"""
CSL = [
    {"id": "jt1993", "author": [{"family": "Other"}], "issued": {"date-parts": [[1999]]}},
    {
        "id": "who2020",
        "author": [{"literal": "World Health Organization"}],
        "issued": {"raw": "2020-05"},
    },
    {"id": "vdb", "author": [{"family": "Berg", "non-dropping-particle": "van den"}]},
    "not an item",
]


@pytest.fixture
def root(tmp_path: Path) -> Path:
    (tmp_path / "references.bib").write_text(BIB)
    (tmp_path / "references.json").write_text(json.dumps(CSL))
    (tmp_path / ".zettelkasten/lit").mkdir(parents=True)
    (tmp_path / ".zettelkasten/lit/n1.md").write_text(
        "---\nid: n1\ntype: finding\nsource: jt1993\n---\nBody.\n"
    )
    (tmp_path / ".zettelkasten/lit/n2.md").write_text("---\nid: n2\ntype: concept\n---\nBody.\n")
    return tmp_path


@pytest.mark.parametrize(
    ("citekey", "label"),
    [
        ("jt1993", "Jegadeesh & Titman 1993"),
        ("dm2016", "Daniel et al. 2016"),
        ("who2020", "World Health Organization 2020"),
        ("vdb", "van den Berg"),
    ],
    ids=["two-authors-bib-wins", "three-authors-latex", "csl-literal-raw-date", "particle-no-year"],
)
def test_labels_name_authors_and_year(root: Path, citekey: str, label: str) -> None:
    reference = load_references(root).get(citekey)
    assert reference is not None
    assert reference.label == label


def test_latex_accents_are_decoded(root: Path) -> None:
    reference = load_references(root).get("dm2016")
    assert reference is not None
    assert reference.authors[-1] == "Müller"


def test_a_reference_without_authors_or_year_falls_back_to_the_citekey() -> None:
    assert Reference("key").label == "key"


def test_cite_shows_the_printed_page_label(root: Path) -> None:
    (root / "sources").mkdir()
    (root / "sources/jt1993.pdf.json").write_text(json.dumps({"labels": ["i", "ii", "65", "66"]}))
    workspace = load_workspace(root)
    note = workspace.note("zk:lit:n1")
    assert cite(workspace, note, 4) == "Jegadeesh & Titman 1993, p. 66"
    assert cite(workspace, note) == "Jegadeesh & Titman 1993"
    assert cite(workspace, workspace.note("zk:lit:n2"), 1) is None
    assert page_label(root, "jt1993", 9) == "9" and page_label(root, "../x", 2) == "2"


def test_a_changed_file_is_read_again(root: Path) -> None:
    first = load_references(root).get("jt1993")
    assert first is not None
    assert first.year == 1993
    (root / "references.bib").write_text("@article{jt1993, author={Solo, Han}, year={1977}}")
    again = load_references(root).get("jt1993")
    assert again is not None
    assert again.label == "Solo 1977"


def test_an_unreadable_csl_file_is_a_problem_not_an_error(root: Path) -> None:
    (root / "references.json").write_text("{not json")
    refs = load_references(root)
    assert refs.get("jt1993") is not None
    assert any(p.startswith("references.json: cannot read") for p in refs.problems)
    assert "references.bib: 1 entry not parsed" in refs.problems


def test_a_later_file_fills_what_the_first_left_empty(root: Path) -> None:
    (root / "references.bib").write_text("@article{who2020, title = {Guidance}}\n")
    reference = load_references(root).get("who2020")
    assert reference is not None
    assert (reference.title, reference.label) == ("Guidance", "World Health Organization 2020")

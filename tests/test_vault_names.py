"""Names are unambiguous: Unicode twins are reported, links matching only by case are named."""

import unicodedata
from pathlib import Path

import pytest

from engine.workspace.stores import load_workspace

NFC = unicodedata.normalize("NFC", "Café au lait")
NFD = unicodedata.normalize("NFD", "Café au lait")


def _vault(tmp_path: Path, notes: dict[str, str]) -> Path:
    (tmp_path / "workspace.toml").write_text('[vault]\ncanon = ["Lit"]\n')
    (tmp_path / "Lit").mkdir()
    for name, body in notes.items():
        (tmp_path / "Lit" / f"{name}.md").write_text(body)
    return tmp_path


def _problems(root: Path) -> list[str]:
    return [f"{p.path}: {p.problem}" for p in load_workspace(root).report]


def _links(root: Path) -> dict[str, tuple[str, ...]]:
    notes = load_workspace(root).notes.values()
    return {n.id: tuple(link.target_address for link in n.links) for n in notes}


def test_vault_names_that_differ_only_in_normalisation_load_once_and_are_reported(
    tmp_path: Path,
) -> None:
    assert NFC != NFD
    root = _vault(tmp_path, {NFC: "# Coffee\nOne.\n", NFD: "# Coffee too\nTwo.\n"})
    workspace = load_workspace(root)
    assert len(workspace.notes) == 1
    [problem] = _problems(root)
    assert "Unicode normalisation (NFC/NFD)" in problem


def test_note_ids_that_differ_only_in_normalisation_are_reported(tmp_path: Path) -> None:
    box = tmp_path / ".zettelkasten/lit"
    box.mkdir(parents=True)
    for n, ident in enumerate(unicodedata.normalize(form, "café") for form in ("NFC", "NFD")):
        (box / f"n{n}.md").write_text(f"---\nid: '{ident}'\ntype: concept\n---\nBody {n}.\n")
    assert len(load_workspace(tmp_path).notes) == 1
    assert any("NFC/NFD" in p for p in _problems(tmp_path))


def test_a_link_typed_in_another_normalisation_still_resolves_exactly(tmp_path: Path) -> None:
    root = _vault(tmp_path, {NFD: "# Coffee\nOne.\n", "Reader": f"See [[{NFC}]].\n"})
    assert _problems(root) == []
    assert _links(root)["Reader"] == (f"zk:Lit:{NFD.replace(' ', '-')}",)


@pytest.mark.parametrize(
    ("notes", "linked", "reported"),
    [
        ({"Case": "# Case\n"}, ("zk:Lit:Case",), "only when letter case is ignored"),
        ({"Case": "# A\n", "CASE": "# B\n"}, None, "match several notes"),
        ({"case": "# Lower\n", "Case": "# Upper\n"}, ("zk:Lit:case",), None),
    ],
    ids=["inexact-reported", "ambiguous-not-linked", "exact-wins"],
)
def test_a_link_matching_only_by_letter_case_is_reported(
    tmp_path: Path, notes: dict[str, str], linked: tuple[str] | None, reported: str | None
) -> None:
    root = _vault(tmp_path, {**notes, "Reader": "See [[case]].\n"})
    problems = [p for p in _problems(root) if p.startswith("Lit/Reader.md")]
    if reported is None:
        assert problems == []
    else:
        assert len(problems) == 1 and reported in problems[0] and "[[case]]" in problems[0]
    if linked is not None:
        assert _links(root)["Reader"] == linked
    else:
        assert _links(root)["Reader"] == ("zk:Lit:case",)  # unresolved: a missing hop
        assert "zk:Lit:case" not in load_workspace(root).notes

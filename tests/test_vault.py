import os
import shutil
from pathlib import Path

import pytest

from engine.core.verifiers import verify
from engine.workspace.stores import load_workspace
from engine.workspace.vault import box_name, path_id

CONFIG = """
[vault]
canon = ["Literature", "Concepts"]
practice = ["Lab notebook", "Decisions"]
"""

FILES = {
    "Literature/Jegadeesh 1993.md": """---
tags: [momentum]
aliases: [JT93]
---
# Returns to buying winners

Winners keep winning for a while #finance, see [[Momentum|the concept]].
supports:: [[Momentum]]

> Buying past winners and selling past losers generated significant abnormal returns.
> — @jt1993, p. 2

> A quote nobody attributed.

> Foreign text from another paper.
> — @other2000, p. 9
""",
    "Literature/2024/Daniel.md": """---
id: dm-2016
title: Momentum crashes
source: daniel2016
---
Crashes follow rebounds.

> Momentum strategies crash after market rebounds.
-- @daniel2016, pp. 3-4
""",
    "Concepts/Momentum.md": "Momentum: winners keep winning. See [[JT93]] and [[Nowhere]].\n",
    "Lab notebook/2024-01-05 backtest.md": "We skipped the last month. #experiment\n\n"
    "- contradicts:: [[Jegadeesh 1993]]\n",
    "Decisions/Skip month.md": "# Skip the most recent month\nWe decided to. ![[chart.png]]\n",
    ".obsidian/workspace.md": "not a note",
    "Literature/.hidden.md": "not a note",
    "Elsewhere/ignored.md": "not mapped",
}


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    for name, text in FILES.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    (root / "workspace.toml").write_text(CONFIG)
    (root / "sources").mkdir()
    (root / "sources/jt1993.txt").write_text(
        "Cover page.\fBuying past winners and selling past losers generated significant"
        " abnormal returns over 3 to 12 months.\n"
    )
    return root


def snapshot(root: Path) -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}


def test_vault_notes_load_with_titles_links_tags_and_quotes(vault: Path) -> None:
    workspace = load_workspace(vault)
    note = workspace.note("zk:Literature:Jegadeesh-1993")
    assert note is not None
    assert note.type is not None
    assert note.title == "Returns to buying winners" and note.type.value == "finding"
    assert note.tags == ("momentum", "finance") and note.citekey == "jt1993"
    assert [(q.body, q.page) for q in note.quotes] == [
        ("Buying past winners and selling past losers generated significant abnormal returns.", 2)
    ]
    assert {(link.target_address, link.relation) for link in note.links} == {
        ("zk:Concepts:Momentum", "links-to"),
        ("zk:Concepts:Momentum", "supports"),
    }
    assert ">" not in note.body and "@jt1993" not in note.body and "[[" not in note.body
    assert "see the concept." in note.body


def test_front_matter_id_wins_and_nested_paths_make_ids(vault: Path) -> None:
    workspace = load_workspace(vault)
    daniel = workspace.note("zk:Literature:dm-2016")
    assert daniel is not None
    assert daniel.title == "Momentum crashes" and daniel.quotes[0].page == 3
    assert path_id("2024/Daniel.md") == "2024~Daniel"
    assert workspace.boxes == ("Literature", "Concepts")


def test_practice_folders_load_as_entries_with_typed_links(vault: Path) -> None:
    workspace = load_workspace(vault)
    entry = workspace.note("mem:_memory:2024-01-05-backtest")
    assert entry is not None
    assert entry.type is not None
    assert entry.type.value == "experiment"
    assert entry.links[0].relation == "contradicts"
    assert entry.links[0].target_address == "zk:Literature:Jegadeesh-1993"
    decision = workspace.note("mem:_memory:Skip-month")
    assert decision is not None
    assert decision.type is not None
    assert decision.type.value == "decision" and decision.title == "Skip the most recent month"
    assert decision.links == ()


def test_unmapped_hidden_and_unresolved_are_left_out_or_reported(vault: Path) -> None:
    workspace = load_workspace(vault)
    paths = {note.path for note in workspace.notes.values()}
    assert not any(".obsidian" in p or "hidden" in p or "Elsewhere" in p for p in paths)
    problems = {(p.path, p.problem) for p in workspace.report}
    assert ("Concepts/Momentum.md", "links to notes not in the vault: [[Nowhere]]") in problems
    momentum = workspace.note("zk:Concepts:Momentum")
    assert momentum is not None
    links = {link.target_address for link in momentum.links}
    assert links == {"zk:Literature:Jegadeesh-1993", "zk:Concepts:Nowhere"}
    assert (
        "Literature/Jegadeesh 1993.md",
        "quote 2 is attributed to @other2000, not this note's @jt1993: not checked",
    ) in problems


def test_quotes_verify_against_the_source_with_the_page(vault: Path) -> None:
    note = load_workspace(vault).note("zk:Literature:Jegadeesh-1993")
    assert note is not None
    result = verify("quote", {"body": note.quotes[0].body, "source": note.citekey}, workspace=vault)
    assert result.ok and result.page == 2


def test_nothing_is_written_into_the_vault(vault: Path) -> None:
    before = snapshot(vault)
    load_workspace(vault)
    assert snapshot(vault) == before


def test_an_edit_reloads_and_a_rename_keeps_a_front_matter_id(vault: Path) -> None:
    first = load_workspace(vault)
    shutil.move(vault / "Literature/2024/Daniel.md", vault / "Literature/Daniel renamed.md")
    second = load_workspace(vault, previous=first)
    renamed = second.note("zk:Literature:dm-2016")
    assert renamed is not None
    assert renamed.path == "Literature/Daniel renamed.md"


@pytest.mark.parametrize(
    ("name", "data", "problem"),
    [
        ("Concepts/binary.md", b"\x00\x01", "binary file"),
        ("Concepts/latin1.md", "caf\xe9".encode("latin-1"), "not UTF-8"),
        ("Concepts/yaml.md", b"---\nid: [unclosed\n---\nbody", "bad YAML front matter"),
        ("Concepts/badid.md", b"---\nid: a/b\n---\nbody", "not address-safe"),
    ],
    ids=["binary", "not-utf8", "bad-yaml", "unsafe-id"],
)
def test_malformed_notes_are_reported_and_skipped(
    vault: Path, name: str, data: bytes, problem: str
) -> None:
    (vault / name).write_bytes(data)
    workspace = load_workspace(vault)
    assert any(p.path == name and problem in p.problem for p in workspace.report)
    assert workspace.note("zk:Concepts:Momentum") is not None


def test_a_symlink_out_of_the_vault_is_not_followed(vault: Path, tmp_path: Path) -> None:
    secret = tmp_path / "secret.md"
    secret.write_text("# Secret\nprivate")
    os.symlink(secret, vault / "Concepts/link.md")
    workspace = load_workspace(vault)
    assert not any(n.title == "Secret" for n in workspace.notes.values())
    assert any(p.path == "Concepts/link.md" and "symlink" in p.problem for p in workspace.report)


@pytest.mark.parametrize(
    ("config", "problem"),
    [
        ('[vault]\ncanon = ["../outside"]\n', "climbs out"),
        ('[vault]\ncanon = ["/etc"]\n', "absolute path"),
        ('[vault]\ncanon = "Literature"\npractice = [1]\n', "must be a list"),
        ('[vault]\ncanon = ["Missing"]\n', "does not exist"),
        ('vault = "x"\n', "must be a table"),
    ],
    ids=["dotdot", "absolute", "not-a-list", "missing", "not-a-table"],
)
def test_bad_vault_settings_are_reported(vault: Path, config: str, problem: str) -> None:
    (vault / "workspace.toml").write_text(config)
    workspace = load_workspace(vault)
    assert any(problem in p.problem for p in workspace.report), workspace.report


@pytest.mark.parametrize(
    ("folder", "box"),
    [
        ("Literature", "Literature"),
        ("Reading notes/2024", "Reading-notes-2024"),
        ("~fed~x", "vault-~fed~x"),
    ],
    ids=["plain", "spaces-and-nesting", "federated-prefix"],
)
def test_folder_names_become_address_safe_boxes(folder: str, box: str) -> None:
    assert box_name(folder) == box


def test_a_printed_page_becomes_its_position_in_the_pdf_text(vault: Path) -> None:
    (vault / "sources/jt1993.pdf.json").write_text('{"labels": ["i", "2"]}')
    (vault / "sources/daniel2016.pdf.json").write_text('{"labels": ["ii", "iii", "iv", "3"]}')
    workspace = load_workspace(vault)
    jegadeesh = workspace.note("zk:Literature:Jegadeesh-1993")
    daniel = workspace.note("zk:Literature:dm-2016")
    assert jegadeesh is not None and daniel is not None
    assert jegadeesh.quotes[0].page == 2
    assert daniel.quotes[0].page == 4

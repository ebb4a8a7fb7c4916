import hashlib
import os
from pathlib import Path

import pytest

from engine.core.errors import EngineError, WorkspaceError
from engine.workspace.notes import NoteKind, Store
from engine.workspace.stores import (
    LoadProblem,
    TetherState,
    Workspace,
    load_workspace,
    tether_status,
)

GOOD_NOTE = """---
id: z-mom-01
type: claim
title: Momentum persists
source: smith2020
quotes:
  - {id: q1, body: "Winners keep winning for 3 to 12 months.", page: 4}
links:
  - {target: z-mom-02, relation: supports}
  - {target: "mem:_memory:deci-1", relation: contradicts}
tether: {path: src/strategy.py, pin: PIN, anchor: "return momentum"}
equation: "r_t = \\\\alpha + \\\\beta m_t"
figure: figures/mom.png
data: {file: data/returns.csv, column: ret, agg: mean, value: 0.012, tolerance: 0.001,
       where: {year: [2019, 2020]}}
tree: {file: trees/alloc.json, params: {risk: low}, target: leaf-3}
---
Momentum returns persist over the medium term.
"""

STRATEGY = "def signal(prices):\n    return momentum(prices)\n"


def write(root: Path, rel: str, content: str | bytes) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def note_text(note_id: str, extra: str = "", body: str = "Body.") -> str:
    return f"---\nid: {note_id}\ntype: claim\ntitle: T {note_id}\n{extra}---\n{body}\n"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    pin = hashlib.sha256(STRATEGY.encode()).hexdigest()
    write(ws, ".zettelkasten/finance/z-mom-01.md", GOOD_NOTE.replace("PIN", pin))
    write(ws, ".zettelkasten/finance/z-mom-02.md", note_text("z-mom-02"))
    write(ws, ".memory/deci-1.md", "---\nid: deci-1\ntype: decision\ntitle: Go\n---\nWe go.\n")
    write(ws, "src/strategy.py", STRATEGY)
    write(ws, "sources/smith2020.txt", "Page one.\fWinners keep winning.")
    write(ws, "sources/smith2020.annotations.json", '[{"text": "Winners", "page": 2}, 7]')
    write(
        ws,
        "workspace.toml",
        '[[federated]]\nrepo = "peerlab"\nbox = "finance"\n'
        'path = "vendor/peerlab/.zettelkasten/finance"\n',
    )
    write(ws, "vendor/peerlab/.zettelkasten/finance/p-1.md", note_text("p-1", body="Peer."))
    return ws


def problems_for(workspace: Workspace, rel: str) -> list[str]:
    return [p.problem for p in workspace.report if p.path == rel]


def test_good_notes_load_with_every_field(root: Path) -> None:
    ws = load_workspace(root)
    assert ws.report == ()
    note = ws.note("zk:finance:z-mom-01")
    assert note is not None
    assert (note.store, note.source, note.type) == (Store.CANON, "finance", NoteKind.CLAIM)
    assert note.path == ".zettelkasten/finance/z-mom-01.md"
    assert note.citekey == "smith2020"
    assert note.body == "Momentum returns persist over the medium term."
    assert [(q.id, q.page) for q in note.quotes] == [("q1", 4)]
    assert [(link.target_address, link.relation) for link in note.links] == [
        ("zk:finance:z-mom-02", "supports"),
        ("mem:_memory:deci-1", "contradicts"),
    ]
    assert note.tether is not None
    assert note.tether.anchor == "return momentum"
    assert note.evidence.equation == "r_t = \\alpha + \\beta m_t"
    assert note.evidence.data is not None
    assert note.evidence.data.payload()["where"] == {"year": [2019, 2020]}
    assert note.evidence.tree is not None
    assert note.evidence.tree.payload() == {
        "file": "trees/alloc.json",
        "params": {"risk": "low"},
        "target": "leaf-3",
    }
    assert ws.boxes == ("finance",)
    assert list(ws.notes) == sorted(ws.notes)


def test_federated_box_gets_an_address_safe_source(root: Path) -> None:
    ws = load_workspace(root)
    assert [fed.source for fed in ws.federated] == ["~fed~peerlab~finance"]
    peer = ws.note("zk:~fed~peerlab~finance:p-1")
    assert peer is not None
    assert peer.body == "Peer."
    assert peer.path == "vendor/peerlab/.zettelkasten/finance/p-1.md"


BIG = "---\nid: big\ntype: claim\n---\n" + "x" * (2 * 1024 * 1024)
BAD_FILES = [
    ("bad-yaml.md", "---\nid: [x\n---\n", "bad YAML"),
    ("list.md", "---\n- a\n- b\n---\n", "not a mapping"),
    ("no-id.md", "---\ntype: claim\n---\n", "missing id"),
    ("plain.md", "just text\n", "no YAML front matter"),
    ("latin1.md", b"---\nid: cafe\ntitle: caf\xe9\n---\n", "not UTF-8"),
    ("binary.md", b"\x89PNG\r\n\x1a\n\x00\x00\x00", "binary"),
    ("big.md", BIG, "over the 2,097,152-byte limit"),
    ("climb.md", note_text("../../etc/passwd"), "not address-safe"),
    ("colon.md", note_text('"a:b"'), "not address-safe"),
    ("space.md", note_text('"a b"'), "not address-safe"),
    ("control.md", note_text('"a\\x07b"'), "not address-safe"),
    ("quotes.md", note_text("qs", "quotes: oops\n"), "quotes is not a list"),
    ("kind.md", note_text("kd").replace("type: claim", "type: banana"), "type 'banana'"),
    ("links.md", note_text("lk", "links: [{relation: x}]\n"), "link 1 needs a target"),
    ("tether.md", note_text("tt", "tether: {path: ../etc, pin: xyz}\n"), "climbs out"),
]


@pytest.mark.parametrize(
    ("name", "content", "expected"), BAD_FILES, ids=[row[0] for row in BAD_FILES]
)
def test_a_bad_file_is_reported_and_the_rest_loads(
    root: Path, name: str, content: str | bytes, expected: str
) -> None:
    write(root, f".zettelkasten/finance/{name}", content)
    ws = load_workspace(root)
    found = problems_for(ws, f".zettelkasten/finance/{name}")
    assert any(expected in problem for problem in found), found
    assert {"zk:finance:z-mom-01", "zk:finance:z-mom-02", "mem:_memory:deci-1"} <= set(ws.notes)


def test_a_field_of_the_wrong_shape_is_dropped_but_the_note_loads(root: Path) -> None:
    write(root, ".zettelkasten/finance/qs.md", note_text("qs", "quotes: oops\n"))
    note = load_workspace(root).note("zk:finance:qs")
    assert note is not None
    assert note.quotes == ()


def test_duplicate_id_keeps_the_first_file(root: Path) -> None:
    write(root, ".zettelkasten/finance/zz-copy.md", note_text("z-mom-02", body="Second."))
    ws = load_workspace(root)
    kept = ws.note("zk:finance:z-mom-02")
    assert kept is not None
    assert kept.body == "Body."
    assert "duplicate id 'z-mom-02'" in problems_for(ws, ".zettelkasten/finance/zz-copy.md")[0]


def test_symlink_leaving_the_workspace_is_not_followed(root: Path, tmp_path: Path) -> None:
    secret = write(tmp_path, "outside/secret.md", note_text("secret"))
    (root / ".zettelkasten/finance/escape.md").symlink_to(secret)
    (root / ".zettelkasten/elsewhere").symlink_to(secret.parent, target_is_directory=True)
    ws = load_workspace(root)
    assert "symlink not followed" in problems_for(ws, ".zettelkasten/finance/escape.md")[0]
    assert "outside the workspace" in problems_for(ws, ".zettelkasten/elsewhere")[0]
    assert not any(note.id == "secret" for note in ws.notes.values())


def test_settings_behind_an_outside_symlink_are_not_read(root: Path, tmp_path: Path) -> None:
    outside = write(tmp_path, "outside/workspace.toml", (root / "workspace.toml").read_text())
    (root / "workspace.toml").unlink()
    (root / "workspace.toml").symlink_to(outside)
    ws = load_workspace(root)
    assert ws.federated == ()
    assert "symlink not followed" in problems_for(ws, "workspace.toml")[0]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_named_pipe_is_refused_without_blocking(root: Path) -> None:
    os.mkfifo(root / ".zettelkasten/finance/pipe.md")
    ws = load_workspace(root)
    assert problems_for(ws, ".zettelkasten/finance/pipe.md") == ["not a regular file"]


BAD_BOXES = [
    ('repo = "peer:lab"\nbox = "x"\npath = "vendor/peerlab/.zettelkasten/finance"', "may not"),
    ('repo = "peer~lab"\nbox = "x"\npath = "vendor/peerlab/.zettelkasten/finance"', "may not"),
    ('repo = "p"\nbox = "a b"\npath = "vendor/peerlab/.zettelkasten/finance"', "may not"),
    ('repo = "p"\nbox = "x"', "needs repo, box and path"),
]


@pytest.mark.parametrize(
    ("entry", "expected"), BAD_BOXES, ids=["colon", "tilde", "space", "no-path"]
)
def test_unsafe_federated_declarations_are_refused(root: Path, entry: str, expected: str) -> None:
    write(root, "workspace.toml", f"[[federated]]\n{entry}\n")
    ws = load_workspace(root)
    assert ws.federated == ()
    assert expected in problems_for(ws, "workspace.toml")[0]


def test_local_box_may_not_use_the_federated_prefix(root: Path) -> None:
    write(root, ".zettelkasten/~fed~peerlab~finance/x.md", note_text("x"))
    ws = load_workspace(root)
    assert problems_for(ws, ".zettelkasten/~fed~peerlab~finance") == [
        "local box name may not start with '~fed~'"
    ]
    assert "zk:~fed~peerlab~finance:x" not in ws.notes


def test_report_is_sorted_by_path(root: Path) -> None:
    write(root, ".memory/bad.md", "nothing")
    write(root, ".zettelkasten/finance/bad.md", "nothing")
    write(root, "workspace.toml", "not toml [")
    report = load_workspace(root).report
    assert [p.path for p in report] == sorted(p.path for p in report)
    assert LoadProblem(".memory/bad.md", report[0].problem) == report[0]


@pytest.mark.parametrize("make", ["missing", "file"], ids=["missing", "not-a-folder"])
def test_only_a_missing_folder_raises(tmp_path: Path, make: str) -> None:
    target = tmp_path / "ws"
    if make == "file":
        target.write_text("x")
    with pytest.raises(WorkspaceError):
        load_workspace(target)


def test_sources_annotations_and_safe_reads(root: Path) -> None:
    ws = load_workspace(root)
    text = ws.source_text("smith2020")
    assert text is not None
    assert text.split("\f") == ["Page one.", "Winners keep winning."]
    assert ws.source_text("../etc") is None
    assert [(a.text, a.page) for a in ws.annotations("smith2020")] == [("Winners", 2)]
    assert ws.annotations("nobody") == ()
    assert ws.read_file("src/strategy.py") == STRATEGY.encode()
    assert ws.read_file("../ws/src/strategy.py") is None


def test_reload_reuses_unchanged_files_and_sees_edits(root: Path) -> None:
    first = load_workspace(root)
    write(root, ".zettelkasten/finance/z-mom-02.md", note_text("z-mom-02", body="Edited."))
    second = load_workspace(root, previous=first)
    assert second.note("zk:finance:z-mom-01") is first.note("zk:finance:z-mom-01")
    edited = second.note("zk:finance:z-mom-02")
    assert edited is not None
    assert edited.body == "Edited."


TETHER_CASES = [
    (STRATEGY, TetherState.FRESH),
    (STRATEGY + "# tuned\n", TetherState.OUTDATED),
    ("def signal(prices):\n    return value(prices)\n", TetherState.STALE),
    (None, TetherState.UNRESOLVED),
]


@pytest.mark.parametrize(
    ("content", "state"), TETHER_CASES, ids=[state.value for _, state in TETHER_CASES]
)
def test_tether_freshness(root: Path, content: str | None, state: TetherState) -> None:
    if content is None:
        (root / "src/strategy.py").unlink()
    else:
        write(root, "src/strategy.py", content)
    ws = load_workspace(root)
    tethered = ws.note("zk:finance:z-mom-01")
    assert tethered is not None
    assert tether_status(ws, tethered) is state


def test_unsafe_tether_path_is_unresolved_and_untethered_note_is_misuse(root: Path) -> None:
    write(root, ".zettelkasten/finance/tt.md", note_text("tt", "tether: {path: ../../x}\n"))
    ws = load_workspace(root)
    unsafe, untethered = ws.note("zk:finance:tt"), ws.note("zk:finance:z-mom-02")
    assert unsafe is not None and untethered is not None
    assert tether_status(ws, unsafe) is TetherState.UNRESOLVED
    with pytest.raises(EngineError):
        tether_status(ws, untethered)


@pytest.mark.parametrize(
    "made",
    [pytest.param((), id="empty"), pytest.param(("notes", "src"), id="other-folders")],
)
def test_a_folder_without_canon_or_practice_is_refused_and_left_untouched(
    tmp_path: Path, made: tuple[str, ...]
) -> None:
    for name in made:
        (tmp_path / name).mkdir()
    before = sorted(p.name for p in tmp_path.iterdir())
    with pytest.raises(WorkspaceError, match=r"not a workspace: .*\.zettelkasten/.*\.memory/"):
        load_workspace(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == before


@pytest.mark.parametrize("folder", [".zettelkasten", ".memory"])
def test_either_store_folder_alone_makes_a_workspace(tmp_path: Path, folder: str) -> None:
    (tmp_path / folder).mkdir()
    assert load_workspace(tmp_path).notes == {}

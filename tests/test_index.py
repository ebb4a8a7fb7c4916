import json
import math
import sqlite3
import subprocess
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TypedDict

import pytest

from engine.core.errors import EngineError
from engine.workspace.caches import index_path
from engine.workspace.index import Hit, Index
from engine.workspace.notes import Store
from engine.workspace.stores import load_workspace

REPO = Path(__file__).resolve().parent.parent

NOTES = {
    ".zettelkasten/finance/mom.md": ("mom", "claim", "Momentum returns", "Winners keep winning."),
    ".zettelkasten/finance/val.md": (
        "val",
        "claim",
        "Value premium",
        "Cheap stocks beat momentum.",
    ),
    ".zettelkasten/bio/cell.md": ("cell", "finding", "Cell division", "Mitosis splits cells."),
    ".zettelkasten/bio/twin.md": ("twin", "finding", "Twin study", "Twins share genes."),
    ".zettelkasten/econ/twin.md": ("twin", "concept", "Twin study", "Twins share genes."),
    ".memory/deci-1.md": ("deci-1", "decision", "Adopt momentum", "We trade momentum monthly."),
    "vendor/peer/fin/crash.md": ("crash", "claim", "Momentum crashes", "Rebounds hurt momentum."),
}
FEDERATED = '[[federated]]\nrepo = "peer"\nbox = "fin"\npath = "vendor/peer/fin"\n'


def write_note(root: Path, rel: str, note_id: str, kind: str, title: str, body: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"---\nid: {note_id}\ntype: {kind}\ntitle: {title}\n---\n{body}\n", "utf-8")


@pytest.fixture
def root(tmp_path: Path) -> Path:
    for rel, fields in NOTES.items():
        write_note(tmp_path, rel, *fields)
    (tmp_path / "workspace.toml").write_text(FEDERATED, "utf-8")
    return tmp_path


@pytest.fixture
def index(root: Path) -> Iterator[Index]:
    with Index.open(root) as opened:
        opened.update(load_workspace(root))
        yield opened


def addresses(hits: Iterable[Hit]) -> list[str]:
    return [hit.address for hit in hits]


def test_the_best_note_comes_first_and_titles_count_more(index: Index) -> None:
    assert addresses(index.search("momentum returns"))[0] == "zk:finance:mom"
    # "momentum" sits in the title of mom and deci-1 but only in the body of val.
    assert addresses(index.search("momentum", box="finance"))[-1] == "zk:finance:val"
    assert index.search("mitosis")[0].title == "Cell division"
    assert index.search("zebra") == []
    assert index.search("the of and") == []


class Filters(TypedDict, total=False):
    """The search filters a case sets."""

    store: str
    box: str


SEARCH_FILTERS: list[tuple[Filters, list[str]]] = [
    ({"store": "mem"}, ["mem:_memory:deci-1"]),
    ({"store": "zk"}, ["zk:finance:mom", "zk:finance:val", "zk:~fed~peer~fin:crash"]),
    ({"box": "finance"}, ["zk:finance:mom", "zk:finance:val"]),
    ({"box": "peer:fin"}, ["zk:~fed~peer~fin:crash"]),
    ({"box": "~fed~peer~fin"}, ["zk:~fed~peer~fin:crash"]),
    ({"box": "_memory", "store": "zk"}, []),
    ({"box": "nowhere"}, []),
]
FILTER_IDS = ["mem", "zk", "box", "federated", "encoded", "box-and-store", "unknown"]


@pytest.mark.parametrize(("filters", "expected"), SEARCH_FILTERS, ids=FILTER_IDS)
def test_store_and_box_filters(index: Index, filters: Filters, expected: list[str]) -> None:
    assert sorted(addresses(index.search("momentum", **filters))) == expected


def test_a_store_holding_every_note_filters_nothing_until_another_store_has_one(
    root: Path,
) -> None:
    (root / ".memory/deci-1.md").unlink()
    with Index.open(root) as index:
        index.update(load_workspace(root))
        everything = index.search("momentum")
        assert len(everything) == 3
        assert index.search("momentum", store="zk") == everything
        assert index.search("momentum", store=Store.CANON) == everything
        assert index.search("momentum", store="mem") == []
        write_note(root, ".memory/deci-2.md", "deci-2", "decision", "Momentum", "Momentum.")
        index.update(load_workspace(root))
        assert addresses(index.search("momentum"))[0] == "mem:_memory:deci-2"
        # The new note weighs every word afresh: the same notes, scored anew.
        assert addresses(index.search("momentum", store="zk")) == addresses(everything)
        assert addresses(index.search("momentum", store="mem")) == ["mem:_memory:deci-2"]


def test_ties_break_by_address(index: Index) -> None:
    hits = index.search("twins genes", k=2)
    assert addresses(hits) == ["zk:bio:twin", "zk:econ:twin"]
    assert hits[0].score == hits[1].score
    assert addresses(index.search("twins genes", k=1)) == ["zk:bio:twin"]


def test_incremental_update_counts_and_follows_the_files(root: Path, index: Index) -> None:
    assert index.count() == len(NOTES)
    write_note(root, ".zettelkasten/bio/cell.md", "cell", "finding", "Cell death", "Apoptosis.")
    (root / ".zettelkasten/finance/val.md").unlink()
    write_note(root, ".memory/exp-1.md", "exp-1", "experiment", "Try value", "Backtest it.")
    stats = index.update(load_workspace(root))
    assert (stats.added, stats.changed, stats.removed, stats.unchanged) == (1, 1, 1, len(NOTES) - 2)
    assert addresses(index.search("apoptosis")) == ["zk:bio:cell"]
    assert index.search("mitosis") == []
    assert addresses(index.search("backtest")) == ["mem:_memory:exp-1"]
    assert "zk:finance:val" not in addresses(index.search("cheap stocks"))


def test_bad_arguments(index: Index) -> None:
    assert index.search("momentum", k=0) == []
    with pytest.raises(EngineError):
        index.search("momentum", store="code")


def test_a_touched_but_identical_file_is_unchanged(root: Path, index: Index) -> None:
    path = root / ".zettelkasten/bio/cell.md"
    path.write_bytes(path.read_bytes())
    stats = index.update(load_workspace(root))
    assert (stats.added, stats.changed, stats.unchanged) == (0, 0, len(NOTES))


@pytest.mark.parametrize("damage", ["garbage", "old-schema"], ids=["garbage", "old-schema"])
def test_a_broken_database_is_rebuilt(root: Path, index: Index, damage: str) -> None:
    index.close()
    db = index_path(root)
    if damage == "garbage":
        db.write_bytes(b"this is not a database" * 100)
        for suffix in ("-wal", "-shm"):
            Path(f"{db}{suffix}").unlink(missing_ok=True)
    else:
        with sqlite3.connect(db) as raw:
            raw.execute("UPDATE meta SET value = '0' WHERE key = 'schema_version'")
    with Index.open(root) as reopened:
        assert reopened.rebuilt and reopened.count() == 0
        assert reopened.update(load_workspace(root)).added == len(NOTES)
        assert addresses(reopened.search("mitosis")) == ["zk:bio:cell"]
    with Index.open(root) as again:
        assert not again.rebuilt


READER = """
import json, sys
from engine.workspace.index import Index
with Index.open(sys.argv[1]) as index:
    print(json.dumps([hit.address for hit in index.search(sys.argv[2])]))
"""

WRITER = """
import sys
from engine.workspace.index import Index
from engine.workspace.stores import load_workspace
with Index.open(sys.argv[1]) as index:
    index.update(load_workspace(sys.argv[1]))
"""


def run_python(script: str, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", script, *args],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=REPO,
        check=True,
    )
    return done.stdout


def test_another_process_reads_while_a_write_is_open(root: Path, index: Index) -> None:
    with sqlite3.connect(index_path(root), isolation_level=None, timeout=1) as writer:
        assert writer.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        # An exclusive write lock would block every reader without WAL.
        writer.execute("BEGIN EXCLUSIVE")
        writer.execute("DELETE FROM docs")
        seen = json.loads(run_python(READER, str(root), "mitosis"))
        writer.execute("ROLLBACK")
    assert seen == ["zk:bio:cell"]


def test_an_open_index_follows_updates_from_another_process(root: Path, index: Index) -> None:
    assert index.search("apoptosis") == []
    write_note(root, ".zettelkasten/bio/death.md", "death", "finding", "Cell death", "Apoptosis.")
    run_python(WRITER, str(root))
    assert addresses(index.search("apoptosis")) == ["zk:bio:death"]
    assert index.update(load_workspace(root)).unchanged == len(NOTES) + 1


def test_one_index_serves_many_threads(tmp_path: Path) -> None:
    from concurrent.futures import ThreadPoolExecutor

    from engine.workspace.index import Index
    from engine.workspace.stores import load_workspace

    box = tmp_path / ".zettelkasten" / "b"
    box.mkdir(parents=True)
    for i in range(20):
        (box / f"n{i}.md").write_text(
            f"---\nid: n{i}\ntype: finding\ntitle: note {i}\n---\nalpha beta {i}\n"
        )
    index = Index.open(tmp_path)
    index.update(load_workspace(tmp_path))
    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(lambda i: index.search(f"alpha {i}", k=3), range(200)))
    assert all(hits and hits[0].address.startswith("zk:b:") for hits in results)
    index.close()


def test_rarity_weighs_words_fewer_notes_mention_higher(index: Index) -> None:
    rare = index.rarity(["momentum", "mitosis", "unheard"])
    n = index.count()
    assert rare["unheard"] == pytest.approx(math.log(n + 1))  # no note mentions it
    assert rare["mitosis"] == pytest.approx(math.log((n + 1) / 2))
    assert rare["unheard"] > rare["mitosis"] > rare["momentum"] > 0


def test_related_notes_share_the_notes_rarest_terms_and_leave_it_out(index: Index) -> None:
    text = "Momentum crashes after rebounds. Rebounds hurt momentum."
    hits = index.related("zk:~fed~peer~fin:crash", text, k=3)
    assert "zk:~fed~peer~fin:crash" not in addresses(hits)
    assert hits and all(hit.score > 0 for hit in hits)
    assert addresses(hits) == addresses(index.related("zk:~fed~peer~fin:crash", text, k=3))


def test_a_note_whose_words_no_other_note_has_relates_to_nothing(index: Index) -> None:
    assert index.related("zk:x:y", "zebra quokka", k=3) == []

"""What a cluster worker opens: the client's index from its snapshot, checked, and nothing else.

No cluster here: these are the checks a worker runs before it answers, and the resumable
output file, exercised in this process.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine.api import OpenWorkspace
from engine.commands.cluster_session import Where, worker_workspace
from engine.core.errors import ConfigError, WorkspaceError
from engine.distributed.cluster import ClusterSpec, parse_cluster
from engine.distributed.jsonl_out import LinesOut
from engine.workspace.opened import notes_fingerprint, open_snapshot, open_workspace
from tests.workspaces import ROOT, make_workspace

QUERIES = ["momentum winners losers", "mean monthly return", "penny stocks universe"]


def test_a_snapshot_ranks_exactly_as_the_index_it_was_taken_from(lab: OpenWorkspace) -> None:
    image = lab.index.snapshot()
    worker = open_snapshot(lab.root, image)
    try:
        for query in QUERIES:
            assert worker.index.search(query) == lab.index.search(query)
        assert worker.index.rarity(QUERIES[0].split()) == lab.index.rarity(QUERIES[0].split())
        assert worker.index.path is None  # in memory: the worker opens no file
    finally:
        worker.close()


def test_a_snapshot_of_other_notes_is_refused(lab: OpenWorkspace, tmp_path: Path) -> None:
    other = make_workspace(tmp_path, name="other")
    shutil.rmtree(other / ".memory")
    with pytest.raises(WorkspaceError, match="note\\(s\\) differ from what it indexed"):
        open_snapshot(other, lab.index.snapshot())


def test_a_worker_whose_notes_are_not_the_clients_refuses(
    lab: OpenWorkspace, tmp_path: Path
) -> None:
    copy = make_workspace(tmp_path, name="copy")  # the lab as another machine sees it:
    shutil.rmtree(copy / ".memory")  # its practice notes not synced yet
    opened = open_workspace(copy)
    image = opened.index.snapshot()
    where = Where(str(copy), notes_fingerprint(lab.workspace))
    opened.close()
    with pytest.raises(WorkspaceError, match="not the client's"):
        worker_workspace(where, image)


@pytest.mark.parametrize(
    ("text", "spec"),
    [("local", ClusterSpec()), ("tcp://10.0.0.5:8786", ClusterSpec("tcp://10.0.0.5:8786"))],
    ids=["local", "address"],
)
def test_cluster_values_parse(text: str, spec: ClusterSpec) -> None:
    assert parse_cluster(text) == spec


@pytest.mark.parametrize(
    "text", ["tcp://host", "10.0.0.5:8786", "tcp://host:99999", "ssh://host:22"],
    ids=["no-port", "no-scheme", "port-range", "scheme"],
)  # fmt: skip
def test_other_cluster_values_are_refused(text: str) -> None:
    with pytest.raises(ConfigError, match="neither 'local' nor a scheduler address"):
        parse_cluster(text)


def test_a_half_written_last_line_is_cut_and_the_whole_ones_kept(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    out.write_text('{"id": 1}\n{"id": 2, "error": "line 2: bad"}\n{"id": 3, "deci')
    with LinesOut.resume(out, [1, 2, 3, 4], lambda record: record.get("id")) as lines:
        assert (lines.kept, lines.errors) == (2, ["line 2: bad"])
        lines.write(json.dumps({"id": 3}))
    assert out.read_text() == '{"id": 1}\n{"id": 2, "error": "line 2: bad"}\n{"id": 3}\n'


def test_more_lines_than_items_is_another_batch(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    out.write_text('{"id": 1}\n{"id": 2}\n')
    with pytest.raises(ConfigError, match="more than the batch's 1 items"):
        LinesOut.resume(out, [1], lambda record: record.get("id"))


def test_a_command_without_the_flag_never_imports_dask() -> None:
    code = "import sys, engine.cli; print(sorted({'dask', 'distributed'} & set(sys.modules)))"
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "[]"

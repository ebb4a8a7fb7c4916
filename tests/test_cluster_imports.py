"""PDF imports on a two-process LocalCluster write the serial import's files, byte for byte.

Each PDF is read by a worker (the same budgeted reader) and written here; a PDF that kills
every worker reading it is named and skipped; a client killed mid-import leaves only whole
files, and the next run reads only the PDFs still missing.
"""

from __future__ import annotations

import json
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.builders.pdfgen import shared_stream_pdf_bytes, write_pdf
from tests.builders.zotero_library import Mark, Paper, build_library
from tests.cli import Result, start
from tests.cluster_support import TIMEOUT, bounded, faults, tree, two_workers, wait_for

SENTENCES = [
    "Patients given the drug had fewer relapses than those given placebo.",
    "The effect did not hold in children under twelve.",
    "Momentum returns were twelve percent a year in the sample.",
    "A first page about methods and the design of the study.",
]
REPORT = ".synapse/reports/sources-add.json"


def pages(n: int) -> list[list[str]]:
    return [[f"Paper {n}, page {p}.", *SENTENCES[p % 4 :], *SENTENCES[: p % 4]] for p in range(3)]


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    with two_workers() as address:
        yield address


@pytest.fixture
def papers(tmp_path: Path) -> Path:
    folder = tmp_path / "papers"
    for n in range(6):
        write_pdf(folder / f"paper{n}.pdf", pages(n))
    return folder


def add(papers: Path, workspace: Path, *args: str) -> Result:
    workspace.mkdir(exist_ok=True)
    return bounded("sources", "add", papers, "--workspace", workspace, *args)


def items(workspace: Path) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = json.loads((workspace / REPORT).read_text())["items"]
    return found


def test_sources_add_on_the_cluster_writes_the_serial_files(
    cluster: str, papers: Path, tmp_path: Path
) -> None:
    serial = add(papers, tmp_path / "serial")
    spread = add(papers, tmp_path / "spread", "--cluster", cluster)
    assert spread.code == serial.code == 0
    assert tree(tmp_path / "spread", skip=(REPORT,)) == tree(tmp_path / "serial", skip=(REPORT,))
    assert items(tmp_path / "spread") == items(tmp_path / "serial")
    assert len(list((tmp_path / "spread/sources").glob("*.txt"))) == 6


def test_import_zotero_on_the_cluster_writes_the_serial_files(cluster: str, tmp_path: Path) -> None:
    papers = [
        Paper(
            key=f"K{n:07d}",
            title=f"Study {n} of relapses",
            authors=[("Smith", "A")],
            date=str(2000 + n),
            abstract=SENTENCES[n % 4],
            pages=pages(n) if n % 3 else None,
            marks=[Mark(pages(n)[1][1], 1)] if n % 3 else [],
        )
        for n in range(7)
    ]
    library = build_library(tmp_path / "Zotero", papers)
    done = []
    for name, args in (("serial", ()), ("spread", ("--cluster", cluster))):
        run = bounded(
            "import", "zotero", "--data-dir", library, "--workspace", tmp_path / name, *args
        )
        assert run.code == 0, run.err
        done.append(tree(tmp_path / name))
    assert done[0] == done[1]
    texts = [name for name in done[0] if name.endswith(".txt")]
    assert sum(not name.endswith(".abstract.txt") for name in texts) == 4  # the PDFs' texts
    assert sum(name.endswith(".abstract.txt") for name in texts) == 7  # every abstract


def test_a_poison_pdf_is_named_and_skipped(cluster: str, papers: Path, tmp_path: Path) -> None:
    serial = add(papers, tmp_path / "serial")
    with faults(cluster, tmp_path / "faults") as folder:
        (folder / "paper2.pdf").touch()
        spread = add(papers, tmp_path / "spread", "--cluster", cluster)
    assert serial.code == 0 and spread.code == 1
    poisoned = str(papers / "paper2.pdf")
    assert f"{poisoned}: reader-failed: every cluster worker that ran it died" in spread.err
    skipped = [item for item in items(tmp_path / "spread") if item["outcome"] == "failed"]
    assert [item["path"] for item in skipped] == [poisoned]
    others = [item for item in items(tmp_path / "serial") if item["path"] != poisoned]
    assert [item for item in items(tmp_path / "spread") if item["path"] != poisoned] == others
    assert not (tmp_path / "spread/sources/paper2.txt").exists()


def test_a_killed_client_leaves_whole_files_and_the_rerun_reads_only_the_rest(
    cluster: str, papers: Path, tmp_path: Path
) -> None:
    add(papers, tmp_path / "serial")
    serial = tree(tmp_path / "serial/sources")
    good = (papers / "paper3.pdf").read_bytes()
    # Minutes of parsing for pypdf: the import waits on it, in order, after three PDFs.
    (papers / "paper3.pdf").write_bytes(shared_stream_pdf_bytes(3000, stream_bytes=30_000))
    workspace = tmp_path / "spread"
    workspace.mkdir()
    sources = workspace / "sources"
    argv = ("sources", "add", papers, "--workspace", workspace, "--cluster", cluster)
    client = start(*argv, "--time-limit", "4")
    try:
        wait_for(lambda: len(list(sources.glob("*.pdf.json"))) >= 3, "three PDFs written")
    finally:
        client.proc.send_signal(signal.SIGKILL)
        client.proc.wait(TIMEOUT)
    written = tree(sources)
    assert written and all(serial[name] == data for name, data in written.items())
    (papers / "paper3.pdf").write_bytes(good)
    again = add(papers, workspace, "--cluster", cluster)
    assert again.code == 0, again.err
    done = sum(name.endswith(".pdf.json") for name in written)  # one sidecar a paper read
    counts = {"added": 6 - done, "failed": 0, "unchanged": done, "updated": 0}
    assert json.loads(again.out)["counts"] == counts
    assert tree(sources) == serial

"""Every PDF has a time, memory and size budget; a bad file or name never stops the folder."""

import hashlib
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from engine.importers.pdf_worker import PdfWorker
from engine.importers.sources import AddOptions, SourceAdder, add_pdfs, pdf_origin
from engine.workspace.import_writer import Checked, ImportWriter
from tests.builders.pdfgen import pdf_bytes, shared_stream_pdf_bytes, write_pdf
from tests.cli import ROOT, invoke
from tests.workspaces import make_workspace, user_bytes

PAGES = [["Patients given the drug had fewer relapses than those given placebo."]]
LATER = [["A later version: the effect did not hold in children under twelve."]]


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return make_workspace(tmp_path, "empty", name="ws")


def _folder(tmp_path: Path, first_name: str, first: bytes) -> Path:
    folder = tmp_path / "papers"
    folder.mkdir()
    (folder / first_name).write_bytes(first)
    for name in ("b-good.pdf", "c-good.pdf"):
        write_pdf(folder / name, PAGES)
    return folder


def test_a_pdf_bomb_is_refused_and_the_rest_of_the_folder_imports(
    tmp_path: Path, workspace: Path
) -> None:
    # 4,999 pages drawing one 1 MB stream: under 1 MB on disk, 5 GB of operators to parse.
    bomb = shared_stream_pdf_bytes(4999, stream_bytes=1_000_000)
    assert len(bomb) < 1_000_000
    folder = _folder(tmp_path, "a-bomb.pdf", bomb)
    code, out, err = invoke("sources", "add", folder, "--workspace", workspace)
    assert code == 1, err
    assert "a-bomb.pdf: too-large:" in err and "drawn by 4,999 pages" in err
    assert json.loads(out)["counts"] == {"added": 2, "updated": 0, "unchanged": 0, "failed": 1}
    # Each paper read is kept beside its text (the Library opens it); the bomb is not.
    assert sorted(p.name for p in (workspace / "sources").iterdir()) == [
        "b-good.pdf",
        "b-good.pdf.json",
        "b-good.txt",
        "c-good.pdf",
        "c-good.pdf.json",
        "c-good.txt",
    ]


def test_the_time_budget_kills_a_slow_pdf_and_the_next_one_is_read(
    tmp_path: Path, workspace: Path
) -> None:
    # Under the content cap (3,000 pages × 30 KB), but minutes of parsing for pypdf.
    slow = shared_stream_pdf_bytes(3000, stream_bytes=30_000)
    folder = _folder(tmp_path, "a-slow.pdf", slow)
    code, out, err = invoke("sources", "add", folder, "--workspace", workspace, "--time-limit", "1")
    assert code == 1
    assert "a-slow.pdf: too-slow: took longer than 1 s to read" in err
    assert json.loads(out)["counts"]["added"] == 2


def test_the_memory_bound_stops_one_pdf_not_the_run(tmp_path: Path, workspace: Path) -> None:
    heavy = shared_stream_pdf_bytes(1, stream_bytes=4_000_000)
    folder = _folder(tmp_path, "a-heavy.pdf", heavy)
    pdfs = sorted(folder.iterdir())
    report = add_pdfs(workspace, pdfs, AddOptions(memory_bytes=80 * 1024**2))
    kinds = [(item.citekey, item.kind) for item in report.items]
    assert kinds == [("a-heavy", "too-large"), ("b-good", ""), ("c-good", "")]
    assert "needs more than 80 MB of memory" in report.items[0].problem


def test_a_240_character_name_is_filed_under_a_shorter_key(tmp_path: Path, workspace: Path) -> None:
    long_name = "A" * 120 + " study of " + "b" * 106 + ".pdf"
    assert len(long_name) == 240
    folder = _folder(tmp_path, long_name, pdf_bytes(PAGES))
    code, out, err = invoke("sources", "add", folder, "--workspace", workspace)
    assert code == 0, err
    assert json.loads(out)["counts"]["added"] == 3
    texts = sorted(p.name for p in (workspace / "sources").glob("*.txt"))
    assert len(texts) == 3 and all(len(name.encode()) < 120 for name in texts)


def test_a_name_the_file_system_cannot_hold_is_reported_not_fatal(
    tmp_path: Path, workspace: Path
) -> None:
    folder = _folder(tmp_path, "a.pdf", pdf_bytes(PAGES))
    report = add_pdfs(workspace, sorted(folder.iterdir()), AddOptions())
    gone = folder / ("x" * 300 + ".pdf")  # longer than a file name may be: cannot even exist
    again = add_pdfs(workspace, [gone, *sorted(folder.iterdir())], AddOptions())
    assert report.failures == ()
    assert again.items[0].kind == "unreadable" and len(again.items) == 4


def killed_import(root: str, pdf: str, after: str) -> None:
    """Add `pdf` as source `p`, and kill -9 this process right after writing `after`."""

    class KilledAfter(ImportWriter):
        def write(
            self, relative: str, data: bytes | str, origin: str, *, optional: bool = False
        ) -> Checked:
            checked = super().write(relative, data, origin, optional=optional)
            if relative.endswith(after):
                os.kill(os.getpid(), signal.SIGKILL)
            return checked

    path = Path(pdf)
    with KilledAfter(root, "sources add") as writer, PdfWorker() as worker:
        SourceAdder(writer, worker, AddOptions()).add(path, "p", pdf_origin(path))


@pytest.mark.parametrize("earlier", [False, True], ids=["first-add", "update"])
@pytest.mark.parametrize("after", [".txt", ".pdf.json"], ids=["after-text", "after-sidecar"])
def test_a_run_killed_mid_write_is_finished_by_the_next_without_replace(
    tmp_path: Path, workspace: Path, earlier: bool, after: str
) -> None:
    pdf = tmp_path / "p.pdf"
    if earlier:
        write_pdf(pdf, PAGES)
        assert invoke("sources", "add", pdf, "--workspace", workspace).code == 0
    write_pdf(pdf, LATER)
    script = f"from tests.test_pdf_budget import killed_import; killed_import({str(workspace)!r}, "
    script += f"{str(pdf)!r}, {after!r})"
    killed = subprocess.run([sys.executable, "-c", script], cwd=ROOT, timeout=120, check=False)
    assert killed.returncode == -signal.SIGKILL
    code, out, err = invoke("sources", "add", pdf, "--workspace", workspace)
    assert code == 0, err
    assert "children under twelve" in (workspace / "sources/p.txt").read_text()
    sidecar = json.loads((workspace / "sources/p.pdf.json").read_text())
    assert sidecar["sha256"] == hashlib.sha256(pdf.read_bytes()).hexdigest()
    before = user_bytes(workspace)
    code, out, _ = invoke("sources", "add", pdf, "--workspace", workspace)
    assert code == 0 and json.loads(out)["counts"]["unchanged"] == 1
    assert user_bytes(workspace) == before

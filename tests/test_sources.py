import json
from pathlib import Path

import pytest

from engine.core.quote import verify_quote
from engine.core.verifiers import verify
from engine.importers.citekeys import citekey_from_name
from engine.importers.pdf_worker import PdfWorker
from engine.importers.sources import AddOptions, Outcome, SourceAdder, add_pdfs, pdf_origin
from engine.workspace.import_writer import Checked, ImportWriter
from tests.builders.pdfgen import pdf_bytes, write_pdf
from tests.cli import invoke
from tests.workspaces import make_workspace

PAGES = [
    ["A first page about methods and the design of the study."],
    ["Patients given the drug had fewer relapses than those given placebo."],
    ["The effect did not hold in children under twelve."],
]


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return make_workspace(tmp_path, "empty", name="ws")


def test_sources_add_writes_pages_and_the_quote_finds_its_page(
    tmp_path: Path, workspace: Path
) -> None:
    pdf = write_pdf(tmp_path / "Smith 2020 (trial).pdf", PAGES)
    code, out, _ = invoke("sources", "add", str(pdf), "--workspace", str(workspace))
    assert code == 0 and json.loads(out)["counts"]["added"] == 1
    text = (workspace / "sources/Smith-2020-trial.txt").read_text()
    assert text.count("\f") == 2
    match = verify_quote("patients given the drug had fewer relapses", text)
    assert match.verified and match.page == 2
    result = verify(
        "quote",
        {"body": "The effect did not hold in children under twelve.", "source": "Smith-2020-trial"},
        workspace=workspace,
    )
    assert result.ok and result.page == 3
    assert not verify_quote("The effect held in children under twelve.", text).verified


def test_a_folder_adds_every_pdf_and_a_rerun_changes_nothing(
    tmp_path: Path, workspace: Path
) -> None:
    for name in ("a.pdf", "sub/b.PDF"):
        write_pdf(tmp_path / "papers" / name, PAGES)
    (tmp_path / "papers" / "notes.txt").write_text("not a pdf")
    assert invoke("sources", "add", tmp_path / "papers", "--workspace", workspace).code == 0
    stamp = (workspace / "sources/a.txt").stat().st_mtime_ns
    code, out, _ = invoke("sources", "add", str(tmp_path / "papers"), "--workspace", str(workspace))
    assert code == 0 and json.loads(out)["counts"] == {
        "added": 0,
        "updated": 0,
        "unchanged": 2,
        "failed": 0,
    }
    assert (workspace / "sources/a.txt").stat().st_mtime_ns == stamp


def test_a_changed_pdf_is_updated(tmp_path: Path, workspace: Path) -> None:
    pdf = write_pdf(tmp_path / "p.pdf", PAGES)
    add_pdfs(workspace, [pdf])
    write_pdf(pdf, PAGES[:1])
    report = add_pdfs(workspace, [pdf])
    assert report.items[0].outcome is Outcome.UPDATED
    assert (workspace / "sources/p.txt").read_text().count("\f") == 0


def test_failures_are_reported_and_write_nothing(tmp_path: Path, workspace: Path) -> None:
    scan = write_pdf(tmp_path / "scan.pdf", [None])
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(pdf_bytes(PAGES)[:300])
    good = write_pdf(tmp_path / "good.pdf", PAGES)
    code, _, err = invoke(
        "sources", "add", str(scan), str(broken), str(good), "--workspace", str(workspace)
    )
    assert code == 1
    assert "scan.pdf: no-text-layer:" in err and "broken.pdf: malformed:" in err
    # The paper read is kept beside its text (the Library opens it); the failures leave nothing.
    assert sorted(p.name for p in (workspace / "sources").iterdir()) == [
        "good.pdf",
        "good.pdf.json",
        "good.txt",
    ]
    report = json.loads((workspace / ".synapse/reports/sources-add.json").read_text())
    kinds = {item["citekey"]: item.get("kind") for item in report["items"]}
    assert kinds == {"scan": "no-text-layer", "broken": "malformed", "good": None}


def test_a_hand_made_source_is_kept_unless_replaced(tmp_path: Path, workspace: Path) -> None:
    (workspace / "sources").mkdir()
    (workspace / "sources/p.txt").write_text("typed by hand")
    pdf = write_pdf(tmp_path / "p.pdf", PAGES)
    assert add_pdfs(workspace, [pdf]).items[0].kind == "not-imported"
    assert (workspace / "sources/p.txt").read_text() == "typed by hand"
    assert add_pdfs(workspace, [pdf], AddOptions(replace=True)).items[0].outcome is Outcome.UPDATED


class _FullDiskForSidecars(ImportWriter):
    """An import writer whose disk fills up when a sidecar is written."""

    def write(
        self, relative: str, data: bytes | str, origin: str, *, optional: bool = False
    ) -> Checked:
        if relative.endswith(".pdf.json"):
            raise OSError(28, "No space left on device")
        return super().write(relative, data, origin, optional=optional)


def test_a_failed_second_write_restores_the_first(tmp_path: Path, workspace: Path) -> None:
    pdf = write_pdf(tmp_path / "p.pdf", PAGES)
    with _FullDiskForSidecars(workspace, "test") as writer, PdfWorker() as worker:
        added = SourceAdder(writer, worker, AddOptions()).add(pdf, "p", pdf_origin(pdf))
    assert added.kind == "cannot-write" and "No space left" in added.problem
    assert list((workspace / "sources").iterdir()) == []


def test_a_symlinked_sources_folder_leading_out_is_refused(tmp_path: Path, workspace: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (workspace / "sources").symlink_to(outside)
    report = add_pdfs(workspace, [write_pdf(tmp_path / "p.pdf", PAGES)])
    assert report.items[0].kind == "link-on-the-way" and list(outside.iterdir()) == []


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["missing.pdf"], "no such file or folder"),
        (["a.pdf", "b.pdf", "--citekey", "k"], "exactly one PDF"),
        (["a.pdf", "--citekey", "bad/key"], "contains '/'"),
        (["a.pdf", "--citekey", ".hidden"], "starts with '.'"),
        (["a.pdf", "--citekey", "k" * 300], "over the 200-byte limit"),
    ],
    ids=["missing", "citekey-many", "citekey-unsafe", "citekey-hidden", "citekey-long"],
)
def test_usage_errors_are_one_line(
    tmp_path: Path, workspace: Path, argv: list[str], message: str
) -> None:
    write_pdf(tmp_path / "a.pdf", PAGES)
    write_pdf(tmp_path / "b.pdf", PAGES)
    code, _, err = invoke("sources", "add", *argv, "--workspace", workspace, cwd=tmp_path)
    assert code == 2 and err.startswith("error:") and message in err and err.count("\n") == 1


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("Smith 2020.pdf", "Smith-2020"),
        ("é..x.pdf", "e.x"),
        ("..pdf", "source"),
        ("Fekom et al. - 2020 - Optimal control of tumour growth.pdf", "fekom2020optimal"),
        ("De Bock and Smith - 2019 - The effect of momentum.pdf", "debock2019effect"),
    ],
    ids=["spaces", "accents-dots", "empty", "zotero-named-et-al", "zotero-named-particle"],
)
def test_citekeys_from_file_names_are_address_safe(name: str, key: str) -> None:
    assert citekey_from_name(name) == key


def test_a_pdf_over_the_size_limit_is_refused_before_reading(
    tmp_path: Path, workspace: Path
) -> None:
    pdf = write_pdf(tmp_path / "big.pdf", PAGES)
    report = add_pdfs(workspace, [pdf], AddOptions(max_bytes=100))
    assert report.items[0].kind == "too-large" and "100-byte limit" in report.items[0].problem
    assert not (workspace / "sources").exists()


def test_a_copy_gone_since_the_last_run_is_made_again(tmp_path: Path, workspace: Path) -> None:
    # The sidecar records the copy; a run stopped before the copy was made, or a copy since
    # removed, is no reason to call the paper unchanged.
    pdf = write_pdf(tmp_path / "p.pdf", PAGES)
    assert add_pdfs(workspace, [pdf]).items[0].outcome is Outcome.ADDED
    copy = workspace / "sources/p.pdf"
    data = copy.read_bytes()
    copy.unlink()
    assert add_pdfs(workspace, [pdf]).items[0].outcome is Outcome.UPDATED
    assert copy.read_bytes() == data
    assert add_pdfs(workspace, [pdf]).items[0].outcome is Outcome.UNCHANGED

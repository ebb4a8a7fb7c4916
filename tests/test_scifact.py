import gzip
import json
import re
from pathlib import Path
from typing import Any

import pytest

from engine.core.errors import EngineError
from engine.datasets.scifact import ImportSummary, import_scifact, labels_path
from engine.datasets.sections import split_heading
from engine.workspace.notes import NoteKind, Store
from engine.workspace.stores import load_workspace
from tests.cli import invoke

DATA = Path(__file__).resolve().parent.parent / "data" / "scifact"
CORPUS = DATA / "corpus.jsonl.gz"
CLAIMS = DATA / "claims_train.jsonl"
LIMIT = 50
LABEL_FIELD = re.compile(r"^\s*-?\s*(evidence|cited_doc_ids|label|sentences)\s*:", re.M)


def first_abstracts(n: int) -> list[dict[str, Any]]:
    with gzip.open(CORPUS, "rt", encoding="utf-8") as stream:
        return [json.loads(line) for line, _ in zip(stream, range(n), strict=False)]


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, ImportSummary]:
    out = tmp_path_factory.mktemp("import") / "ws"
    summary = import_scifact(CORPUS, CLAIMS, out, limit=LIMIT)
    return out, summary


def test_abstracts_become_findings_with_verbatim_quotes(
    imported: tuple[Path, ImportSummary],
) -> None:
    out, summary = imported
    ws = load_workspace(out)
    assert ws.report == ()
    findings = [note for note in ws.notes.values() if note.store is Store.CANON]
    assert len(findings) == summary.abstracts == LIMIT
    for doc in first_abstracts(LIMIT):
        note = ws.note(f"zk:scifact:{doc['doc_id']}")
        assert note is not None
        assert (note.type, note.title, note.citekey) == (NoteKind.FINDING, doc["title"], note.id)
        parts = [split_heading(s) for s in doc["sentences"]]
        assert [quote.body for quote in note.quotes] == [p.text for p in parts]
        assert [quote.id for quote in note.quotes] == [
            f"s{i}" for i in range(len(doc["sentences"]))
        ]
        assert all(q.body in note.body for q in note.quotes)
        assert note.citekey is not None
        assert ws.source_text(note.citekey) == f"{doc['title']}\n\n{note.body}"


def test_structured_abstract_headings_become_sections(imported: tuple[Path, ImportSummary]) -> None:
    out, _ = imported
    ws = load_workspace(out)
    quotes = [q for n in ws.notes.values() if n.store is Store.CANON for q in n.quotes]
    sectioned = [q for q in quotes if q.section]
    assert sectioned, "the slice has structured abstracts"
    heads = ("BACKGROUND", "METHODS", "RESULTS", "CONCLUSION", "OBJECTIVE", "IMPORTANCE")
    assert not [q.body for q in quotes if q.body.startswith(heads)]
    assert {"Background", "Methods", "Results"} & {q.section for q in sectioned}


def test_claims_citing_the_slice_become_hypotheses(imported: tuple[Path, ImportSummary]) -> None:
    out, summary = imported
    ids = {str(doc["doc_id"]) for doc in first_abstracts(LIMIT)}
    claims = [json.loads(line) for line in CLAIMS.read_text("utf-8").splitlines()]
    citing = [c for c in claims if ids & {str(d) for d in c["cited_doc_ids"]}]
    ws = load_workspace(out)
    practice = [note for note in ws.notes.values() if note.store is Store.PRACTICE]
    assert len(practice) == summary.claims == len(citing) > 0
    note = ws.note(f"mem:_memory:claim-{citing[0]['id']}")
    text = citing[0]["claim"]
    assert note is not None
    assert (note.type, note.title, note.body) == (NoteKind.EXPERIMENT, text, text)


def test_labels_stay_beside_the_workspace(imported: tuple[Path, ImportSummary]) -> None:
    out, summary = imported
    gold = labels_path(out)
    assert gold.parent == out.parent / "ws.labels"
    lines = [json.loads(line) for line in gold.read_text("utf-8").splitlines()]
    assert len(lines) == summary.claims
    assert set(lines[0]) == {"id", "claim", "cited_doc_ids", "evidence"}
    assert any(line["evidence"] for line in lines)
    for path in out.rglob("*"):
        if path.is_file():
            text = path.read_text("utf-8")
            assert "SUPPORT" not in text and "CONTRADICT" not in text, path
            if path.suffix == ".md" and path.name not in {"README.md", "LICENSE.md"}:
                assert not LABEL_FIELD.search(text), path
    assert (out / "LICENSE.md").read_text("utf-8") == (DATA / "LICENSE.md").read_text("utf-8")
    assert (out / "README.md").is_file()


def test_a_second_import_changes_nothing(imported: tuple[Path, ImportSummary]) -> None:
    out, _ = imported
    before = {path: path.stat().st_mtime_ns for path in out.rglob("*") if path.is_file()}
    again = import_scifact(CORPUS, CLAIMS, out, limit=LIMIT)
    workspace_files = [path for path in before if ".synapse" not in path.parts]
    assert (again.written, again.unchanged) == (0, len(workspace_files))
    assert {path: path.stat().st_mtime_ns for path in before} == before
    assert not list(out.rglob("*.tmp"))


def test_malformed_input_is_an_engine_error(tmp_path: Path) -> None:
    bad = tmp_path / "corpus.jsonl"
    bad.write_text('{"doc_id": "1", "title": "T", "sentences": ["a"]}\nnot json\n', "utf-8")
    with pytest.raises(EngineError, match=r"corpus\.jsonl:2"):
        import_scifact(bad, CLAIMS, tmp_path / "ws")
    with pytest.raises(EngineError, match="cannot read"):
        import_scifact(tmp_path / "missing.jsonl", CLAIMS, tmp_path / "ws")


def test_cli_imports_then_indexes(tmp_path: Path) -> None:
    out = tmp_path / "demo"
    args = ["--corpus", str(CORPUS), "--claims", str(CLAIMS), "--out", str(out)]
    imported = invoke("import", "scifact", *args, "--limit", "10")
    assert imported.code == 0 and imported.out.startswith("imported 10 abstracts")
    indexed = invoke("index", "--workspace", out)
    assert indexed.code == 0
    summary = indexed.json()
    assert summary["indexed"] == summary["added"] == summary["notes"] > 10
    assert summary["problems"] == 0

"""The app's own state under attack: links, FIFOs, nesting, read-only and full disks, bad batches.

Every case runs the real CLI in a subprocess on a copy of momentum-lab and then checks that
no byte outside `.synapse/` changed. A hang shows up as the subprocess timeout.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engine.review.overlay import read_overlay
from engine.review.triage import read_log
from tests.cli import Result, invoke, run
from tests.conftest import ROOT

QUESTION = (
    "Does buying past winners and selling past losers generate abnormal returns over 3 to 12 "
    "month holding periods?"
)
TRIAGE_SET = [
    "triage",
    "set",
    "--memory-id",
    "deci-a7688a22",
    "--zk-source",
    "finance",
    "--zk-id",
    "z-mom-01",
    "--decision",
    "confirmed",
]
NESTED = "[" * 100_000 + "]" * 100_000
# A generous bound for a call that must not block: a hang fails here instead of forever.
HARNESS_S = 30


def one_line_error(proc: Result) -> str:
    assert proc.code == 2, (proc.code, proc.err)
    assert "Traceback" not in proc.err
    errors = [line for line in proc.err.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, proc.err
    return errors[0]


def snapshot(root: Path) -> dict[str, bytes]:
    """The bytes of every regular file outside `.synapse/`, links not followed."""
    out: dict[str, Any] = {}
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if not (Path(folder) == root and d == ".synapse")]
        for name in files:
            path = Path(folder) / name
            if path.is_file() and not path.is_symlink():
                out[str(path.relative_to(root))] = path.read_bytes()
    return out


# --- links -----------------------------------------------------------------------------


def _plant_symlink(root: Path, link: str, target: str) -> None:
    path = root / link
    path.parent.mkdir(parents=True, exist_ok=True)
    path.symlink_to(target)


def _plant_hard_link(root: Path, link: str, target: str) -> None:
    (root / ".synapse").mkdir()
    os.link(root / target, root / link)


PLANTS = {
    "index-to-canon-note": lambda r: _plant_symlink(
        r, ".synapse/index.sqlite", "../.zettelkasten/finance/z-mom-01.md"
    ),
    "overlay-to-practice-entry": lambda r: _plant_symlink(
        r, ".synapse/links/claim_links.json", "../../.memory/deci-a7688a22.md"
    ),
    "triage-to-canon-note": lambda r: _plant_symlink(
        r, ".synapse/triage.jsonl", "../.zettelkasten/finance/z-crash-05.md"
    ),
    "wal-to-canon-note": lambda r: _plant_symlink(
        r, ".synapse/index.sqlite-wal", "../.zettelkasten/finance/z-ret-02.md"
    ),
    "synapse-dir-to-memory": lambda r: _plant_symlink(r, ".synapse", ".memory"),
    "links-dir-to-memory": lambda r: _plant_symlink(r, ".synapse/links", "../.memory"),
    "lock-to-canon-note": lambda r: _plant_symlink(
        r, ".synapse/triage.lock", "../.zettelkasten/finance/z-sig-03.md"
    ),
    "triage-hard-link": lambda r: _plant_hard_link(
        r, ".synapse/triage.jsonl", ".zettelkasten/finance/z-crash-05.md"
    ),
    "index-hard-link": lambda r: _plant_hard_link(
        r, ".synapse/index.sqlite", ".zettelkasten/finance/z-mom-01.md"
    ),
}


@pytest.mark.parametrize("plant", PLANTS.values(), ids=PLANTS.keys())
def test_no_command_writes_through_a_planted_link(
    lab_path: Path, plant: Callable[[Path], object]
) -> None:
    plant(lab_path)
    before = snapshot(lab_path)
    ws = ["--workspace", str(lab_path)]
    index = invoke("index", *ws)
    overlay = invoke("overlay", "build", *ws, "--quiet")
    triage = invoke(*TRIAGE_SET, *ws)
    asked = invoke("ask", QUESTION, *ws)
    assert snapshot(lab_path) == before
    for proc in (index, overlay, triage, asked):
        assert "Traceback" not in proc.err, proc.err
    # Reading and answering still work; writing is refused with the link named.
    assert asked.code == 0, asked.err
    assert json.loads(asked.out)["decision"]["label"]
    # The index lives in the user's cache folder, out of reach of anything planted here.
    assert index.code == 0 and "notice: index kept in memory" not in index.err
    refused = [p for p in (overlay, triage) if p.code == 2]
    assert refused, "at least the write the link targets is refused"
    for proc in refused:
        assert "link" in one_line_error(proc)


def test_a_clean_workspace_still_writes_everything(lab_path: Path) -> None:
    ws = ["--workspace", str(lab_path)]
    before = snapshot(lab_path)
    for args in (["index", *ws], ["overlay", "build", *ws, "--quiet"], [*TRIAGE_SET, *ws]):
        proc = invoke(*args)
        assert proc.code == 0, proc.err
        assert "notice:" not in proc.err
    assert snapshot(lab_path) == before
    assert read_log(lab_path).entries and read_overlay(lab_path).overlay is not None


# --- FIFOs and nesting in the app's own files ------------------------------------------


@pytest.mark.parametrize(
    "relative", [".synapse/triage.jsonl", ".synapse/links/claim_links.json"], ids=str
)
def test_a_fifo_in_place_of_an_app_file_does_not_block_ask(lab_path: Path, relative: str) -> None:
    fifo = lab_path / relative
    fifo.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(fifo)
    proc = invoke("ask", QUESTION, "--workspace", str(lab_path), timeout=60)
    assert proc.code == 0, proc.err
    assert json.loads(proc.out)["decision"]["label"] == "ANSWER"


def test_readers_of_app_files_refuse_a_fifo_with_the_reason(lab_path: Path) -> None:
    (lab_path / ".synapse/links").mkdir(parents=True)
    os.mkfifo(lab_path / ".synapse/triage.jsonl")
    os.mkfifo(lab_path / ".synapse/links/claim_links.json")
    out: dict[str, Any] = {}
    reading = threading.Thread(
        target=lambda: out.update(log=read_log(lab_path), overlay=read_overlay(lab_path)),
        daemon=True,
    )
    reading.start()
    reading.join(HARNESS_S)
    assert not reading.is_alive(), "a reader blocked on the FIFO"
    assert "not a regular file" in out["log"].problems[0]
    assert "not a regular file" in out["overlay"].reason


def test_deeply_nested_app_files_are_reported_not_raised(lab_path: Path) -> None:
    (lab_path / ".synapse/links").mkdir(parents=True)
    (lab_path / ".synapse/triage.jsonl").write_text(NESTED + "\n")
    (lab_path / ".synapse/links/claim_links.json").write_text(NESTED)
    assert "nested deeper" in read_log(lab_path).problems[0]
    assert "nested deeper" in read_overlay(lab_path).reason
    proc = invoke("ask", QUESTION, "--workspace", str(lab_path))
    assert proc.code == 0, proc.err


def test_a_deeply_nested_annotations_file_is_treated_as_absent(lab_path: Path) -> None:
    sources = lab_path / "sources"
    for path in sources.glob("*.txt"):
        (sources / f"{path.stem}.annotations.json").write_text(NESTED)
    proc = invoke("ask", QUESTION, "--workspace", str(lab_path))
    assert proc.code == 0, proc.err
    assert json.loads(proc.out)["decision"]["label"] == "ANSWER"


@pytest.mark.parametrize(
    "counts",
    [{"kept": "many"}, {"by_relation": {"contradicts": [1]}}, "12", {"kept": True}],
    ids=["text", "list-in-relation", "not-an-object", "boolean"],
)
def test_overlay_fields_of_the_wrong_type_make_it_unreadable(
    lab_path: Path, counts: dict[str, Any] | str
) -> None:
    folder = lab_path / ".synapse/links"
    folder.mkdir(parents=True)
    data: dict[str, Any] = {"kind": "claim", "counts": counts, "edges": []}
    (folder / "claim_links.json").write_text(json.dumps(data))
    read = read_overlay(lab_path)
    assert read.overlay is None and "counts" in read.reason


# --- malformed CLI input ----------------------------------------------------------------

BAD_LINES = {
    "bad-utf8": b'{"id": "a", "question": "caf\xe9"}\n',
    "deep-nesting": NESTED.encode() + b"\n",
    "wrong-shape": b'{"id": {"x": 1}, "question": ["not", "text"]}\n',
}


@pytest.mark.parametrize("line", BAD_LINES.values(), ids=BAD_LINES.keys())
def test_ask_batch_reports_a_malformed_line_and_exits_2(
    lab_path: Path, tmp_path: Path, line: bytes
) -> None:
    batch = tmp_path / "q.jsonl"
    batch.write_bytes(b'{"id": "ok", "question": "Which sample did we use?"}\n' + line)
    proc = invoke("ask", "--batch", str(batch), "--workspace", str(lab_path))
    assert "line 2" in one_line_error(proc)
    rows = [json.loads(row) for row in proc.out.splitlines()]
    assert rows[0]["id"] == "ok" and "error" in rows[1]


@pytest.mark.parametrize("line", BAD_LINES.values(), ids=BAD_LINES.keys())
def test_verify_quote_batch_reports_a_malformed_line_and_exits_2(
    tmp_path: Path, line: bytes
) -> None:
    batch = tmp_path / "q.jsonl"
    batch.write_bytes(line)
    proc = invoke("verify-quote", "--batch", str(batch))
    assert "line 1" in one_line_error(proc)


@pytest.mark.parametrize("line", BAD_LINES.values(), ids=BAD_LINES.keys())
def test_import_scifact_refuses_a_malformed_line(tmp_path: Path, line: bytes) -> None:
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_bytes(line)
    claims = tmp_path / "claims.jsonl"
    claims.write_bytes(b"")
    proc = invoke(
        "import", "scifact", "--corpus", str(corpus), "--claims", str(claims),
        "--out", str(tmp_path / "ws"),
    )  # fmt: skip
    one_line_error(proc)


@pytest.mark.parametrize("line", BAD_LINES.values(), ids=BAD_LINES.keys())
def test_eval_scifact_refuses_a_malformed_claims_line(
    lab_path: Path, tmp_path: Path, line: bytes
) -> None:
    claims = tmp_path / "claims.jsonl"
    claims.write_bytes(line)
    proc = invoke("eval", "scifact", "--workspace", str(lab_path), "--claims", str(claims))
    one_line_error(proc)


@pytest.mark.parametrize(
    "line",
    [*BAD_LINES.values(), b'{"id": 1, "evidence": [1, 2]}\n', b'{"id": 1, "cited_doc_ids": 5}\n'],
    ids=[*BAD_LINES.keys(), "evidence-list", "cited-not-list"],
)
def test_eval_overlay_refuses_a_malformed_gold_line(
    lab_path: Path, tmp_path: Path, line: bytes
) -> None:
    assert invoke("overlay", "build", "--workspace", str(lab_path), "--quiet").code == 0
    gold = tmp_path / "gold.jsonl"
    gold.write_bytes(line)
    proc = invoke("eval", "overlay", "--workspace", str(lab_path), "--gold", str(gold))
    one_line_error(proc)


@pytest.mark.parametrize(
    "field", ["--memory-id", "--zk-source", "--zk-id"], ids=lambda f: f.strip("-")
)
def test_triage_set_refuses_an_empty_field(lab_path: Path, field: str) -> None:
    args = list(TRIAGE_SET)
    args[args.index(field) + 1] = ""
    proc = invoke(*args, "--workspace", str(lab_path))
    assert "empty" in one_line_error(proc)
    assert not (lab_path / ".synapse/triage.jsonl").exists()


def test_batch_sources_stay_inside_the_batch_folder(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("the root password is hunter2 and nobody knows it")
    folder = tmp_path / "batch"
    folder.mkdir()
    (folder / "paper.txt").write_text("Drug X lowered mortality by 12%.")
    lines = [
        {"id": "up", "quote": "the root password is hunter3", "source": "../secret.txt"},
        {"id": "abs", "quote": "the root password is hunter3", "source": str(secret)},
        {"id": "in", "quote": "Drug X lowered mortality by 12%.", "source": "paper.txt"},
    ]
    batch = folder / "quotes.jsonl"
    batch.write_text("\n".join(json.dumps(x) for x in lines))
    proc = invoke("verify-quote", "--batch", str(batch))
    assert "hunter2" not in proc.out + proc.err
    rows = [json.loads(row) for row in proc.out.splitlines()]
    assert [("error" in row) for row in rows] == [True, True, False]
    assert rows[2]["verified"] is True
    one_line_error(proc)
    allowed = invoke("verify-quote", "--batch", str(batch), "--allow-outside-sources")
    assert "hunter2" in allowed.out  # the user opted in: the near miss is shown


# --- read-only and full disks ------------------------------------------------------------


def read_only_command(root: Path, *args: str) -> list[str]:
    """The command line that runs the CLI with `root` read-only.

    As an ordinary user, permissions do it; root ignores them, so the run happens in a
    private mount namespace where `root` is bind-mounted read-only.
    """
    command = [sys.executable, "-m", "engine", *args]
    if os.geteuid() != 0:
        for folder, dirs, files in os.walk(root):
            for name in dirs + files:
                os.chmod(Path(folder) / name, 0o555 if name in dirs else 0o444)
        os.chmod(root, 0o555)
        return command
    if shutil.which("unshare") is None:
        pytest.skip("no unshare to make a read-only mount as root")
    script = 'mount --bind "$0" "$0" && mount -o remount,ro,bind "$0" && exec "$@"'
    return ["unshare", "-m", "sh", "-c", script, str(root), *command]


def test_a_read_only_workspace_can_be_asked(lab_path: Path) -> None:
    before = snapshot(lab_path)
    command = read_only_command(lab_path, "ask", QUESTION, "--workspace", str(lab_path))
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    proc = Result(done.returncode, done.stdout, done.stderr)
    if proc.code != 0 and "mount" in proc.err and "Traceback" not in proc.err:
        pytest.skip(f"cannot make a read-only mount here: {proc.err.strip()}")
    assert proc.code == 0, proc.err
    assert json.loads(proc.out)["decision"]["label"] == "ANSWER"
    # The index is kept in the user's cache folder, which a read-only workspace leaves writable.
    assert "notice: index kept in memory" not in proc.err
    os.chmod(lab_path, 0o755)
    assert snapshot(lab_path) == before


def _file_size_limit(limit: int) -> Callable[[], None]:
    def apply() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return apply


def test_a_full_disk_keeps_the_previous_overlay(lab_path: Path) -> None:
    ws = ["--workspace", str(lab_path)]
    assert invoke("overlay", "build", *ws, "--quiet").code == 0
    overlay = lab_path / ".synapse/links/claim_links.json"
    before = overlay.read_bytes()
    # Files may not grow past 1 KB: the index is built, the new overlay cannot be written.
    proc = run("overlay", "build", *ws, "--quiet", "--k", "4", preexec=_file_size_limit(1024))
    assert "previous overlay is unchanged" in one_line_error(proc)
    assert overlay.read_bytes() == before
    assert list(overlay.parent.glob(".*.tmp")) == []


def test_a_full_disk_leaves_no_torn_triage_line(lab_path: Path) -> None:
    ws = ["--workspace", str(lab_path)]
    log = lab_path / ".synapse/triage.jsonl"
    assert invoke(*TRIAGE_SET, *ws).code == 0
    before = log.read_bytes()
    long_note = ["--note", "x" * 4000]
    proc = run(*TRIAGE_SET, *ws, *long_note, preexec=_file_size_limit(len(before) + 100))
    assert "triage log is unchanged" in one_line_error(proc)
    assert log.read_bytes() == before
    assert read_log(lab_path).problems == ()

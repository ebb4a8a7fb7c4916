"""Build a workspace from the SciFact corpus and train claims.

Abstracts become canon findings with every sentence as a verbatim quote; claims become
practice entries (team hypotheses). The gold labels never enter the workspace: they are
written beside it, to `<out>.labels/gold.jsonl`, for evaluation only. Every file is written
through the import writer (atomically, never through a link, never over a file no import
wrote) and only when its content changes, so a re-import is a no-op. A folder that holds
files and is not a workspace is imported into only when `force` is given.
"""

from __future__ import annotations

import gzip
import json
import os
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.core import jsonsafe
from engine.core.errors import ConfigError, EngineError
from engine.datasets.sections import Sectioned, sectioned
from engine.workspace.atomic import write_atomic
from engine.workspace.examples import EXAMPLES_FILE
from engine.workspace.import_writer import ImportWriter
from engine.workspace.layout import CANON_DIR, CONFIG_FILE, PRACTICE_DIR
from engine.workspace.notes import is_address_safe

BOX = "scifact"
IMPORTER = "import scifact"
ORIGIN = "scifact"
# What makes a folder a workspace already, so importing into it needs no `force`.
_WORKSPACE_MARKS = (CANON_DIR, PRACTICE_DIR, CONFIG_FILE, ".synapse")

_FALLBACK_LICENSE = """# SciFact data

From the SciFact release (Wadden et al., "Fact or Fiction: Verifying Scientific Claims",
EMNLP 2020; allenai/scifact). Abstracts licensed ODC-By 1.0; claims licensed CC BY 4.0.
"""


@dataclass(frozen=True)
class ImportSummary:
    """What one import did."""

    workspace: Path
    labels: Path
    abstracts: int
    claims: int
    written: int
    unchanged: int
    kept: tuple[str, ...] = ()  # why each file that was not written was left alone

    def line(self) -> str:
        kept = f", {len(self.kept):,} kept as they were" if self.kept else ""
        return (
            f"imported {self.abstracts:,} abstracts and {self.claims:,} claims into "
            f"{self.workspace} ({self.written:,} files written, {self.unchanged:,} unchanged"
            f"{kept}); labels in {self.labels}"
        )


def labels_path(out: str | os.PathLike[str]) -> Path:
    """Where the gold labels of the workspace at `out` live: a sibling folder, never inside."""
    out = Path(out).absolute()
    return out.with_name(out.name + ".labels") / "gold.jsonl"


def import_scifact(
    corpus: str | os.PathLike[str],
    claims: str | os.PathLike[str],
    out: str | os.PathLike[str],
    *,
    limit: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    force: bool = False,
    replace: bool = False,
    exclude: Collection[str] = (),
) -> ImportSummary:
    """Import SciFact into the workspace folder `out` (created if needed).

    With `limit`, only the first `limit` abstracts and the claims citing any of them; the
    abstracts whose ids are in `exclude` are left out (an evaluation asks claims whose
    evidence is gone).
    `progress(done, total)` is called as abstracts and claims are written.
    Raises EngineError when an input file is missing or malformed, ConfigError when `out`
    holds files and is not a workspace (unless `force`). A file no import wrote is kept
    (and named in `kept`) unless `replace`.
    """
    documents = list(read_jsonl(Path(corpus)))
    if limit is not None:
        documents = documents[: max(0, limit)]
    if exclude:
        left_out = {str(d) for d in exclude}
        documents = [doc for doc in documents if str(doc.get("doc_id")) not in left_out]
    doc_ids = {_safe_id(doc.get("doc_id"), "doc_id") for doc in documents}
    selected = [
        claim
        for claim in read_jsonl(Path(claims))
        if limit is None or doc_ids & {str(d) for d in claim.get("cited_doc_ids", [])}
    ]
    root = Path(out)
    _refuse_foreign_folder(root, force=force)
    root.mkdir(parents=True, exist_ok=True)
    with ImportWriter(root, IMPORTER, replace=replace) as files:
        writer = _Writer(files)
        _write_all(writer, root, documents, selected, corpus=Path(corpus), progress=progress)
    gold = labels_path(root)
    labels = "".join(_label_line(claim) for claim in selected).encode("utf-8")
    try:
        same = gold.read_bytes() == labels
    except OSError:
        same = False
    if not same:
        write_atomic(gold, labels)
    return ImportSummary(
        workspace=root,
        labels=gold,
        abstracts=len(documents),
        claims=len(selected),
        written=writer.written,
        unchanged=writer.unchanged,
        kept=tuple(writer.kept),
    )


def _refuse_foreign_folder(root: Path, *, force: bool) -> None:
    """Refuse a folder that holds files and is not a workspace, unless `force`."""
    try:
        entries = {entry.name for entry in os.scandir(root)}
    except FileNotFoundError:
        return
    except NotADirectoryError:
        raise ConfigError(f"--out {root} is a file, not a folder") from None
    if entries and not (entries & set(_WORKSPACE_MARKS)) and not force:
        raise ConfigError(
            f"--out {root} holds files and is not a workspace; pass --force to import into it"
            " (files the import did not write are kept either way)"
        )


def _write_all(
    writer: _Writer,
    root: Path,
    documents: list[dict[str, Any]],
    selected: list[dict[str, Any]],
    *,
    corpus: Path,
    progress: Callable[[int, int], None] | None,
) -> None:
    """Every workspace file of the import: notes, source texts, examples, README, licence."""
    total = len(documents) + len(selected)
    for done, doc in enumerate(documents, start=1):
        doc_id = str(doc["doc_id"])
        title, sentences = _text(doc.get("title"), "title"), _sentences(doc)
        parts = sectioned(sentences)
        writer.write(f"{CANON_DIR}/{BOX}/{doc_id}.md", finding_note(doc_id, title, parts))
        writer.write(f"sources/{doc_id}.txt", f"{title}\n\n{abstract_text(parts)}")
        if progress is not None and (done % 100 == 0 or done == len(documents)):
            progress(done, total)
    for done, claim in enumerate(selected, start=len(documents) + 1):
        claim_id = _safe_id(claim.get("id"), "claim id")
        text = _text(claim.get("claim"), "claim")
        writer.write(f"{PRACTICE_DIR}/claim-{claim_id}.md", _hypothesis(claim_id, text))
        if progress is not None and (done % 100 == 0 or done == total):
            progress(done, total)
    texts = {str(claim.get("id")): str(claim.get("claim")) for claim in selected}
    writer.write(EXAMPLES_FILE, _examples(texts))
    gold = labels_path(root)
    writer.write("README.md", _readme(len(documents), len(selected), gold.parent.name))
    writer.write("LICENSE.md", _license(corpus))


# Landing-page examples: claims whose verdict, cited abstract and stance hold on the full
# corpus (and, for those whose abstract is among them, on its first 1,200 abstracts); the
# stance agrees with SciFact's gold label for the cited abstract. A contradiction shown only
# as a possible tension (claim 58, APOE4) is not promised as one.
EXAMPLES = (
    ("370", "ANSWER", "supports", "the abstract answers it, in words of its own"),
    ("990", "ANSWER", "contradicts", "the abstract says the opposite, and the answer quotes it"),
    ("389", "ABSTAIN", "", "no abstract is about it"),
)


def _examples(texts: dict[str, str]) -> str:
    """The questions file of the examples whose claim was imported."""
    lines = []
    for claim_id, label, stance, summary in EXAMPLES:
        if claim_id in texts:
            item = {"id": f"claim-{claim_id}", "question": texts[claim_id], "label": label}
            item.update(stance=stance, summary=summary)
            lines.append(json.dumps(item, ensure_ascii=False) + "\n")
    return "".join(lines)


class _Writer:
    """Change-only writes through the import writer, counted; refusals kept as reasons."""

    def __init__(self, files: ImportWriter):
        self.files = files
        self.written = 0
        self.unchanged = 0
        self.kept: list[str] = []

    def write(self, relative: str, text: str) -> None:
        checked = self.files.write(relative, text, ORIGIN)
        if not checked.allowed:
            self.kept.append(checked.reason)
        elif checked.unchanged:
            self.unchanged += 1
        else:
            self.written += 1


def read_jsonl(path: Path) -> Iterator[dict[str, Any]]:
    """The JSON objects of a JSON-lines file, gzipped or not; EngineError names a bad line."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise EngineError(f"cannot read {path}: {exc.strerror or exc}") from exc
    if raw[:2] == b"\x1f\x8b":
        try:
            raw = gzip.decompress(raw)
        except (OSError, EOFError) as exc:
            raise EngineError(f"{path} is not a readable gzip file: {exc}") from exc
    for number, line in enumerate(raw.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = jsonsafe.loads(line)
        except ValueError as exc:
            raise EngineError(f"{path}:{number}: not JSON ({exc})") from exc
        if not isinstance(record, dict):
            raise EngineError(f"{path}:{number}: expected a JSON object")
        yield record


def _safe_id(value: object, what: str) -> str:
    text = str(value) if isinstance(value, str | int) and not isinstance(value, bool) else None
    if text is None or not is_address_safe(text):
        raise EngineError(f"{what} {value!r} is not a usable id")
    return text


def _text(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise EngineError(f"{what} {value!r} is not text")
    return value


def _sentences(doc: dict[str, Any]) -> list[str]:
    sentences = doc.get("sentences")
    if not isinstance(sentences, list) or not all(isinstance(s, str) for s in sentences):
        raise EngineError(f"abstract {doc.get('doc_id')!r}: sentences must be a list of text")
    return sentences


def _front_matter(meta: dict[str, Any], body: str) -> str:
    # JSON is YAML too, and it loads about forty times faster than YAML's mappings: opening
    # the demo's 6,000 notes takes a fraction of a second instead of seconds.
    dumped = json.dumps(meta, ensure_ascii=False)
    return f"---\n{dumped}\n---\n{body}\n"


def finding_note(doc_id: str, title: str, parts: list[Sectioned]) -> str:
    """The Markdown of one abstract as a canon finding, every sentence a verbatim quote.

    A structured abstract's headings are not part of any sentence: each quote records its
    section, and the body keeps one paragraph per section.
    """
    quotes = []
    for i, part in enumerate(parts):
        quote = {"id": f"s{i}", "body": part.text, "page": 1}
        if part.section:
            quote["section"] = part.section
        quotes.append(quote)
    meta = {"id": doc_id, "type": "finding", "title": title, "source": doc_id, "quotes": quotes}
    return _front_matter(meta, abstract_text(parts))


def abstract_text(parts: list[Sectioned]) -> str:
    """The abstract's sentences, one paragraph per section."""
    paragraphs: list[list[str]] = []
    last = None
    for part in parts:
        if not paragraphs or part.section != last:
            paragraphs.append([])
            last = part.section
        paragraphs[-1].append(part.text)
    return "\n\n".join(" ".join(p) for p in paragraphs)


def _hypothesis(claim_id: str, text: str) -> str:
    meta = {
        "id": f"claim-{claim_id}",
        "type": "experiment",
        "title": text,
        "description": f"Team hypothesis under test (SciFact train claim {claim_id}).",
    }
    return _front_matter(meta, text)


def _label_line(claim: dict[str, Any]) -> str:
    keep = {key: claim.get(key) for key in ("id", "claim", "cited_doc_ids", "evidence")}
    return json.dumps(keep, ensure_ascii=False, sort_keys=True) + "\n"


def _license(corpus: Path) -> str:
    beside = corpus.with_name("LICENSE.md")
    try:
        return beside.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return _FALLBACK_LICENSE


def _readme(abstracts: int, claims: int, labels_folder: str) -> str:
    return f"""# SciFact workspace

Built by `python -m engine import scifact` from the SciFact release (see LICENSE.md).

- `.zettelkasten/{BOX}/<doc_id>.md`: {abstracts:,} abstracts as canon findings; each sentence
  is a verbatim quote (`s0`, `s1`, …) of `sources/<doc_id>.txt`.
- `.memory/claim-<id>.md`: {claims:,} expert-written claims, recorded as the team's
  hypotheses under test (practice entries of type `experiment`).
- `sources/<doc_id>.txt`: the title, a blank line, then the abstract.

The evaluation labels are kept outside this folder, in `../{labels_folder}/`, so that
nothing the app reads can see them.
"""

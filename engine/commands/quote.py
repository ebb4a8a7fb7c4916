"""`verify-quote`: check quotes against source text files, singly or as a JSON-lines batch."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from engine.commands.registry import Command, register
from engine.core.errors import ConfigError, PayloadError
from engine.core.quote import QuoteMatch, verify_quote

_FIELDS = ("verified", "method", "score", "page", "near_miss")


def _configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("quote", nargs="?", help="the quoted text to check (with --source)")
    parser.add_argument(
        "--source", metavar="FILE", help="UTF-8 text of the source; form feeds separate pages"
    )
    parser.add_argument(
        "--batch",
        metavar="FILE.jsonl",
        help="one {id, quote, source | fulltext[, annotations]} object a line; a relative"
        " source path is read from the batch file's folder",
    )
    parser.add_argument(
        "--fuzzy-floor", metavar="SCORE", help="lowest fuzzy score (0-100) accepted, default 90"
    )


def _run(args: argparse.Namespace) -> int:
    """Exit 0 when every quote verified, 1 otherwise."""
    floor = _parse_floor(args.fuzzy_floor)
    if args.batch is not None:
        if args.source is not None or args.quote is not None:
            raise ConfigError("--batch takes no quote argument and no --source")
        return _run_batch(Path(args.batch), floor)
    if args.source is None or args.quote is None:
        raise ConfigError('give --source FILE "QUOTE", or --batch FILE.jsonl')
    match = verify_quote(args.quote, _read_source(Path(args.source)), fuzzy_floor=floor)
    print(_dumps(_public(match)))
    return 0 if match.verified else 1


def _parse_floor(raw: str | None) -> float | None:
    if raw is None:
        return None
    try:
        floor = float(raw)
    except ValueError:
        raise ConfigError(f"--fuzzy-floor must be a number, got {raw!r}") from None
    if not 0.0 <= floor <= 100.0:
        raise ConfigError(f"--fuzzy-floor must be between 0 and 100, got {raw}")
    return floor


def _read_source(path: Path) -> str:
    try:
        return path.read_bytes().decode("utf-8", errors="replace")
    except OSError as exc:
        raise PayloadError(f"cannot read source file {path}: {exc.strerror or exc}") from None


def _run_batch(path: Path, floor: float | None) -> int:
    sources: dict[Path, str] = {}
    all_verified = True
    try:
        with path.open(encoding="utf-8", errors="replace") as lines:
            for number, line in enumerate(lines, start=1):
                if line.strip():
                    record = _batch_record(line, number, path.parent, sources=sources, floor=floor)
                    all_verified = all_verified and record.get("verified") is True
                    print(_dumps(record), flush=True)
    except OSError as exc:
        raise PayloadError(f"cannot read batch file {path}: {exc.strerror or exc}") from None
    return 0 if all_verified else 1


def _batch_record(
    line: str, number: int, base: Path, *, sources: dict[Path, str], floor: float | None
) -> dict[str, object]:
    """The output object for one batch line; a malformed line yields an `error` object."""
    try:
        item = json.loads(line)
    except json.JSONDecodeError as exc:
        return _error(None, number, f"not valid JSON ({exc.msg})")
    if not isinstance(item, dict):
        return _error(None, number, "not a JSON object")
    ident = item.get("id")
    quote = item.get("quote")
    if not isinstance(quote, str):
        return _error(ident, number, "'quote' must be a string")
    if ("source" in item) == ("fulltext" in item):
        return _error(ident, number, "give exactly one of 'source' (a file path) or 'fulltext'")
    annotations = item.get("annotations")
    if annotations is not None and not isinstance(annotations, list):
        return _error(ident, number, "'annotations' must be a list of {text, page, color}")
    if "fulltext" in item:
        fulltext = item["fulltext"]
        if fulltext is not None and not isinstance(fulltext, str):
            return _error(ident, number, "'fulltext' must be a string or null")
    else:
        if not isinstance(item["source"], str) or not item["source"].strip():
            return _error(ident, number, "'source' must be a file path")
        source = base / item["source"]
        if source not in sources:
            try:
                sources[source] = _read_source(source)
            except PayloadError as exc:
                return _error(ident, number, str(exc))
        fulltext = sources[source]
    match = verify_quote(quote, fulltext, annotations, fuzzy_floor=floor)
    return {"id": ident, **_public(match)}


def _error(ident: object, number: int, problem: str) -> dict[str, object]:
    return {"id": ident, "line": number, "error": f"line {number}: {problem}"}


def _public(match: QuoteMatch) -> dict[str, object]:
    shown = match.to_dict()
    return {field: shown[field] for field in _FIELDS}


def _dumps(record: dict[str, object]) -> str:
    return json.dumps(record, sort_keys=True, ensure_ascii=False)


register(
    "verify-quote",
    Command(
        help="Check that quotes really occur in their source text (exact, highlight or typo-level"
        " fuzzy); prints JSON",
        configure=_configure,
        handler=_run,
    ),
)

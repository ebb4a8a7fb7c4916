"""`verify-quote`: check quotes against source text files, singly or as a JSON-lines batch."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING

from engine.commands.batch import Tally, batch_lines
from engine.commands.command_registry import Command, register
from engine.core.errors import ConfigError, PayloadError

if TYPE_CHECKING:
    from engine.core.quote import QuoteMatch


_FIELDS = ("verified", "method", "score", "page", "near_miss")
# The same cap the workspace puts on a file a verifier reads (sources, tethered files).
MAX_SOURCE_BYTES = 20 * 1024 * 1024


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
        "--allow-outside-sources",
        action="store_true",
        help="let batch lines name sources outside the batch file's folder (absolute or ../)",
    )
    parser.add_argument(
        "--fuzzy-floor", metavar="SCORE", help="lowest fuzzy score (0-100) accepted, default 90"
    )


def _run(args: argparse.Namespace) -> int:
    """Exit 0 when every quote verified, 1 otherwise."""
    from engine.core.quote import verify_quote

    floor = _parse_floor(args.fuzzy_floor)
    if args.batch is not None:
        if args.source is not None or args.quote is not None:
            raise ConfigError("--batch takes no quote argument and no --source")
        return _run_batch(Path(args.batch), floor, anywhere=args.allow_outside_sources)
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
    if path.exists() and not path.is_file():  # a FIFO would block the read forever
        raise PayloadError(f"source {path} is not a regular file")
    try:
        with path.open("rb") as stream:
            data = stream.read(MAX_SOURCE_BYTES + 1)
    except OSError as exc:
        raise PayloadError(f"cannot read source file {path}: {exc.strerror or exc}") from None
    if len(data) > MAX_SOURCE_BYTES:
        raise PayloadError(f"source file {path} is over the {MAX_SOURCE_BYTES:,}-byte cap")
    return data.decode("utf-8", errors="replace")


def _run_batch(path: Path, floor: float | None, *, anywhere: bool = False) -> int:
    sources: dict[Path, str] = {}
    all_verified = True
    tally = Tally(path)
    base = None if anywhere else path.parent
    for number, item, problem in batch_lines(path):
        if problem:
            record = tally.error(None, number, problem)
        else:
            record = _batch_record(item, number, base, sources=sources, floor=floor)
            if record.pop("malformed", False):
                record = tally.error(record["id"], number, str(record["error"]))
            elif "error" in record:
                record = {
                    "id": record["id"],
                    "line": number,
                    "error": f"line {number}: {record['error']}",
                }
        all_verified = all_verified and record.get("verified") is True
        print(_dumps(record), flush=True)
    return tally.exit_status(0 if all_verified else 1)


def _batch_record(
    item: object, number: int, base: Path | None, *, sources: dict[Path, str], floor: float | None
) -> dict[str, object]:
    """The output object for one batch line; a malformed line yields an `error` object.

    A source path resolves inside `base` (the batch file's folder); None allows any path.
    """
    from engine.core.paths import resolve_inside
    from engine.core.quote import verify_quote

    if not isinstance(item, dict):
        return _error(None, "not a JSON object")
    ident = item.get("id")
    quote = item.get("quote")
    if not isinstance(quote, str):
        return _error(ident, "'quote' must be a string")
    if ("source" in item) == ("fulltext" in item):
        return _error(ident, "give exactly one of 'source' (a file path) or 'fulltext'")
    annotations = item.get("annotations")
    if annotations is not None and not isinstance(annotations, list):
        return _error(ident, "'annotations' must be a list of {text, page, color}")
    if "fulltext" in item:
        fulltext = item["fulltext"]
        if fulltext is not None and not isinstance(fulltext, str):
            return _error(ident, "'fulltext' must be a string or null")
    else:
        if not isinstance(item["source"], str) or not item["source"].strip():
            return _error(ident, "'source' must be a file path")
        if base is None:
            source = Path(item["source"])
        else:
            safe = resolve_inside(base, item["source"])
            if safe.path is None:
                return _error(
                    ident,
                    f"source refused: {safe.reason}; only files inside the batch file's"
                    " folder are read (--allow-outside-sources lifts this)",
                )
            source = safe.path
        if source not in sources:
            try:
                sources[source] = _read_source(source)
            except PayloadError as exc:
                return {"id": ident, "error": str(exc)}
        fulltext = sources[source]
    match = verify_quote(quote, fulltext, annotations, fuzzy_floor=floor)
    return {"id": ident, **_public(match)}


def _error(ident: object, problem: str) -> dict[str, object]:
    """A line that is itself malformed (shape, a refused path), as opposed to a missing source."""
    return {"id": ident, "error": problem, "malformed": True}


def _public(match: QuoteMatch) -> dict[str, object]:
    shown = match.to_dict()
    public = {field: shown[field] for field in _FIELDS}
    return {**public, "reason": match.reason} if match.reason else public


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

"""`python -m engine sources add PDF… --workspace DIR`: PDFs become source texts."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from engine.commands.cluster_args import add_cluster_argument
from engine.commands.command_registry import Command, register
from engine.core.errors import WorkspaceError
from engine.workspace.layout import SOURCES_REPORT

if TYPE_CHECKING:
    from engine.importers.sources import AddReport


REPORT_FILE = SOURCES_REPORT


def time_limit(text: str) -> float:
    """A `--time-limit` value: positive seconds."""
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 < seconds <= 86_400:
        raise argparse.ArgumentTypeError("give between 0 and 86,400 seconds")
    return seconds


def add_budget_arguments(parser: argparse.ArgumentParser) -> None:
    """`--replace` and `--time-limit`, as every importer of PDFs takes them."""
    from engine.importers.limits import PDF_TIME_LIMIT as DEFAULT_TIME_LIMIT

    parser.add_argument(
        "--replace",
        action="store_true",
        help="overwrite files no import wrote, or that were edited since (never a link)",
    )
    parser.add_argument(
        "--time-limit",
        type=time_limit,
        default=DEFAULT_TIME_LIMIT,
        metavar="SECONDS",
        help=f"wall-clock budget to read one PDF (default {DEFAULT_TIME_LIMIT:g})",
    )


def _configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("pdfs", nargs="+", metavar="PDF", help="PDF files, folders or globs")
    parser.add_argument(
        "--workspace",
        type=Path,
        required=True,
        help="workspace folder (created when absent: a folder of sources is a workspace)",
    )
    parser.add_argument("--citekey", help="the citekey to file one PDF under (default: its name)")
    add_budget_arguments(parser)
    add_cluster_argument(parser)


def _run(args: argparse.Namespace) -> int:
    """Exit 0 when every PDF gave text, 1 when some failed (each is named in the report)."""
    from engine.importers.sources import AddOptions, add_pdfs, collect_pdfs
    from engine.workspace.atomic import synapse_path, write_atomic

    root = args.workspace
    if root.exists() and not root.is_dir():
        raise WorkspaceError(f"workspace {str(root)!r} is not a directory")
    # A new folder becomes a workspace of its sources: the PDFs' texts are its evidence.
    root.mkdir(parents=True, exist_ok=True)
    pdfs = collect_pdfs(args.pdfs)
    options = AddOptions(citekey=args.citekey, replace=args.replace, time_limit=args.time_limit)
    from engine.commands.cluster_imports import pdf_reader

    with pdf_reader(args.cluster, root, lambda: pdfs, options.budget) as extractor:
        report = add_pdfs(root, pdfs, options, extractor=extractor)
    summary = report.to_dict()
    write_atomic(synapse_path(root, REPORT_FILE), json.dumps(summary, indent=1) + "\n")
    print_problems(report)
    print(json.dumps({key: summary[key] for key in summary if key != "items"}, sort_keys=True))
    return 1 if report.failures else 0


def print_problems(report: AddReport) -> None:
    """One stderr line per failed PDF, per group of likely duplicates, per page left without
    text and per page whose hidden text was left out."""
    for notice in report.notices:
        print(f"notice: {notice}", file=sys.stderr)
    for duplicate in report.duplicates:
        print(f"notice: {duplicate.words()}; both are kept", file=sys.stderr)
    for item in report.failures:
        print(f"{item.path}: {item.kind}: {item.problem}", file=sys.stderr)
    for item in report.items:
        if item.empty_pages:
            pages = ", ".join(map(str, item.empty_pages))
            print(f"{item.path}: warning: no text on page(s) {pages}", file=sys.stderr)
        for note in item.hidden_notes():
            print(f"{item.path}: {note}", file=sys.stderr)
        if item.oversized_pages:
            pages = ", ".join(map(str, item.oversized_pages))
            print(
                f"{item.path}: warning: page(s) {pages} draw too much to read; left out",
                file=sys.stderr,
            )


register(
    "sources add",
    Command("Extract PDFs page by page into sources/<citekey>.txt", _configure, _run),
)

"""`python -m engine sources add PDF… --workspace DIR`: PDFs become source texts."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from engine.commands.registry import Command, register
from engine.core.errors import WorkspaceError
from engine.importers.sources import AddOptions, add_pdfs, collect_pdfs
from engine.workspace.atomic import synapse_path, write_atomic

REPORT_FILE = ".synapse/reports/sources-add.json"


def _configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("pdfs", nargs="+", metavar="PDF", help="PDF files, folders or globs")
    parser.add_argument("--workspace", type=Path, required=True, help="workspace folder")
    parser.add_argument("--citekey", help="the citekey to file one PDF under (default: its name)")
    parser.add_argument(
        "--replace", action="store_true", help="overwrite a source text that no PDF made"
    )


def _run(args: argparse.Namespace) -> int:
    """Exit 0 when every PDF gave text, 1 when some failed (each is named in the report)."""
    root = args.workspace
    if not root.is_dir():
        raise WorkspaceError(f"workspace {str(root)!r} is not a directory")
    pdfs = collect_pdfs(args.pdfs)
    report = add_pdfs(root, pdfs, AddOptions(citekey=args.citekey, replace=args.replace))
    summary = report.to_dict()
    write_atomic(synapse_path(root, REPORT_FILE), json.dumps(summary, indent=1) + "\n")
    for item in report.failures:
        print(f"{item.path}: {item.kind}: {item.problem}", file=sys.stderr)
    for item in report.items:
        if item.empty_pages:
            pages = ", ".join(map(str, item.empty_pages))
            print(f"{item.path}: warning: no text on page(s) {pages}", file=sys.stderr)
    print(json.dumps({key: summary[key] for key in summary if key != "items"}, sort_keys=True))
    return 1 if report.failures else 0


register(
    "sources add",
    Command("Extract PDFs page by page into sources/<citekey>.txt", _configure, _run),
)

"""`python -m engine import zotero --data-dir ZOTERO_DIR --workspace DIR`."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from engine.commands.cluster_args import add_cluster_argument
from engine.commands.command_registry import Command, register
from engine.commands.sources_command import add_budget_arguments


def _configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--data-dir", type=Path, required=True, help="Zotero's data folder (holds zotero.sqlite)"
    )
    parser.add_argument("--workspace", type=Path, required=True, help="workspace folder")
    parser.add_argument("--box", default="zotero", help="canon box for the source notes")
    add_budget_arguments(parser)
    add_cluster_argument(parser)


def _run(args: argparse.Namespace) -> int:
    """Exit 0 when everything was imported, 1 when something was skipped or kept (on stderr)."""
    from engine.importers.sources import AddOptions
    from engine.importers.zotero import attachment_pdfs, import_zotero

    options = AddOptions(replace=args.replace, time_limit=args.time_limit)
    pdfs = lambda: attachment_pdfs(args.data_dir)  # noqa: E731 (read only with a cluster)
    from engine.commands.cluster_imports import pdf_reader

    with pdf_reader(args.cluster, args.workspace, pdfs, options.budget) as extractor:
        report = import_zotero(
            args.data_dir, args.workspace, box=args.box, options=options, extractor=extractor
        )
    for notice in report.notices:
        print(f"notice: {notice}", file=sys.stderr)
    for duplicate in report.duplicates:
        print(f"notice: {duplicate.words()}; both are kept", file=sys.stderr)
    for item, problem in report.problems:
        print(f"{item}: {problem}", file=sys.stderr)
    summary = report.to_dict()
    summary["problems"] = len(report.problems)
    print(json.dumps(summary, sort_keys=True))
    return 1 if report.problems else 0


register(
    "import zotero",
    Command("Import a Zotero library: source notes, PDF texts and highlights", _configure, _run),
)

"""`python -m engine import zotero --data-dir ZOTERO_DIR --workspace DIR`."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from engine.commands.registry import Command, register
from engine.importers.zotero import import_zotero


def _configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--data-dir", type=Path, required=True, help="Zotero's data folder (holds zotero.sqlite)"
    )
    parser.add_argument("--workspace", type=Path, required=True, help="workspace folder")
    parser.add_argument("--box", default="zotero", help="canon box for the source notes")


def _run(args: argparse.Namespace) -> int:
    report = import_zotero(args.data_dir, args.workspace, box=args.box)
    for item, problem in report.problems:
        print(f"{item}: {problem}", file=sys.stderr)
    summary = report.to_dict()
    summary["problems"] = len(report.problems)
    print(json.dumps(summary, sort_keys=True))
    return 0


register(
    "import zotero",
    Command("Import a Zotero library: source notes, PDF texts and highlights", _configure, _run),
)

"""`python -m engine triage set|show --workspace DIR`: record or print triage decisions."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from engine.commands.registry import Command, register
from engine.core.errors import WorkspaceError


def _workspace(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--workspace", type=Path, required=True, help="workspace folder")


def _configure_set(parser: argparse.ArgumentParser) -> None:
    from engine.review.triage import TriageDecision

    _workspace(parser)
    parser.add_argument("--memory-id", required=True, help="practice entry id, e.g. deci-a7688a22")
    parser.add_argument("--zk-source", required=True, help="canon box, e.g. finance")
    parser.add_argument("--zk-id", required=True, help="canon note id, e.g. z-mom-01")
    parser.add_argument("--decision", required=True, choices=[d.value for d in TriageDecision])
    parser.add_argument("--note", default="", help="why")


def _run_set(args: argparse.Namespace) -> int:
    from engine.review.relations import EdgeKey
    from engine.review.triage import record

    _require_folder(args.workspace)
    key = EdgeKey(args.memory_id, args.zk_source, args.zk_id)
    entry = record(args.workspace, key, args.decision, note=args.note)
    print(json.dumps(entry.to_dict(), ensure_ascii=False, sort_keys=True))
    return 0


def _run_show(args: argparse.Namespace) -> int:
    from engine.review.triage import read_log

    _require_folder(args.workspace)
    log = read_log(args.workspace)
    for problem in log.problems:
        print(f"triage log: {problem}", file=sys.stderr)
    latest = [entry.to_dict() for entry in log.latest().values()]
    print(json.dumps(latest, ensure_ascii=False, indent=1, sort_keys=True))
    return 0


def _require_folder(path: Path) -> None:
    if not path.is_dir():
        raise WorkspaceError(f"workspace {str(path)!r} is not a directory")


register(
    "triage set",
    Command("Record a decision on a practice-canon contradiction", _configure_set, _run_set),
)
register(
    "triage show",
    Command("Print the current triage decision on every edge", _workspace, _run_show),
)

"""`python -m engine triage set|show|pairs --workspace DIR`: record, print or export decisions."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from engine.commands.command_registry import Command, register
from engine.core.errors import ConfigError, WorkspaceError


def _workspace(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--workspace", type=Path, required=True, help="workspace folder")


def _configure_set(parser: argparse.ArgumentParser) -> None:
    from engine.review.triage import TriageDecision

    _workspace(parser)
    # The older flag names stay accepted: scripts written against them keep working.
    parser.add_argument(
        "--practice-id",
        "--memory-id",
        dest="practice_id",
        required=True,
        help="practice entry id, e.g. deci-a7688a22",
    )
    parser.add_argument(
        "--canon-source",
        "--zk-source",
        dest="canon_source",
        required=True,
        help="canon box, e.g. finance",
    )
    parser.add_argument(
        "--canon-id", "--zk-id", dest="canon_id", required=True, help="canon note id, e.g. z-mom-01"
    )
    parser.add_argument("--decision", required=True, choices=[d.value for d in TriageDecision])
    parser.add_argument("--note", default="", help="why")
    parser.add_argument(
        "--by",
        default=None,
        help="the reviewer's name (default: $SYNAPSE_REVIEWER, else your user name)",
    )


def _run_set(args: argparse.Namespace) -> int:
    from engine.review.relations import EdgeKey
    from engine.review.triage import record

    _require_folder(args.workspace)
    key = EdgeKey(args.practice_id, args.canon_source, args.canon_id)
    entry = record(args.workspace, key, args.decision, note=args.note, by=args.by)
    print(json.dumps(entry.to_dict(), ensure_ascii=False, sort_keys=True))
    return 0


def _run_show(args: argparse.Namespace) -> int:
    from engine.review.triage import acting, read_log

    _require_folder(args.workspace)
    log = read_log(args.workspace)
    for problem in log.problems:
        print(f"triage log: {problem}", file=sys.stderr)
    shown = []
    for standing in log.standing().values():
        # The newest entry, the decision that acts, and every reviewer's standing one.
        shown.append(
            {
                **standing[-1].to_dict(),
                "decision": acting(standing).value,
                "disagreement": len({e.decision for e in standing}) > 1,
                "reviewers": [
                    {"by": e.by, "decision": e.decision.value, "at": e.at, "note": e.note}
                    for e in standing
                ],
            }
        )
    print(json.dumps(shown, ensure_ascii=False, indent=1, sort_keys=True))
    return 0


def _configure_pairs(parser: argparse.ArgumentParser) -> None:
    _workspace(parser)
    parser.add_argument("--out", type=Path, required=True, help="JSON-lines file to write")
    parser.add_argument(
        "--replace", action="store_true", help="replace --out if it exists (never a link)"
    )


def _run_pairs(args: argparse.Namespace) -> int:
    from engine.api import open_workspace
    from engine.models.encoder import EncoderChoice
    from engine.review.overlay import load_overlay
    from engine.review.triage import read_log
    from engine.review.triage_pairs import PairLabel, labelled_pairs

    _require_folder(args.workspace)
    log = read_log(args.workspace)
    for problem in log.problems:
        print(f"triage log: {problem}", file=sys.stderr)
    opened = open_workspace(args.workspace, encoder=EncoderChoice(None, "words alone"))
    try:
        found = labelled_pairs(opened, load_overlay(args.workspace), log)
    finally:
        opened.close()
    write_new(args.out, found.jsonl().encode("utf-8"), replace=args.replace)
    left = ", ".join(f"{n} {why.value}" for why, n in found.left_out) or "none"
    print(
        f"wrote {len(found.pairs)} labelled pairs to {args.out} "
        f"({found.count(PairLabel.CONTRADICT)} CONTRADICT, {found.count(PairLabel.NONE)} NONE); "
        f"decided pairs left out: {left}"
    )
    return 0


def write_new(path: Path, data: bytes, *, replace: bool) -> None:
    """Write `data` to `path`, a file this command creates; an existing one only if `replace`.

    Never through a link (a symbolic or hard link at `path` is refused even with `replace`),
    and in one step (`write_atomic`): a failure leaves the old file whole.
    """
    from engine.workspace.atomic import write_atomic

    if path.is_symlink():
        raise ConfigError(f"--out {path} is a link; give the file itself")
    if path.exists() and not replace:
        raise ConfigError(f"--out {path} exists; pass --replace to write over it")
    write_atomic(path, data)


def _require_folder(path: Path) -> None:
    if not path.is_dir():
        raise WorkspaceError(f"workspace {str(path)!r} is not a directory")


register(
    "triage set",
    Command("Record a decision on a practice-canon contradiction", _configure_set, _run_set),
)
register(
    "triage show",
    Command(
        "Print the decision that acts on every edge, each reviewer's, and any disagreement",
        _workspace,
        _run_show,
    ),
)
register(
    "triage pairs",
    Command(
        "Export the decided pairs as labelled pairs for the reader's next training run (opt-in)",
        _configure_pairs,
        _run_pairs,
    ),
)

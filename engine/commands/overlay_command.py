"""`python -m engine overlay build|show --workspace DIR`: build or print the claim overlay."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from engine.commands.cluster_args import add_cluster_argument
from engine.commands.command_registry import Command, register
from engine.commands.progress import Progress
from engine.core.errors import WorkspaceError
from engine.workspace.layout import OVERLAY_PATH

SHOWN = (
    "memory_id",
    "zk_source",
    "zk_id",
    "relation",
    "confidence",
    "claim_strength",
    "priority",
    "rationale",
)


def _configure_build(parser: argparse.ArgumentParser) -> None:
    from engine.review.overlay_config import OverlayConfig

    defaults = OverlayConfig()
    parser.add_argument("--workspace", type=Path, required=True, help="workspace folder")
    parser.add_argument("--typer", default="offline", help="offline (default), reader or openai")
    parser.add_argument("--k", type=int, default=defaults.k, help="canon notes per entry")
    parser.add_argument("--overfetch", type=int, default=defaults.overfetch)
    parser.add_argument("--sim-floor", type=float, default=defaults.sim_floor)
    parser.add_argument("--min-confidence", type=float, default=defaults.min_confidence)
    parser.add_argument("--limit", type=int, help="only the first N practice entries")
    parser.add_argument("--quiet", action="store_true", help="no progress line on stderr")
    parser.add_argument(
        "--if-missing", action="store_true", help="keep a valid saved overlay, build otherwise"
    )
    add_cluster_argument(parser)


def _run_build(args: argparse.Namespace) -> int:
    from engine.api import open_workspace
    from engine.review.overlay import OverlayConfig, build_overlay, read_overlay

    config = OverlayConfig(
        k=args.k,
        overfetch=args.overfetch,
        sim_floor=args.sim_floor,
        min_confidence=args.min_confidence,
        limit=args.limit,
    )
    saved = read_overlay(args.workspace).overlay if args.if_missing else None
    if saved is not None:
        summary = {"workspace": str(args.workspace), "path": OVERLAY_PATH, **saved.header()}
        print(json.dumps({**summary, "kept": True}, sort_keys=True))
        return 0
    progress = Progress("typing pairs", enabled=False if args.quiet else None)
    opened = open_workspace(args.workspace)
    if opened.notice:
        print(f"notice: {opened.notice}", file=sys.stderr)
    try:
        from engine.commands.cluster_review import cluster_typing

        with cluster_typing(opened, args.cluster, args.typer) as typing:
            overlay = build_overlay(
                opened, typer=args.typer, config=config, progress=progress, typing=typing
            )
    finally:
        opened.close()
    summary = {"workspace": str(opened.root), "path": OVERLAY_PATH, **overlay.header()}
    print(json.dumps(summary, sort_keys=True))
    for line in typing.skipped if typing is not None else ():
        print(line, file=sys.stderr)
    return 1 if typing is not None and typing.skipped else 0


def _configure_show(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--workspace", type=Path, required=True, help="workspace folder")
    parser.add_argument("--relation", action="append", help="only this relation (repeatable)")


def _run_show(args: argparse.Namespace) -> int:
    from engine.review.overlay import read_overlay

    if not args.workspace.is_dir():
        raise WorkspaceError(f"workspace {str(args.workspace)!r} is not a directory")
    read = read_overlay(args.workspace)
    if read.overlay is None:
        raise WorkspaceError(f"{read.reason} (run `python -m engine overlay build`)")
    edges = [
        {name: edge.to_dict()[name] for name in SHOWN}
        for edge in read.overlay.edges
        if not args.relation or edge.relation.value in args.relation
    ]
    print(json.dumps(edges, ensure_ascii=False, indent=1))
    return 0


register(
    "overlay build",
    Command(
        "Align practice with canon claims and save the claim overlay", _configure_build, _run_build
    ),
)
register(
    "overlay show", Command("Print the saved claim overlay's edges", _configure_show, _run_show)
)

"""`python -m engine import scifact …` and `python -m engine index --workspace DIR`."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from engine.commands.command_registry import Command, register
from engine.commands.progress import Progress


def _configure_import(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--corpus", type=Path, required=True, help="corpus.jsonl or .jsonl.gz")
    parser.add_argument("--claims", type=Path, required=True, help="claims_*.jsonl")
    parser.add_argument("--out", type=Path, required=True, help="workspace folder to build")
    parser.add_argument(
        "--limit", type=int, help="only the first N abstracts and the claims citing them"
    )
    parser.add_argument(
        "--force",
        action="store_true",
        help="import into a folder that holds files but is not a workspace",
    )
    parser.add_argument(
        "--replace",
        action="store_true",
        help="overwrite files no import wrote, or that were edited since (never a link)",
    )


def _run_import(args: argparse.Namespace) -> int:
    """Exit 0 when every file was written or unchanged, 1 when some were kept (on stderr)."""
    from engine.datasets.scifact import import_scifact

    progress = Progress("importing SciFact")
    summary = import_scifact(
        args.corpus,
        args.claims,
        args.out,
        limit=args.limit,
        progress=progress,
        force=args.force,
        replace=args.replace,
    )
    for reason in summary.kept:
        print(reason, file=sys.stderr)
    print(summary.line())
    return 1 if summary.kept else 0


def _configure_index(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--workspace", type=Path, required=True, help="workspace folder")
    parser.add_argument(
        "--check",
        action="store_true",
        help="compare every row with its note's current text and index again what differs"
        " (exit 1 when something differed)",
    )


def _run_index(args: argparse.Namespace) -> int:
    from engine.models.encoder import load_encoder
    from engine.workspace.caches import cache_folder, read_origin
    from engine.workspace.index import Index
    from engine.workspace.opened import save_passages
    from engine.workspace.semantic import open_meaning
    from engine.workspace.stores import load_workspace

    progress = Progress("indexing")
    started = time.perf_counter()
    progress.note(f"indexing: loading the notes of {args.workspace}…")
    workspace = load_workspace(args.workspace)
    loaded = time.perf_counter()
    for problem in workspace.report:
        print(f"{problem.path}: {problem.problem}", file=sys.stderr)
    progress.note(f"indexing: {len(workspace.notes):,} notes loaded, updating the index…")
    with Index.open(workspace.root) as index:
        # The check compares the rows as found, before an update would mend them.
        checked = index.check(workspace) if args.check else None
        stats = index.update(workspace)
        progress.note(f"indexing: done in {time.perf_counter() - started:.1f}s")
        if index.path is not None:
            save_passages(workspace)
        if index.notice:  # set at opening, or by an update that found the file unwritable
            print(f"notice: {index.notice}", file=sys.stderr)
        meaning = open_meaning(
            workspace.root,
            workspace.notes.written.values(),
            load_encoder(),
            writable=index.path is not None,
            progress=Progress("encoding sentences"),
        )
        if meaning.notice:
            print(f"notice: {meaning.notice}", file=sys.stderr)
        summary = {
            "workspace": str(workspace.root),
            "notes": len(workspace.notes),
            "indexed": index.count(),
            "added": stats.added,
            "changed": stats.changed,
            "removed": stats.removed,
            "unchanged": stats.unchanged,
            "rebuilt": index.rebuilt,
            "problems": len(workspace.report),
            "load_seconds": round(loaded - started, 3),
            "update_seconds": round(stats.seconds, 3),
            "vectors": meaning.stats.to_dict() if meaning.stats else None,
            "cache": _cache_summary(cache_folder(workspace.root), read_origin(workspace.root)),
        }
        if checked is not None:
            summary["check"] = checked.to_dict()
    print(json.dumps(summary, sort_keys=True))
    return 1 if checked is not None and not checked.ok else 0


def _cache_summary(folder: Path, origin: object) -> dict[str, object]:
    """Where this user's derived files are and where they were first copied from."""
    seeded = getattr(origin, "seeded", "")
    return {"folder": str(folder), "seeded": seeded or None, "ready": origin is not None}


def _configure_prune(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--unused-days",
        type=float,
        default=None,
        metavar="DAYS",
        help="let go of caches of workspaces that are gone and unused this long (default 14;"
        " 0: every cache whose workspace is gone)",
    )


def _run_prune(args: argparse.Namespace) -> int:
    from engine.workspace.cache_prune import UNUSED_DAYS, prune_caches

    days = UNUSED_DAYS if args.unused_days is None else args.unused_days
    if days < 0:
        print("error: --unused-days must be 0 or more", file=sys.stderr)
        return 2
    print(json.dumps(prune_caches(days).to_dict(), sort_keys=True))
    return 0


# `import` is a group, so another dataset can join it as `import <name>`.
register(
    "import scifact",
    Command("Build a workspace from the SciFact corpus and claims", _configure_import, _run_import),
)
register(
    "caches prune",
    Command(
        "Let go of this user's caches of workspaces that were deleted or moved",
        _configure_prune,
        _run_prune,
    ),
)
register(
    "index",
    Command("Load a workspace and bring its search index up to date", _configure_index, _run_index),
)

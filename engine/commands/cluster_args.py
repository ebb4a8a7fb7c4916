"""The `--cluster` and `--out` options every batch command takes, light to import.

The cluster machinery (`engine.commands.cluster_session`) loads only when a run asks for it, so a
command that never uses `--cluster` starts without it.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from engine.core.errors import ConfigError
from engine.distributed.cluster import ClusterSpec, parse_cluster

__all__ = ["add_cluster_argument", "add_out_argument", "cluster_spec"]

HELP = (
    "run on a Dask cluster: 'local' (one worker process per core) or a scheduler's "
    "tcp://HOST:PORT; workers read the workspace from the same path"
)


def cluster_spec(text: str) -> ClusterSpec:
    """A `--cluster` value, for argparse."""
    try:
        return parse_cluster(text)
    except ConfigError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_cluster_argument(parser: argparse.ArgumentParser) -> None:
    """`--cluster`, as every batch command takes it."""
    parser.add_argument("--cluster", type=cluster_spec, metavar="local|tcp://HOST:PORT", help=HELP)


def add_out_argument(parser: argparse.ArgumentParser) -> None:
    """`--out FILE`: a batch's lines appended to a file, resumed by the next run."""
    parser.add_argument(
        "--out",
        type=Path,
        metavar="FILE.jsonl",
        help="append the results to FILE, whole lines in input order; a re-run finishes it",
    )

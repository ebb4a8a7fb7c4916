"""`python -m engine plugins`: list what is registered: verifiers, reasoners, typers, commands."""

from __future__ import annotations

import argparse
import json

from engine.commands.command_registry import COMMANDS, Command, register


def registered() -> dict[str, list[str]]:
    """Each registry's kind mapped to its sorted names."""
    from engine.core.verifiers import VERIFIERS
    from engine.navigation.reasoners.reasoner_registry import REASONERS
    from engine.review.typers import TYPERS

    return {
        "verifiers": sorted(VERIFIERS),
        "reasoners": sorted(REASONERS),
        "typers": sorted(TYPERS),
        "commands": sorted(COMMANDS),
    }


def _configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print JSON instead of lines")


def _run(args: argparse.Namespace) -> int:
    listing = registered()
    if args.json:
        print(json.dumps(listing, indent=2, sort_keys=True))
        return 0
    for kind, names in listing.items():
        print(f"{kind}: {', '.join(names)}")
    return 0


register(
    "plugins",
    Command("List the registered verifiers, reasoners, typers and commands", _configure, _run),
)

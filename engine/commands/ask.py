"""`python -m engine ask`: answer a question (or a JSONL batch of them) over a workspace."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from engine.commands.batch import Tally, batch_lines, count_lines
from engine.commands.cluster_args import add_cluster_argument, add_out_argument
from engine.commands.command_registry import Command, register
from engine.commands.progress import Progress, answers_redirected
from engine.core.errors import ConfigError

# Fields of a result that the command prints unless --full is given; the router's verdict,
# label, status, reasons and detail are in `decision`, as `route` prints them.
SUMMARY = (
    "decision", "cited", "stance", "prose", "dag", "trace", "contests", "also_stated",
)  # fmt: skip


def _configure(parser: argparse.ArgumentParser) -> None:
    from engine.navigation.budget import Budget

    parser.add_argument("question", nargs="?", help="the question to answer")
    parser.add_argument("--workspace", required=True, type=Path, help="workspace folder")
    parser.add_argument("--batch", type=Path, help="JSONL file of {id, question} lines")
    parser.add_argument("--reasoner", default="offline", help="offline (default) or openai")
    defaults = Budget()
    parser.add_argument("--hops", type=int, default=defaults.hops)
    parser.add_argument("--max-nodes", type=int, default=defaults.max_nodes)
    parser.add_argument("--max-steps", type=int, default=defaults.max_steps)
    parser.add_argument("--full", action="store_true", help="also print neighbourhood and payload")
    add_cluster_argument(parser)
    add_out_argument(parser)


def _run(args: argparse.Namespace) -> int:
    from engine.api import answer, open_workspace
    from engine.core.wire import dumps
    from engine.navigation.budget import Budget
    from engine.reading.asked import read_question

    if (args.question is None) == (args.batch is None):
        raise ConfigError("give either a QUESTION or --batch FILE.jsonl")
    # Read once, before the workspace is even opened: a question over the limit stops here.
    asked = read_question(args.question) if args.question is not None else None
    if args.batch is None and (args.cluster is not None or args.out is not None):
        raise ConfigError("--cluster and --out run a batch: give --batch FILE.jsonl")
    budget = Budget(hops=args.hops, max_nodes=args.max_nodes, max_steps=args.max_steps)
    opened = open_workspace(args.workspace)
    if opened.notice:
        print(f"notice: {opened.notice}", file=sys.stderr)
    if opened.meaning_notice:  # no encoder: retrieval and relevance rest on words alone
        print(f"notice: {opened.meaning_notice}", file=sys.stderr)
    try:
        if args.batch is None:
            assert asked is not None
            result = answer(opened, asked, reasoner=args.reasoner, budget=budget)
            print(dumps(_shape(result.to_dict(), args.full)))
            return 0
        if args.cluster is not None or args.out is not None:
            from engine.commands.cluster_batch import AskRules, ask_batch

            return ask_batch(opened, args, AskRules(_item, _shape))
        tally = Tally(args.batch)
        total = count_lines(args.batch)
        line = Progress("asking", enabled=total is not None and answers_redirected())
        for done, (line_no, data, problem) in enumerate(batch_lines(args.batch), start=1):
            item = _item(data, problem, line_no, tally)
            if "error" in item:
                print(dumps(item), flush=True)
            else:
                result = answer(opened, item["question"], reasoner=args.reasoner, budget=budget)
                print(dumps({"id": item["id"], **_shape(result.to_dict(), args.full)}), flush=True)
            line(done, max(total or 0, done))
        return tally.exit_status(0)
    finally:
        opened.close()


def _shape(data: dict[str, Any], full: bool) -> dict[str, Any]:
    if full:
        return data
    return {**{k: data[k] for k in SUMMARY}, "latency_ms": data["latency_ms"]}


def _item(data: object, problem: str, line_no: int, tally: Tally) -> dict[str, Any]:
    from engine.api import question_problem

    if problem:
        return tally.error(None, line_no, problem)
    if not isinstance(data, dict) or not isinstance(data.get("question"), str):
        return tally.error(None, line_no, "expected an object with a string question")
    ident = data.get("id", line_no)
    if not isinstance(ident, str | int) or isinstance(ident, bool):
        return tally.error(None, line_no, "id must be a string or a whole number")
    if (refusal := question_problem(data["question"])) is not None:
        return tally.error(ident, line_no, refusal)
    return {"id": ident, "question": data["question"]}


register(
    "ask",
    Command("Answer a question over a workspace, with the router's verdict", _configure, _run),
)

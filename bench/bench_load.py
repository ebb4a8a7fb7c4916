"""Load: 20 concurrent sessions asking questions of one `streamlit run app.py` process.

Each session is a real client of the running app: it opens the app's websocket
(`/_stcore/stream`) on loopback and speaks the protobuf messages a browser tab sends. It
runs the app, finds the Navigate page's Question input and Ask button by their widget keys,
sends the question with the button's trigger, and reads the rerun back until the script
finishes: the verdict banner, any exception element, and the decision JSON behind the
download button, fetched over HTTP from the same server. One ask's latency is the time
from sending it to the end of that rerun, so it covers the engine call, the page render
(the neighbourhood graph, the cited prose) and the transfer, but not a browser's drawing.

Why not `AppTest` in 20 threads: AppTest installs a process-wide mock Runtime for each
run and removes it when the run ends, so concurrent runs tear down each other's runtime
("Runtime hasn't been created!"), and it never touches the server. Why not a browser per
session: 20 headless Chromium tabs on a small machine would measure Chromium.

The sessions share the app's process-wide caches as real users do: the opened workspace
(`st.cache_resource`) and answers by question, reasoner and budget (`st.cache_data`). In
the `shared cache` phase every session keeps the default budget, so a question asked
before is served from the answer cache; in the `own budgets` phase each session sets its
own node budget, so every ask runs the engine, one at a time on the workspace's worker
thread. The `alone` phase is one session, for comparison. A rerun's render is part of
each figure: it is the same with or without an answer cache hit.
"""

from __future__ import annotations

import json
import shutil
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState
from websockets.sync.client import connect
from websockets.typing import Subprotocol

from bench.app_server import running_app
from bench.timing import median, percentile, row

ROOT = Path(__file__).resolve().parent.parent
LAB = ROOT / "examples" / "momentum-lab"
SESSIONS = 20
ASKS = 3
DEADLINE = 120.0
VERDICTS = ("ANSWER", "HEDGED ANSWER", "ABSTAIN")
FINISHED = ForwardMsg.ScriptFinishedStatus.Value("FINISHED_SUCCESSFULLY")
MODEL_OPTION = "OpenAI-compatible"


@dataclass
class Rerun:
    """What one script run sent back: its elements in order and how it finished."""

    # Each a protobuf message of its own kind (alert, button, ...), read by field name.
    elements: list[tuple[str, Any]] = field(default_factory=list)
    status: int | None = None
    seconds: float = 0.0

    def of(self, kind: str) -> list[Any]:
        return [element for name, element in self.elements if name == kind]

    def widget(self, key: str) -> str:
        """The id of the widget made with `key`."""
        ids: list[str] = [
            e.id for _, e in self.elements if getattr(e, "id", "").endswith(f"-{key}")
        ]
        if len(ids) != 1:
            raise LookupError(f"{len(ids)} widgets with key {key!r}")
        return ids[0]

    @property
    def banners(self) -> list[str]:
        return [a.body for a in self.of("alert") if a.body.startswith(VERDICTS)]

    @property
    def exceptions(self) -> list[str]:
        return [f"{e.type}: {e.message}" for e in self.of("exception")]


class Session:
    """One browser-like session of the app over its websocket."""

    def __init__(self, url: str) -> None:
        self.url = url
        stream = url.replace("http://", "ws://", 1) + "/_stcore/stream"
        self._stack = ExitStack()
        self._socket = self._stack.enter_context(
            # No keepalive pings: a server busy with twenty sessions answers a ping late, and
            # the client would drop a healthy session for it; each read has its own deadline.
            connect(
                stream,
                subprotocols=[Subprotocol("streamlit")],
                max_size=None,
                open_timeout=DEADLINE,
                ping_interval=None,
                # Unread frames queue without bound, so the reader keeps reading and sees the
                # server's close frame: with the default bound, leaving mid-ask waited out the
                # 10 s close timeout behind frames nobody read.
                max_queue=None,
            )
        )
        self.last = Rerun()
        # A browser sends every widget's value on each rerun; a widget left out is reset.
        self._kept: dict[str, WidgetState] = {}

    def close(self) -> None:
        self._stack.close()

    def run(self, widgets: Sequence[WidgetState] = (), *, query: str = "") -> Rerun:
        """Rerun the script with `widgets` set, as a browser does after an interaction."""
        return self.collect(self.send(widgets, query=query))

    def send(self, widgets: Sequence[WidgetState] = (), *, query: str = "") -> float:
        """Ask for a rerun with `widgets` set without waiting for it; when it was sent."""
        message = BackMsg()
        message.rerun_script.query_string = query
        message.rerun_script.page_name = "ask"  # the Navigate page (Start is the default)
        for widget in widgets:
            if widget.WhichOneof("value") != "trigger_value":
                self._kept[widget.id] = widget
        sent = {**self._kept, **{w.id: w for w in widgets}}
        message.rerun_script.widget_states.widgets.extend(sent.values())
        started = time.perf_counter()
        self._socket.send(message.SerializeToString())
        return started

    def collect(self, started: float) -> Rerun:
        """The elements of the next run to finish (an interrupted one included)."""
        rerun = Rerun()
        while rerun.status is None:
            forward = ForwardMsg()
            forward.ParseFromString(self._socket.recv(timeout=DEADLINE))
            kind = forward.WhichOneof("type")
            if kind == "delta" and forward.delta.WhichOneof("type") == "new_element":
                element = forward.delta.new_element
                name = element.WhichOneof("type")
                assert name is not None  # a new element always has its kind
                rerun.elements.append((name, getattr(element, name)))
            elif kind == "script_finished":
                rerun.status = forward.script_finished
        rerun.seconds = time.perf_counter() - started
        self.last = rerun
        return rerun

    def use_model(self, base_url: str, model: str) -> Rerun:
        """Pick the OpenAI-compatible reasoner in the sidebar and point it at `base_url`."""
        self.run([WidgetState(id=self.last.widget("reasoner"), string_value=MODEL_OPTION)])
        return self.run(
            [
                WidgetState(id=self.last.widget("reasoner"), string_value=MODEL_OPTION),
                WidgetState(id=self.last.widget("llm_base_url"), string_value=base_url),
                WidgetState(id=self.last.widget("llm_model"), string_value=model),
            ]
        )

    def ask(self, question: str, *, budget_nodes: int | None = None) -> Rerun:
        """Type `question` into the Question box and press Ask."""
        return self.run(self.asking(question, budget_nodes=budget_nodes))

    def asking(self, question: str, *, budget_nodes: int | None = None) -> list[WidgetState]:
        """The widget states of typing `question` and pressing Ask."""
        widgets = [
            WidgetState(id=self.last.widget("question"), string_value=question),
            WidgetState(id=self.last.widget("ask"), trigger_value=True),
        ]
        if budget_nodes is not None:
            widgets.append(WidgetState(id=self.last.widget("budget_nodes"), int_value=budget_nodes))
        return widgets

    def decision(self) -> dict[str, Any]:
        """The decision JSON the last rerun offers for download, fetched from the server."""
        [button] = [b for b in self.last.of("download_button") if b.id.endswith("-nav_download")]
        with urllib.request.urlopen(self.url + button.url, timeout=DEADLINE) as reply:
            decided: dict[str, Any] = json.loads(reply.read())
            return decided


@dataclass(frozen=True)
class Asked:
    """One ask of one session, as the session saw it."""

    session: int
    question: str
    seconds: float
    banners: tuple[str, ...]
    exceptions: tuple[str, ...]
    finished: bool
    decision_question: str | None
    decision_label: str | None
    finished_at: float = 0.0  # time.monotonic() when the rerun came back
    reasoner: str = "offline"


@dataclass(frozen=True)
class LoadRun:
    """Every ask of a load run, how long opening the app took per session, and wall time."""

    asked: tuple[Asked, ...]
    opened: tuple[float, ...]
    seconds: float


def plan(questions: Sequence[str], sessions: int, asks: int) -> list[list[str]]:
    """The questions each session asks: consecutive runs through the list, wrapping round."""
    return [
        [questions[(s * asks + n) % len(questions)] for n in range(asks)] for s in range(sessions)
    ]


def drive(
    url: str,
    plans: Sequence[Sequence[str]],
    *,
    distinct_budgets: bool = False,
    models: dict[int, str] | None = None,
) -> LoadRun:
    """Run every session's plan at once, one thread per session, all starting together.

    `models` maps a session number to a model endpoint's base URL that session asks with
    (the OpenAI-compatible reasoner); the others use the offline reasoner.
    """
    ready = threading.Barrier(len(plans), timeout=DEADLINE)
    models = models or {}

    def session(number: int) -> tuple[float, list[Asked]]:
        client = Session(url)
        try:
            opened = client.run()
            if opened.status != FINISHED or opened.exceptions:
                raise RuntimeError(f"session {number} did not open: {opened.exceptions}")
            if number in models:
                client.use_model(models[number], "load-model")
            ready.wait()
            done = []
            for question in plans[number]:
                budget = 40 + number if distinct_budgets else None
                rerun = client.ask(question, budget_nodes=budget)
                decision = client.decision() if rerun.banners else {}
                done.append(
                    Asked(
                        session=number,
                        question=question,
                        seconds=rerun.seconds,
                        banners=tuple(rerun.banners),
                        exceptions=tuple(rerun.exceptions),
                        finished=rerun.status == FINISHED,
                        decision_question=decision.get("question"),
                        decision_label=(decision.get("decision") or {}).get("label"),
                        finished_at=time.monotonic(),
                        reasoner="openai" if number in models else "offline",
                    )
                )
            return opened.seconds, done
        finally:
            client.close()

    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=len(plans)) as pool:
        outcomes = list(pool.map(session, range(len(plans)), timeout=DEADLINE * 3))
    return LoadRun(
        asked=tuple(a for _, done in outcomes for a in done),
        opened=tuple(seconds for seconds, _ in outcomes),
        seconds=time.perf_counter() - started,
    )


def lab_questions() -> list[dict[str, Any]]:
    lines = (LAB / "questions.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def expected_banner(case: dict[str, Any]) -> str:
    """How the banner of a questions.jsonl case starts, from its declared outcome."""
    if case.get("banner"):  # the headline the app shows: a cause, or a failure by its kind
        banner: str = case["banner"]
        return banner
    if case["label"] == "ANSWER":
        return f"ANSWER — {case['status']}"
    if case["label"] == "HEDGED ANSWER":
        return "HEDGED ANSWER — inferred"
    return f"ABSTAIN — {', '.join(case['reasons'])}"


def run() -> Iterator[dict[str, Any]]:
    questions = [case["question"] for case in lab_questions()]
    with tempfile.TemporaryDirectory() as tmp:
        lab = Path(tmp) / "momentum-lab"
        shutil.copytree(LAB, lab, ignore=shutil.ignore_patterns(".synapse"))
        with running_app(lab, Path(tmp) / "app.log") as url:
            # Warm up: the first run imports the pages and opens and indexes the workspace.
            drive(url, plan(questions, 1, 1))
            for phase, sessions, distinct in (
                ("alone", 1, True),
                ("shared cache", SESSIONS, False),
                ("own budgets", SESSIONS, True),
            ):
                load = drive(url, plan(questions, sessions, ASKS), distinct_budgets=distinct)
                times = [a.seconds * 1000.0 for a in load.asked]
                failed = sum(
                    1 for a in load.asked if a.exceptions or not a.finished or len(a.banners) != 1
                )
                where = f"{sessions} session{'s' if sessions > 1 else ''} × {ASKS} asks, {phase}"
                yield row(f"ask p50, {where}", median(times), "ms")
                yield row(f"ask p95, {where}", percentile(times, 95), "ms")
                yield row(f"open p50, {where}", median([s * 1000 for s in load.opened]), "ms")
                yield row(f"wall time, {where}", load.seconds, "s")
                yield row(f"failed asks, {where}", failed, "asks", target="0", meets=failed == 0)
            yield from _beside_a_trickling_model(url, questions)
            yield from _beside_the_longest_question(url, questions)
            yield from _a_48_kb_link(url)


def _beside_a_trickling_model(url: str, questions: list[str]) -> Iterator[dict[str, Any]]:
    """19 offline sessions while one session's model endpoint trickles its reply."""
    # The test server lives with the tests; the bench only borrows it.
    from tests.chat_server import ChatServer, trickle

    plans = plan(questions, SESSIONS, ASKS)
    plans[0] = plans[0][:1]
    with ChatServer(trickle('{"dag": {}}' + " " * 4000, 0.5)) as endpoint:
        load = drive(url, plans, distinct_budgets=True, models={0: endpoint.base_url})
    offline = [a for a in load.asked if a.reasoner == "offline"]
    [model] = [a for a in load.asked if a.reasoner == "openai"]
    times = [a.seconds * 1000.0 for a in offline]
    failed = sum(1 for a in offline if a.exceptions or not a.finished or len(a.banners) != 1)
    where = f"{SESSIONS - 1} offline sessions × {ASKS} asks beside 1 trickling model"
    yield row(f"ask p50, {where}", median(times), "ms")
    yield row(f"ask p95, {where}", percentile(times, 95), "ms")
    yield row(f"failed asks, {where}", failed, "asks", target="0", meets=failed == 0)
    yield row(
        "trickling model ask, abstains at its 30 s deadline",
        model.seconds,
        "s",
        target="≤ 35 s",
        meets=model.seconds <= 35
        and bool(model.banners)
        and model.banners[0].startswith("ABSTAIN"),
    )


def _beside_the_longest_question(url: str, questions: list[str]) -> Iterator[dict[str, Any]]:
    """19 sessions asking as usual while one asks questions at the length cap."""
    from bench.bench_budgets import longest_question

    plans = plan(questions, SESSIONS, ASKS)
    plans[0] = [longest_question(seed) for seed in range(ASKS)]
    load = drive(url, plans, distinct_budgets=True)
    others = [a for a in load.asked if a.session != 0]
    longest = [a for a in load.asked if a.session == 0]
    times = [a.seconds * 1000.0 for a in others]
    failed = sum(1 for a in load.asked if a.exceptions or not a.finished or len(a.banners) != 1)
    where = f"{SESSIONS - 1} sessions × {ASKS} asks beside 1 asking {ASKS} longest questions"
    yield row(f"ask p50, {where}", median(times), "ms")
    yield row(f"ask p95, {where}", percentile(times, 95), "ms")
    yield row("longest allowed question, slowest of its asks", max(a.seconds for a in longest), "s")
    yield row(f"failed asks, {where}", failed, "asks", target="0", meets=failed == 0)


def _a_48_kb_link(url: str) -> Iterator[dict[str, Any]]:
    """A session opening a `?q=` link 48 KB long: refused with a message, not answered."""
    client = Session(url)
    try:
        client.run()
        question = ("momentum returns persist after costs " * 1400)[:48_000]
        rerun = client.run(query="q=" + urllib.parse.quote(question))
    finally:
        client.close()
    refused = any(
        a.body.startswith("Cannot ask: the question is 48,000") for a in rerun.of("alert")
    )
    yield row(
        "a 48 KB ?q= link, refused",
        rerun.seconds * 1000.0,
        "ms",
        target="refused, no answer",
        meets=refused and not rerun.banners,
    )

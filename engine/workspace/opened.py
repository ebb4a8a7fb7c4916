"""A workspace opened for work: notes loaded, index up to date, and a worker that calls it."""

from __future__ import annotations

import contextlib
import hashlib
import os
import threading
from collections.abc import Callable
from concurrent import futures
from concurrent.futures import Future
from dataclasses import dataclass, replace
from enum import StrEnum
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

from engine.core.errors import WorkspaceError
from engine.core.heap import give_back
from engine.models.encoder import EncoderChoice, load_encoder
from engine.workspace.cache_prune import prune_now_and_then
from engine.workspace.index import Index, UpdateStats
from engine.workspace.index_reader import index_from_snapshot
from engine.workspace.semantic import Meaning, open_meaning
from engine.workspace.source_texts import source_keys
from engine.workspace.stores import LoadProblem, Workspace, load_workspace
from engine.workspace.threads import DaemonPool
from engine.workspace.watch import Watcher

P = ParamSpec("P")
T = TypeVar("T")
WORDS_ALONE = Meaning(None)
# Model calls in flight at once per workspace; each is bounded by its endpoint deadline.
MODEL_WORKERS = 4
# Offline answers computed at once per workspace, so one long question never holds the
# others back (each is bounded by the question-length cap and the navigation budget).
ANSWER_WORKERS = 4
TICK_S = 0.25  # how often a page waiting on a model call gets control back


@dataclass(frozen=True, eq=False)
class OpenWorkspace:
    """A loaded workspace with its index brought up to date."""

    workspace: Workspace
    index: Index
    stats: UpdateStats
    # Sentence vectors for retrieval and relevance; without an encoder, words alone.
    meaning: Meaning = WORDS_ALONE
    # Whether the trained reader may judge paraphrases beside the vectors (for comparisons).
    paraphrase: bool = True

    @property
    def root(self) -> Path:
        return self.workspace.root

    @property
    def report(self) -> tuple[LoadProblem, ...]:
        return self.workspace.report

    @property
    def notice(self) -> str:
        """Why the index lives in memory for this run, or an empty string."""
        return self.index.notice

    @property
    def meaning_notice(self) -> str:
        """Why answers rest on words alone (or vectors are not saved), or an empty string."""
        return self.meaning.notice

    def close(self) -> None:
        self.index.close()


def open_workspace(
    path: str | os.PathLike[str],
    *,
    progress: Callable[[int, int], None] | None = None,
    encoder: EncoderChoice | None = None,
) -> OpenWorkspace:
    """Load the workspace at `path` and update its index and sentence vectors (only what
    changed is redone; `progress(done, total)` follows the sentences being encoded).

    `encoder` is the sentence encoder to bring the vectors up to date with (default: this
    process's choice); one with none opens on words alone and encodes nothing.
    """
    workspace = load_workspace(path)
    index = Index.open(workspace.root)
    stats = index.update(workspace)
    writable = index.path is not None
    if writable:  # the cache folder may be written: keep the sources' sentence offsets
        save_passages(workspace)
        # Deleted and moved workspaces leave their caches behind; let old ones go, daily.
        prune_now_and_then()
    meaning = open_meaning(
        workspace.root,
        workspace.notes.written.values(),
        load_encoder() if encoder is None else encoder,
        writable=writable,
        progress=progress,
    )
    # Reading every note and the vector file left tens of MB of freed temporaries, on the
    # opener's thread: the app's server would carry them for its whole life.
    give_back()
    return OpenWorkspace(workspace, index, stats, meaning)


def save_passages(workspace: Workspace) -> None:
    """Keep the sources' sentence offsets for the next load; a refusal only costs time."""
    if workspace.passages is not None:
        with contextlib.suppress(OSError, WorkspaceError):
            workspace.passages.save(workspace.root, source_keys(workspace.root))


def open_snapshot(
    path: str | os.PathLike[str], image: bytes, encoder: str | None = None
) -> OpenWorkspace:
    """Load the workspace at `path` with the index another process snapshot; writes nothing.

    For a process beside the one that opened it (a cluster worker): `encoder` names the
    opener's sentence encoder ("none" for words alone; default: this process's choice),
    whose vectors are read, never written. Raises WorkspaceError when the snapshot is not
    current for the notes loaded here.
    """
    workspace = load_workspace(path)
    index = index_from_snapshot(workspace, image)
    # The client brought the sentence vectors up to date; this process only reads them.
    meaning = open_meaning(
        workspace.root, workspace.notes.written.values(), load_encoder(encoder), writable=False
    )
    return OpenWorkspace(workspace, index, UpdateStats(0, 0, 0, len(workspace.notes), 0.0), meaning)


def words_alone(opened: OpenWorkspace) -> OpenWorkspace:
    """The same workspace with retrieval and relevance on words alone (for comparisons)."""
    return replace(opened, meaning=WORDS_ALONE)


class Reading(StrEnum):
    """How much of the machinery an answer may use, for side-by-side figures."""

    WORDS = "lexical"  # retrieval and relevance on words alone
    MEANING = "hybrid"  # with the sentence vectors, the trained reader kept out
    READER = "reader"  # with the vectors and the trained reader as a judge of paraphrase


def read_with(opened: OpenWorkspace, reading: Reading) -> OpenWorkspace:
    """The same workspace answering with only what `reading` allows."""
    if reading is Reading.WORDS:
        return words_alone(opened)
    return replace(opened, paraphrase=reading is Reading.READER)


def notes_fingerprint(workspace: Workspace) -> str:
    """A hash of every note's address and content: equal when two loads read the same notes."""
    digest = hashlib.sha256()
    for address, stamp, _ in workspace.notes.stamped():
        digest.update(f"{address}\x00{stamp.sha256}\n".encode())
    return digest.hexdigest()


@dataclass(frozen=True)
class MeaningState:
    """Whether a worker's sentence vectors are ready, and how far their build has come."""

    building: bool
    done: int = 0
    total: int = 0

    @property
    def ready(self) -> bool:
        """Whether answers use the vectors (or none are built): nothing is being built."""
        return not self.building


class Worker:
    """An opened workspace, with three kinds of thread to call it on.

    Engine calls (opening, offline overlay builds, page lookups) run one at a time on the
    engine thread. Offline answers run on a pool of `ANSWER_WORKERS` threads, so one
    session's long question is answered beside the others' instead of in front of them.
    Calls that wait on a model endpoint run on a separate, bounded pool of `MODEL_WORKERS`
    threads, so a slow endpoint can hold at most that pool. Every thread is a daemon: a
    stopped server exits whatever a call is waiting on. Its `watcher` is the one every
    session showing an answer from this workspace compares stamps with.
    """

    def __init__(self, root: str, *, encoder: EncoderChoice | None = None) -> None:
        self.watcher = Watcher(root)
        self._pool = DaemonPool(1, "synapse-workspace")
        self._answer_pool = DaemonPool(ANSWER_WORKERS, "synapse-answer")
        self._model_pool = DaemonPool(MODEL_WORKERS, "synapse-model")
        choice = load_encoder() if encoder is None else encoder
        # Opening runs on the worker's thread, so a page can draw before the load finishes.
        # It opens on words alone: encoding a large library's sentences takes minutes, so
        # the vectors are brought up to date beside it and answers use them once ready.
        self._opening: Future[OpenWorkspace] = self.submit(
            open_workspace, root, encoder=EncoderChoice(None, choice.notice)
        )
        # After a change, a large library's ranking view takes seconds to build (4 s at
        # 337,000 passages): it is made beside the first pages, not at the first question.
        self._ranking_pool = DaemonPool(1, "synapse-ranking")
        self.ranking: Future[None] = self._ranking_pool.submit(self._warm_ranking)
        self._encoded = (0, 0)
        self._meaning: Future[Meaning] | None = None
        if choice.encoder is not None:
            self._meaning_pool = DaemonPool(1, "synapse-meaning")
            self._meaning = self._meaning_pool.submit(self._bring_meaning, choice)

    @property
    def opened(self) -> OpenWorkspace:
        """The opened workspace, waiting for the load; raises the load's WorkspaceError.

        On words alone, saying so, until its sentence vectors are up to date (`meaning`).
        """
        opened = self._opening.result()
        if self._meaning is None:
            return opened
        if not self._meaning.done():
            done, total = self._encoded
            share = f" ({done:,}/{total:,} sentences)" if total else ""
            notice = (
                f"sentence vectors being brought up to date{share}; retrieval and relevance "
                "use words alone until they are ready"
            )
            return replace(opened, meaning=Meaning(None, notice))
        failed = self._meaning.exception()
        if failed is not None:  # never stops the workspace from answering on words
            notice = f"sentence vectors failed ({type(failed).__name__}: {failed}); words alone"
            return replace(opened, meaning=Meaning(None, notice))
        return replace(opened, meaning=self._meaning.result())

    @property
    def meaning(self) -> MeaningState:
        """How far the sentence vectors are: none to build, being built, or ready."""
        if self._meaning is None:
            return MeaningState(building=False)
        return MeaningState(
            building=not self._meaning.done(),
            done=self._encoded[0],
            total=self._encoded[1],
        )

    def wait_meaning(self, timeout: float) -> bool:
        """Whether the sentence vectors are ready (or none are built), after waiting up to
        `timeout` seconds for their build."""
        if self._meaning is not None:
            futures.wait([self._meaning], timeout=timeout)
        return self.meaning.ready

    def _bring_meaning(self, choice: EncoderChoice) -> Meaning:
        opened = self._opening.result()

        def tick(done: int, total: int) -> None:
            self._encoded = (done, total)

        meaning = open_meaning(
            opened.root,
            opened.workspace.notes.written.values(),
            choice,
            writable=opened.index.path is not None,
            progress=tick,
        )
        give_back()
        return meaning

    def _warm_ranking(self) -> None:
        # A failed load raises here, kept on the future: the pages show the load's error.
        self._opening.result().index.warm()

    def ready(self, *, wait: float = 0.0) -> bool:
        """Whether the load has finished, well or not, after waiting up to `wait` seconds."""
        if wait > 0:
            futures.wait([self._opening], timeout=wait)
        return self._opening.done()

    def failure(self) -> BaseException | None:
        """The load's exception once it finished with one, else None."""
        return self._opening.exception() if self._opening.done() else None

    def call(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
        return self.submit(fn, *args, **kwargs).result()

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        return self._pool.submit(fn, *args, **kwargs)

    def call_model(
        self,
        fn: Callable[..., T],
        /,
        *args: Any,
        cancel: threading.Event | None = None,
        tick: Callable[[], None] | None = None,
        **kwargs: Any,
    ) -> T:
        """Run a call that waits on a model endpoint on the model pool, and wait for it.

        While waiting, `tick()` runs every `TICK_S`; whatever it raises (a page
        interrupted because its user asked again or left) sets `cancel`, which the model client
        watches, and propagates.
        """
        return _wait(self.submit_model(fn, *args, **kwargs), cancel, tick)

    def call_answer(
        self,
        fn: Callable[..., T],
        /,
        *args: Any,
        tick: Callable[[], None] | None = None,
        **kwargs: Any,
    ) -> T:
        """Run an offline answer on the answer pool and wait for it.

        While waiting, `tick()` runs every `TICK_S`; if it raises (the page's user asked
        again or left) an answer still queued is dropped, so a session never piles up work.
        """
        return _wait(self._answer_pool.submit(fn, *args, **kwargs), None, tick)

    def submit_model(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        return self._model_pool.submit(fn, *args, **kwargs)

    def close(self) -> None:
        """Close the index once the load is over (queued behind it on the worker's thread)."""

        def finish() -> None:
            if self._opening.exception() is None:
                self._opening.result().close()

        self._model_pool.shutdown()
        self._answer_pool.shutdown()
        self._ranking_pool.shutdown()
        if self._meaning is not None:
            self._meaning_pool.shutdown()
        self.call(finish)
        self._pool.shutdown()


def _wait(future: Future[T], cancel: threading.Event | None, tick: Callable[[], None] | None) -> T:
    """The future's result; `tick()` runs every TICK_S meanwhile, and what it raises cancels."""
    if tick is None:
        return future.result()
    try:
        while True:
            done, _ = futures.wait([future], timeout=TICK_S)
            if done:
                return future.result()
            tick()
    except BaseException:
        if cancel is not None:
            cancel.set()
        future.cancel()  # when still queued behind other calls
        raise

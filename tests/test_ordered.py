"""Ordered runs on a real LocalCluster: results in input order, and no wait on no worker."""

import threading
import time
from collections.abc import Iterator

import pytest
from distributed import Client, Future, LocalCluster

from engine.distributed.cluster import ClusterError
from engine.distributed.ordered import Plan, Task, run_ordered

RELEASE = threading.Event()


def held() -> bool:
    """A task that runs until the test lets it go (at most a minute)."""
    return RELEASE.wait(60)


def slow_square(n: int) -> int:
    time.sleep(0.2 * (3 - n % 3))  # later items finish first
    return n * n


@pytest.fixture
def cluster() -> Iterator[LocalCluster]:
    # Worker threads in this process: the test stops them from here, as an ended process would.
    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False) as local:
        yield local


def test_results_come_back_in_input_order(cluster: LocalCluster) -> None:
    with Client(cluster) as client:
        tasks = [Task(f"item {n}", slow_square, (n,)) for n in range(6)]
        assert list(run_ordered(client, tasks, Plan(window=4))) == [n * n for n in range(6)]


def test_a_cluster_left_without_a_worker_stops_the_run_with_an_error(
    cluster: LocalCluster,
) -> None:
    with Client(cluster) as client:
        tasks = [Task(f"item {n}", held) for n in range(2)]
        # Every worker leaves once the tasks run; none comes back.
        threading.Timer(1.0, lambda: cluster.scale(0)).start()
        started = time.monotonic()
        try:
            with pytest.raises(ClusterError, match="no worker has been on the cluster for 1 s"):
                list(run_ordered(client, tasks, Plan(window=2, alone_s=1.0)))
        finally:
            RELEASE.set()
        assert time.monotonic() - started < 60  # before the tasks would have ended


def test_a_task_the_cluster_cancels_stops_the_run_naming_it(cluster: LocalCluster) -> None:
    RELEASE.clear()
    with Client(cluster) as client:
        tasks = [Task(f"item {n}", held) for n in range(2)]

        def cancel_all() -> None:
            client.cancel([Future(key, client) for key in list(client.futures)], force=True)

        threading.Timer(1.0, cancel_all).start()
        try:
            with pytest.raises(ClusterError, match="the cluster cancelled its task"):
                list(run_ordered(client, tasks, Plan(window=2)))
        finally:
            RELEASE.set()

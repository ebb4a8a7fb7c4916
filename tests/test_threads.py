import subprocess
import sys
import textwrap
import threading

import pytest

from engine.workspace.threads import DaemonPool
from tests.conftest import ROOT


def test_calls_run_in_order_and_errors_reach_the_caller() -> None:
    pool = DaemonPool(1, "test")
    seen: list[int] = []
    futures = [pool.submit(seen.append, n) for n in range(5)]
    for future in futures:
        future.result(timeout=10)
    assert seen == [0, 1, 2, 3, 4]
    with pytest.raises(ZeroDivisionError):
        pool.submit(lambda: 1 / 0).result(timeout=10)
    pool.shutdown()
    with pytest.raises(RuntimeError):
        pool.submit(print)


def test_a_queued_call_can_be_cancelled() -> None:
    pool = DaemonPool(1, "test")
    release = threading.Event()
    busy = pool.submit(release.wait)
    queued = pool.submit(lambda: "ran")
    assert queued.cancel()
    release.set()
    assert busy.result(timeout=10) is True
    assert queued.cancelled()


def test_a_stuck_call_does_not_keep_the_process_alive() -> None:
    script = textwrap.dedent(
        """
        import threading
        from engine.workspace.threads import DaemonPool
        pool = DaemonPool(2, "stuck")
        pool.submit(threading.Event().wait)
        print("submitted", flush=True)
        """
    )
    proc = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=30
    )
    assert proc.returncode == 0 and proc.stdout.strip() == "submitted", proc.stderr

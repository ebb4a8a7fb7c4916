import pytest

from engine.core.errors import WorkspaceError
from engine.workspace.opened import Worker


def test_a_worker_opens_in_the_background_and_serves_calls(lab_path):
    worker = Worker(str(lab_path))
    try:
        assert worker.ready(wait=60)
        assert worker.failure() is None
        assert len(worker.opened.workspace.notes) > 0
        assert worker.call(lambda: worker.opened.root) == lab_path.resolve()
    finally:
        worker.close()


def test_a_failed_open_is_reported_and_raised(tmp_path):
    worker = Worker(str(tmp_path / "missing"))
    try:
        assert worker.ready(wait=60)
        assert isinstance(worker.failure(), WorkspaceError)
        with pytest.raises(WorkspaceError, match="does not exist"):
            _ = worker.opened
    finally:
        worker.close()

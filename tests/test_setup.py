"""`.ci/need`: what `make` needs from the system, installed as root or named otherwise."""

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NEED = ROOT / ".ci" / "need"


def need(what: str, tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    fake = tmp_path / "bin"
    fake.mkdir(exist_ok=True)
    # An ordinary user: the script may not install anything.
    (fake / "id").write_text("#!/bin/sh\necho 1000\n")
    (fake / "id").chmod(0o755)
    path = f"{fake}:{os.environ['PATH']}"
    return subprocess.run(
        [str(NEED), what],
        env={**os.environ, "PATH": path, **env},
        capture_output=True,
        text=True,
        check=False,
    )


def test_a_present_chromium_needs_nothing(tmp_path: Path) -> None:
    browser = tmp_path / "chromium"
    browser.write_text("#!/bin/sh\n")
    browser.chmod(0o755)
    done = need("chromium", tmp_path, CHROMIUM=str(browser))
    assert (done.returncode, done.stderr) == (0, "")


def test_a_missing_chromium_names_the_one_command_to_run(tmp_path: Path) -> None:
    done = need("chromium", tmp_path, CHROMIUM=str(tmp_path / "absent"))
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "error: the Debian package chromium is missing; run: sudo apt-get install -y chromium"
    )


@pytest.mark.parametrize(
    ("python", "message"),
    [
        pytest.param("python3", "", id="ready"),
        pytest.param("false", "needs Python 3.11 or newer", id="no-python"),
    ],
)
def test_the_venv_need(tmp_path: Path, python: str, message: str) -> None:
    done = need("venv", tmp_path, PYTHON=python)
    assert (done.returncode == 0) == (not message)
    assert message in done.stderr


def test_an_unknown_need_is_an_error(tmp_path: Path) -> None:
    done = need("nothing", tmp_path)
    assert done.returncode == 2 and "unknown need" in done.stderr

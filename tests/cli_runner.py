"""Run the ``studio`` command: as a real subprocess, or in this process."""

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from studio.cli.main import main

REPO_ROOT = Path(__file__).resolve().parents[1]


def run_studio(
    *args: str, env: dict[str, str] | None = None, cwd: Path = REPO_ROOT
) -> subprocess.CompletedProcess:
    """``python -m studio ARGS`` in a child process, capturing text output."""
    return subprocess.run(
        [sys.executable, "-m", "studio", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env if env is not None else dict(os.environ),
        timeout=120,
    )


def studio(capsys: pytest.CaptureFixture[str], *args: str, expect: int = 0) -> tuple[str, str]:
    """``studio ARGS`` in process; its stdout and stderr, after checking its exit code."""
    code = main(list(args))
    out, err = capsys.readouterr()
    assert code == expect, (out, err)
    return out, err


def studio_json(capsys: pytest.CaptureFixture[str], *args: str, expect: int = 0) -> Any:
    """``studio ARGS --json`` in process; the JSON document it printed."""
    out, _err = studio(capsys, *args, "--json", expect=expect)
    return json.loads(out)

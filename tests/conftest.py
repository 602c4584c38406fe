"""Shared fixtures: every test gets its own Studio data directory."""

import os
from pathlib import Path

import pytest

# Qt tests render offscreen even when pytest is run without scripts/check.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

REPO_ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def studio_data_dir(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """A fresh data directory, so no test reads or writes the user's real one."""
    data_dir = tmp_path_factory.mktemp("studio-data")
    monkeypatch.setenv("STUDIO_DATA_DIR", str(data_dir))
    return data_dir

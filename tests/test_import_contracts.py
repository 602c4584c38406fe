"""The import contracts in pyproject.toml catch the imports ARCHITECTURE.md forbids."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli_runner import REPO_ROOT

LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def lint_copy_with(tmp_path: Path, module: str, source: str) -> subprocess.CompletedProcess:
    """Copy the package and its contracts, add one module, and run lint-imports on the copy."""
    shutil.copytree(
        REPO_ROOT / "src", tmp_path / "src", ignore=shutil.ignore_patterns("__pycache__")
    )
    shutil.copy(REPO_ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    target = tmp_path / "src" / Path(*module.split(".")).with_suffix(".py")
    target.write_text(source, encoding="utf-8")
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"],
        cwd=tmp_path,
        env={"PYTHONPATH": str(tmp_path / "src"), "PATH": ""},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_contracts_hold_for_the_code_as_it_is(tmp_path: Path) -> None:
    result = lint_copy_with(tmp_path, "studio.model.harmless", "import json\n")
    assert result.returncode == 0, result.stdout


@pytest.mark.parametrize(
    ("module", "source", "contract"),
    [
        (
            "studio.model.qt_leak",
            "import PySide6\n",
            "Qt, qasync and QtAwesome are imported only under studio.ui",
        ),
        (
            "studio.workspace_qt",
            "from PySide6 import QtCore\n",
            "Qt, qasync and QtAwesome are imported only under studio.ui",
        ),
        (
            "studio.model.loop_leak",
            "import qasync\n",
            "Qt, qasync and QtAwesome are imported only under studio.ui",
        ),
        (
            "studio.model.upward",
            "import studio.workspace\n",
            "studio.model imports nothing else of studio",
        ),
        (
            "studio.engine.rules.loop_leak",
            "import asyncio\n",
            "studio.engine.rules is pure: no engine machinery, store, knowledge or asyncio",
        ),
        (
            "studio.engine.rules.store_leak",
            "import studio.store\n",
            "studio.engine.rules is pure: no engine machinery, store, knowledge or asyncio",
        ),
        (
            "studio.ui.sql_leak",
            "import sqlalchemy\n",
            "SQLAlchemy is imported only under studio.store",
        ),
    ],
)
def test_a_forbidden_import_breaks_its_contract(
    tmp_path: Path, module: str, source: str, contract: str
) -> None:
    result = lint_copy_with(tmp_path, module, source)
    assert result.returncode != 0
    assert f"{contract} BROKEN" in result.stdout


def test_a_window_controller_importing_another_breaks_their_independence(
    tmp_path: Path,
) -> None:
    module = "studio.ui.window.run_docks"
    source = (REPO_ROOT / "src/studio/ui/window/run_docks.py").read_text(encoding="utf-8")
    result = lint_copy_with(tmp_path, module, source + "\nimport studio.ui.window.run_actions\n")
    assert result.returncode != 0
    assert "Window controllers do not import each other BROKEN" in result.stdout

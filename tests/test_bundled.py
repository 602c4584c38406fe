"""A non-editable install carries the built-in agents and the seed blueprints."""

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from studio.bundled import blueprints_dir, builtin_agents_dir
from tests.cli_runner import REPO_ROOT


def test_the_checkout_finds_its_bundled_folders() -> None:
    assert (builtin_agents_dir() / "demo-echo-agent.yaml").is_file()
    assert len(list(blueprints_dir().glob("*.yaml"))) == 5


@pytest.fixture(scope="module")
def installed_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Build a wheel of the project and unpack-install it (without dependencies) into a folder."""
    root = tmp_path_factory.mktemp("wheel")
    build = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "-q",
            "-w",
            str(root / "dist"),
            str(REPO_ROOT),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert build.returncode == 0, build.stderr
    wheel = next((root / "dist").glob("studio-*.whl"))
    target = root / "site"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(target)
    return target


def test_the_wheel_contains_agents_and_blueprints(installed_copy: Path) -> None:
    assert (installed_copy / "studio" / "resources" / "agents" / "demo-echo-agent.yaml").is_file()
    assert (installed_copy / "studio" / "blueprints" / "echo-demo-workflow.yaml").is_file()


def test_an_installed_copy_lists_blueprints_and_validates_with_built_in_agents(
    installed_copy: Path, tmp_path: Path
) -> None:
    env = dict(os.environ, PYTHONPATH=str(installed_copy))
    command = [sys.executable, "-m", "studio"]
    listing = subprocess.run(
        [*command, "blueprints", "list", "--json"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert listing.returncode == 0, listing.stderr
    entries = json.loads(listing.stdout)
    assert len(entries) == 5
    assert all(entry["file"].startswith(str(installed_copy)) for entry in entries)
    echo = next(entry["file"] for entry in entries if entry["name"] == "Echo Demo Workflow")
    check = subprocess.run(
        [*command, "validate", echo, "--publish"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert check.returncode == 0, check.stdout + check.stderr

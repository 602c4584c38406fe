"""``studio --version`` and ``studio --help`` start at once: building the parser loads no models,
no database layer, no engine, no Qt and none of the libraries behind them. Each is run in a fresh
interpreter as ``python -m studio`` would run it, which then lists every module it imported.

The ``work`` group's arguments need the queue's statuses and exits, which live with the models:
they are added when a ``work`` command is parsed, and read exactly as before."""

import argparse
import json
import subprocess
import sys

import pytest

from studio import __version__
from studio.cli.command_parser import CommandParser, add_arguments_when_used
from studio.cli.main import main
from studio.model.work_items import PORT_EXITS, STATUSES
from tests.cli_runner import REPO_ROOT

HEAVY_LIBRARIES = {
    "pydantic",
    "sqlalchemy",
    "PySide6",
    "shiboken6",
    "keyring",
    "markdown_it",
    "yaml",
}
STUDIO_LAYERS = ("model", "store", "engine", "knowledge", "fabric", "workspace", "ui")

LISTING_IMPORTS = """
import atexit, json, runpy, sys
atexit.register(lambda: print(json.dumps(sorted(sys.modules)), file=sys.stderr))
runpy.run_module("studio", run_name="__main__", alter_sys=True)
"""
"""Runs ``python -m studio ARGS`` and, on the way out, prints the imported modules' names."""


def modules_loaded_by(argument: str) -> tuple[str, list[str]]:
    """What ``python -m studio ARGUMENT`` prints on stdout, and the modules it imported."""
    run = subprocess.run(
        [sys.executable, "-c", LISTING_IMPORTS, argument],
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    return run.stdout, json.loads(run.stderr.splitlines()[-1])


def heavy_among(modules: list[str]) -> list[str]:
    """The heavy libraries and the studio layers under the command line among ``modules``."""
    return [
        name
        for name in modules
        if name.split(".")[0] in HEAVY_LIBRARIES
        or (name.startswith("studio.") and name.split(".")[1] in STUDIO_LAYERS)
    ]


@pytest.mark.parametrize(
    ("argument", "says"), [("--version", f"studio {__version__}"), ("--help", "usage: studio")]
)
def test_version_and_help_load_nothing_heavy(argument: str, says: str) -> None:
    printed, modules = modules_loaded_by(argument)
    assert says in printed
    assert "studio.cli.main" in modules  # the listing is of a run that built the parser
    assert heavy_among(modules) == []


def test_ack_help_names_every_exit(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as leaving:
        main(["work", "ack", "--help"])
    assert leaving.value.code == 0
    lines = capsys.readouterr().out.splitlines()
    assert ["EXIT", ", ".join(PORT_EXITS)] in [line.split(None, 1) for line in lines]


def test_an_unknown_status_is_refused_with_every_status_listed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as leaving:
        main(["work", "list", "--status", "lost"])
    assert leaving.value.code == 2
    listed = ", ".join(repr(status) for status in STATUSES)
    assert f"invalid choice: 'lost' (choose from {listed})" in capsys.readouterr().err


def test_arguments_left_for_later_are_added_once_on_first_use() -> None:
    calls: list[str] = []

    def add_late(parser: argparse.ArgumentParser) -> None:
        calls.append("added")
        parser.add_argument("--late", metavar="L")

    shown, parsed = CommandParser(prog="shown"), CommandParser(prog="parsed")
    for parser in (shown, parsed):
        add_arguments_when_used(parser, add_late)
    assert calls == []
    assert "--late L" in shown.format_help()
    assert parsed.parse_args(["--late", "x"]).late == "x"
    assert parsed.parse_args([]).late is None
    assert calls == ["added", "added"]

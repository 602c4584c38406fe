"""The README's two commands are the ones CI runs."""

import re

from tests.cli_runner import REPO_ROOT


def readme_commands() -> list[str]:
    text = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Two commands", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```bash\n(.+?)\n```", section)


def test_readme_gives_exactly_two_commands() -> None:
    commands = readme_commands()
    assert len(commands) == 2
    assert commands[0].endswith(".venv/bin/studio")


def test_ci_runs_the_readme_test_command_verbatim() -> None:
    ci_script = (REPO_ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert readme_commands()[1] in ci_script.splitlines()


def test_the_test_command_runs_ruff_import_contracts_types_and_pytest_offscreen() -> None:
    check = (REPO_ROOT / "scripts" / "check").read_text(encoding="utf-8")
    assert 'ruff" check' in check
    assert "lint-imports" in check
    assert '"$bin/mypy"' in check
    assert "QT_QPA_PLATFORM=offscreen" in check and "pytest" in check

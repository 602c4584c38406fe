"""The shell kind, with real child processes: argv, stdin, stdout, env, errors, killing."""

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from studio.engine.agent_kinds.base import AgentError
from studio.engine.agent_kinds.shell import ShellKind
from tests.engine.agent_kinds.calls import make_call, run
from tests.engine.agent_kinds.processes import is_gone, read_pids, wait_until_gone

REPO_ROOT = Path(__file__).resolve().parents[3]


def shell(argv: list, node_input: object = None, **settings: object) -> object:
    """Run the shell kind once with these settings."""
    return run(ShellKind(), make_call("shell", {"argv": argv, **settings}, node_input))


def failure_of(argv: list, **settings: object) -> AgentError:
    """The AgentError a shell call raises."""
    with pytest.raises(AgentError) as failure:
        shell(argv, **settings)
    return failure.value


def test_json_stdout_is_the_output() -> None:
    assert shell(["echo", '{"ok": true, "n": [1, 2]}']) == {"ok": True, "n": [1, 2]}


def test_other_stdout_is_text() -> None:
    assert shell(["echo", "hello there"]) == {"text": "hello there\n"}


def test_the_input_arrives_as_json_on_stdin() -> None:
    node_input = {"name": "Ada", "list": [1, None, "ü"]}
    assert shell(["cat"], node_input) == node_input


def test_argv_items_are_rendered_one_argument_each() -> None:
    script = "import json, sys; print(json.dumps(sys.argv[1:]))"
    argv = [sys.executable, "-c", script, "${input.name}", "n=${input.n}", "${input.n}"]
    assert shell(argv, {"name": "Ada Lovelace; rm -rf /", "n": 3}) == [
        "Ada Lovelace; rm -rf /",
        "n=3",
        "3",
    ]


def test_the_environment_holds_only_path_and_the_declared_variables() -> None:
    assert "HOME" in os.environ or "USER" in os.environ  # so that absence below means something
    output = shell(["env"], {"who": "Ada"}, env={"GREETING": "hi ${input.who}", "DEBUG": 1})
    variables = dict(line.split("=", 1) for line in output["text"].splitlines())
    assert set(variables) == {"PATH", "GREETING", "DEBUG"}
    assert variables["PATH"] == os.environ["PATH"]
    assert variables["GREETING"] == "hi Ada"
    assert variables["DEBUG"] == "1"


def test_python_programs_run_in_the_clean_environment() -> None:
    # No LANG or LC_*: Python still reads and writes UTF-8.
    script = "import json, sys; print(json.load(sys.stdin) + '✓')"
    assert shell([sys.executable, "-c", script], "ü") == {"text": "ü✓\n"}


def test_the_working_directory_is_set(tmp_path: Path) -> None:
    assert shell(["pwd"], cwd=str(tmp_path)) == {"text": f"{tmp_path}\n"}


def test_the_error_type_comes_from_the_last_stderr_line() -> None:
    script = (
        'echo "some noise" >&2; '
        'echo \'{"errorType": "RateLimited", "message": "slow down"}\' >&2; echo >&2; exit 3'
    )
    failure = failure_of(["sh", "-c", script])
    assert failure.error_type == "RateLimited"
    assert failure.message == "slow down"
    assert failure.details == {"exitCode": 3}


def test_a_plain_failure_is_a_process_exit_with_the_stderr_tail() -> None:
    failure = failure_of(["sh", "-c", "echo first >&2; echo 'it broke' >&2; exit 4"])
    assert failure.error_type == "ProcessExit"
    assert "exited with code 4" in failure.message
    assert "it broke" in failure.message


def test_a_missing_program_cannot_start() -> None:
    failure = failure_of(["studio-no-such-program-here"])
    assert failure.error_type == "ProcessStart"
    assert "studio-no-such-program-here" in failure.message


@pytest.mark.parametrize("argv", ["echo hello", [], ["echo", ["nested"]]])
def test_argv_must_be_a_list_of_strings(argv: object) -> None:
    assert failure_of(argv).error_type == "InvalidAgent"  # type: ignore[arg-type]


def test_a_missing_value_in_argv_is_a_template_error() -> None:
    failure = failure_of(["echo", "${input.absent}"])
    assert failure.error_type == "TemplateError"
    assert "argv[1]" in failure.message and "input.absent" in failure.message


def test_cancelling_kills_the_process_group_grandchildren_included(tmp_path: Path) -> None:
    pid_file = tmp_path / "pids"
    # The shell writes its own pid and its background grandchild's, then waits.
    script = f"sleep 30 & echo $$ $! > {pid_file}; wait"
    call = make_call("shell", {"argv": ["sh", "-c", script]})
    started = time.monotonic()
    with pytest.raises(TimeoutError):
        asyncio.run(asyncio.wait_for(ShellKind().run(call), 1.0))
    assert time.monotonic() - started < 3
    child, grandchild = read_pids(pid_file)
    assert is_gone(child)  # reaped by the kind, not left as a zombie
    assert wait_until_gone(grandchild)


def test_a_leftover_background_process_is_killed_when_the_program_ends(tmp_path: Path) -> None:
    pid_file = tmp_path / "pids"
    script = f"sleep 30 >/dev/null 2>&1 & echo $$ $! > {pid_file}; echo done"
    assert shell(["sh", "-c", script]) == {"text": "done\n"}
    assert wait_until_gone(read_pids(pid_file)[1])


def test_the_child_dies_with_a_killed_studio(tmp_path: Path) -> None:
    pid_file = tmp_path / "pids"
    studio = subprocess.Popen(
        [sys.executable, "-c", HOST_SCRIPT, f"echo $$ > {pid_file}; exec sleep 30"],
        cwd=REPO_ROOT,
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO_ROOT / "src"), str(REPO_ROOT)])},
    )
    try:
        child = wait_for_pid(pid_file, studio)
        os.kill(studio.pid, signal.SIGKILL)
        studio.wait(timeout=5)
        assert wait_until_gone(child)
    finally:
        if studio.poll() is None:
            studio.kill()
            studio.wait()


HOST_SCRIPT = """
import asyncio, sys
from studio.engine.agent_kinds.shell import ShellKind
from tests.engine.agent_kinds.calls import make_call
asyncio.run(ShellKind().run(make_call("shell", {"argv": ["sh", "-c", sys.argv[1]]})))
"""


def wait_for_pid(pid_file: Path, host: subprocess.Popen) -> int:
    """The pid a child writes once it has started; fails if the host process dies first."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if pid_file.exists() and pid_file.read_text().strip():
            return read_pids(pid_file)[0]
        assert host.poll() is None, "the host process ended before its child started"
        time.sleep(0.01)
    raise AssertionError("the child never wrote its pid")

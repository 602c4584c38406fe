"""The python kind: a function in a module of its own, called in a real child process."""

import asyncio
from pathlib import Path

import pytest

from studio.engine.agent_kinds.base import AgentError
from studio.engine.agent_kinds.python_function import PythonFunctionKind
from tests.engine.agent_kinds.calls import make_call, run
from tests.engine.agent_kinds.processes import cancel_once_started, read_pids, wait_until_gone

MODULE = """
import asyncio, os, subprocess, sys


class QuotaExceeded(Exception):
    pass


def scale(node_input, parameters):
    return {"value": node_input["value"] * parameters.get("factor", 2)}


async def slow_scale(node_input, parameters):
    await asyncio.sleep(0.01)
    return {"value": node_input["value"] * 10, "parameters": parameters}


def chatty(node_input, parameters):
    print("progress: half way")
    subprocess.run(["echo", "a child program talks too"], check=True)
    return "result"


def fail(node_input, parameters):
    raise QuotaExceeded("no more calls today")


def not_json(node_input, parameters):
    return {1, 2}


def environment(node_input, parameters):
    return sorted(os.environ)


def hang(node_input, parameters):
    with open(node_input, "w") as pid_file:
        pid_file.write(str(os.getpid()))
    import time
    time.sleep(30)


def stdlib_http(node_input, parameters):
    import http.client
    return http.client.__name__


class Tools:
    @staticmethod
    def shout(node_input, parameters):
        return node_input.upper()
"""


@pytest.fixture
def module_dir(tmp_path: Path) -> Path:
    """A folder holding ``studio_test_functions.py``, for the ``pythonpath`` setting."""
    (tmp_path / "studio_test_functions.py").write_text(MODULE, encoding="utf-8")
    return tmp_path


def call_function(module_dir: Path, name: str, node_input: object, **parameters: object) -> object:
    """Run ``studio_test_functions:<name>`` through the python kind."""
    settings = {"function": f"studio_test_functions:{name}", "pythonpath": [str(module_dir)]}
    call = make_call("python", settings, node_input, parameters)
    return run(PythonFunctionKind(), call)


def failure_of(module_dir: Path, name: str, node_input: object = None) -> AgentError:
    """The AgentError a python call raises."""
    with pytest.raises(AgentError) as failure:
        call_function(module_dir, name, node_input)
    return failure.value


def test_a_sync_function_gets_input_and_parameters(module_dir: Path) -> None:
    assert call_function(module_dir, "scale", {"value": 4}, factor=3) == {"value": 12}


def test_an_async_function_is_awaited(module_dir: Path) -> None:
    output = call_function(module_dir, "slow_scale", {"value": 4}, mode="x")
    assert output == {"value": 40, "parameters": {"mode": "x"}}


def test_a_static_method_can_be_named(module_dir: Path) -> None:
    assert call_function(module_dir, "Tools.shout", "hey") == "HEY"


def test_prints_do_not_corrupt_the_result(module_dir: Path) -> None:
    assert call_function(module_dir, "chatty", None) == "result"


def test_the_exception_class_becomes_the_error_type(module_dir: Path) -> None:
    failure = failure_of(module_dir, "fail")
    assert failure.error_type == "QuotaExceeded"
    assert failure.message == "no more calls today"


def test_a_result_that_is_not_json_is_reported(module_dir: Path) -> None:
    failure = failure_of(module_dir, "not_json")
    assert failure.error_type == "InvalidOutput"
    assert "not JSON" in failure.message


def test_a_missing_module_or_function_is_reported(module_dir: Path) -> None:
    assert failure_of(module_dir, "no_such_function").error_type == "AttributeError"
    with pytest.raises(AgentError) as failure:
        run(PythonFunctionKind(), make_call("python", {"function": "studio_absent_module:f"}))
    assert failure.value.error_type == "ModuleNotFoundError"
    assert "studio_absent_module" in failure.value.message


@pytest.mark.parametrize("settings", [{}, {"function": "no_colon"}, {"function": 3}])
def test_the_function_setting_is_checked(settings: dict) -> None:
    with pytest.raises(AgentError) as failure:
        run(PythonFunctionKind(), make_call("python", settings))
    assert failure.value.error_type == "InvalidAgent"


def test_studio_modules_do_not_shadow_the_standard_library(module_dir: Path) -> None:
    # agent_kinds/http.py sits next to the entry script; it must not hide the stdlib's http.
    assert call_function(module_dir, "stdlib_http", None) == "http.client"


def test_the_child_environment_is_clean(module_dir: Path) -> None:
    # Python may add LC_CTYPE itself when it coerces the C locale to UTF-8.
    variables = set(call_function(module_dir, "environment", None)) - {"LC_CTYPE"}
    assert variables == {"PATH"}


def test_cancelling_kills_the_child(module_dir: Path, tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    settings = {"function": "studio_test_functions:hang", "pythonpath": [str(module_dir)]}
    call = make_call("python", settings, str(pid_file))
    took = asyncio.run(cancel_once_started(PythonFunctionKind().run(call), pid_file))
    assert took < 2
    assert wait_until_gone(read_pids(pid_file)[0])

"""The ``python`` kind: call ``function(input, parameters)`` in a child Python process.

Settings:
    function: ``"package.module:function"``; the function may be sync or async and must
        return JSON-compatible data.
    pythonpath: optional list of folders put in front of ``sys.path`` before the import.

The child is this interpreter run isolated (``-I``: no PYTHON* variables, no user site, no
current directory on ``sys.path``) with the environment of the ``shell`` kind: PATH only.
An exception in the function becomes an AgentError whose type is the exception's class name.
"""

import json
import sys
from typing import Any, ClassVar

from studio.engine.agent_kinds import python_entry
from studio.engine.agent_kinds.base import AgentCall, AgentError, AgentKind, output_json
from studio.engine.agent_kinds.child_process import (
    clean_environment,
    failure_of,
    run_child,
    stderr_tail,
)
from studio.engine.agent_kinds.settings import invalid_agent, setting, string_list

_ENTRY_SCRIPT = python_entry.__file__


class PythonFunctionKind(AgentKind):
    """Runs a Python function in a subprocess, JSON in and out."""

    name: ClassVar[str] = "python"

    async def run(self, call: AgentCall) -> Any:
        """Call the function once and return what it returned."""
        function = setting(call, "function")
        if not isinstance(function, str) or ":" not in function:
            raise invalid_agent(call, "function", "must be written as 'package.module:function'")
        request = {
            "function": function,
            "pythonpath": string_list(call, "pythonpath", []),
            "input": call.input,
            "parameters": call.parameters,
        }
        argv = [sys.executable, "-I", _ENTRY_SCRIPT]
        stdin = json.dumps(request).encode("utf-8")
        result = (await run_child(argv, stdin, clean_environment({}))).without_secrets(call)
        command = f"python function {function!r}"
        if result.returncode != 0:
            raise failure_of(result, command)
        return _parse_result(result.stdout, result.stderr, command)


def _parse_result(stdout: str, stderr: str, command: str) -> Any:
    try:
        return output_json(stdout)
    except ValueError:
        # The entry script always writes JSON, so this means the child itself went wrong.
        message = f"{command} wrote no JSON result"
        tail = stderr_tail(stderr)
        raise AgentError("InvalidOutput", message + (f": {tail}" if tail else "")) from None

"""The child side of the ``python`` kind: call one function with JSON in, JSON out.

stdin holds ``{"function": "package.module:function", "pythonpath": [...], "input": ...,
"parameters": {...}}``. The function is called as ``function(input, parameters)`` (sync or
async) and its return value is written to stdout as JSON. A failure is reported as
``{"errorType": <exception class name>, "message": str(exc)}`` on the last line of stderr,
with exit code 1.

This file uses the standard library only and is run by path with ``python -I``, so a child
starts fast and Studio's own modules (``http.py`` among them) never shadow the stdlib.
Anything the function prints goes to stderr, so it cannot corrupt the JSON on stdout.
"""

import asyncio
import importlib
import inspect
import json
import os
import sys
import traceback
from typing import Any

_FAILED = 1


class InvalidOutput(Exception):  # its name is the reported errorType
    """The function returned something that is not JSON."""


class InvalidAgent(Exception):  # its name is the reported errorType
    """The function reference is not written as ``package.module:function``."""


def main() -> int:
    """Read the request, call the function, write its result; the exit code says how it went."""
    result_stream = _keep_stdout_for_the_result()
    try:
        request = json.loads(sys.stdin.buffer.read())
        function = load_function(request["function"], request.get("pythonpath", []))
        result = call(function, request.get("input"), request.get("parameters") or {})
        text = _encode(result)
    except BaseException as failure:  # every failure must reach the parent
        _report(failure)
        return _FAILED
    result_stream.write(text)
    result_stream.flush()
    return 0


def load_function(reference: str, pythonpath: list[str]) -> Any:
    """The callable named by ``package.module:function`` (``module:Class.method`` works too)."""
    module_name, _, attribute_path = reference.partition(":")
    if not module_name or not attribute_path:
        raise InvalidAgent(f"function {reference!r} is not written as 'package.module:function'")
    sys.path[:0] = pythonpath
    target: Any = importlib.import_module(module_name)
    for attribute in attribute_path.split("."):
        target = getattr(target, attribute)
    if not callable(target):
        raise InvalidAgent(f"{reference!r} is not callable")
    return target


def call(function: Any, node_input: Any, parameters: dict[str, Any]) -> Any:
    """Call the function, and run it to the end when it is a coroutine function."""
    result = function(node_input, parameters)
    if inspect.isawaitable(result):
        return asyncio.run(_wait_for(result))
    return result


async def _wait_for(awaitable: Any) -> Any:
    return await awaitable


def _keep_stdout_for_the_result() -> Any:
    # Point file descriptor 1 at stderr, so even prints from C code or child programs stay
    # off the result channel; the result goes to a private copy of the original stdout.
    sys.stdout.flush()
    result_fd = os.dup(1)
    os.dup2(2, 1)
    return os.fdopen(result_fd, "w", encoding="utf-8")


def _encode(result: Any) -> str:
    try:
        return json.dumps(result, allow_nan=False)
    except (TypeError, ValueError) as failure:
        raise InvalidOutput(f"the function's return value is not JSON: {failure}") from None


def _report(failure: BaseException) -> None:
    sys.stdout.flush()
    traceback.print_exception(failure, file=sys.stderr)
    error = {"errorType": type(failure).__name__, "message": str(failure)}
    sys.stderr.write("\n" + json.dumps(error) + "\n")
    sys.stderr.flush()


if __name__ == "__main__":
    sys.exit(main())

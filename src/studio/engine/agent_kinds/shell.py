"""The ``shell`` kind: run a program (never a shell string) with the node input on stdin.

Settings:
    argv: list of strings; each item is a template, so ``${input.name}`` becomes one argument
        however many spaces it holds. Use ``["sh", "-c", "..."]`` to ask for a shell.
    env: optional mapping of the variables the program gets (values are templates).
    cwd: optional working directory (a template).

The environment is clean: the program sees PATH (the parent's, unless ``env`` declares one)
and the declared variables, nothing else (no HOME, USER, LANG or secrets of the parent).
Python programs need nothing more: without LANG, Python 3.7+ coerces the C locale to UTF-8.

stdout is parsed as JSON; when it is not JSON the output is ``{"text": stdout}``. A non-zero
exit is an AgentError; see :func:`child_process.failure_of` for how its type is chosen.
"""

import json
import re
from typing import Any, ClassVar

from studio.engine.agent_kinds.base import AgentCall, AgentKind, output_json
from studio.engine.agent_kinds.child_process import clean_environment, failure_of, run_child
from studio.engine.agent_kinds.settings import (
    invalid_agent,
    rendered_text,
    setting,
    string_mapping,
)

_VARIABLE_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class ShellKind(AgentKind):
    """Runs a program given as an argv list, JSON in on stdin, JSON (or text) out on stdout."""

    name: ClassVar[str] = "shell"

    async def run(self, call: AgentCall) -> Any:
        """Run the program once and return its parsed stdout."""
        argv = _argv(call)
        env = clean_environment(_declared_environment(call))
        cwd = call.agent.settings.get("cwd")
        cwd_text = None if cwd is None else rendered_text(call, "cwd", cwd)
        stdin = json.dumps(call.input).encode("utf-8")
        result = (await run_child(argv, stdin, env, cwd_text)).without_secrets(call)
        if result.returncode != 0:
            raise failure_of(result, argv[0])
        return parse_stdout(result.stdout)


def parse_stdout(stdout: str) -> Any:
    """A program's output: its stdout as JSON, or ``{"text": stdout}`` when it is not JSON."""
    try:
        return output_json(stdout)
    except ValueError:
        return {"text": stdout}


def _argv(call: AgentCall) -> list[str]:
    templates = setting(call, "argv")
    if not isinstance(templates, list) or not templates:
        raise invalid_agent(call, "argv", "must be a non-empty list of strings, not a shell string")
    argv = [rendered_text(call, f"argv[{index}]", item) for index, item in enumerate(templates)]
    if not argv[0]:
        raise invalid_agent(call, "argv[0]", "must name a program")
    return argv


def _declared_environment(call: AgentCall) -> dict[str, str]:
    declared = string_mapping(call, "env")
    for variable in declared:
        if not _VARIABLE_NAME.match(variable):
            raise invalid_agent(call, "env", f"has an invalid variable name {variable!r}")
    return {name: rendered_text(call, f"env.{name}", value) for name, value in declared.items()}

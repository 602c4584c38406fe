"""What an agent's settings show on their own: a ``${…}`` substitution placed where its value
changes the meaning of the text around it.

Two places matter. Inside the script of ``sh -c`` the value is read by the shell, so text in it
can run commands (a warning: it is the documented escape hatch). In the scheme, host or port of
an http agent's URL the value would choose where the request goes (an error: the http kind
refuses it at run time too, with the same rule, :func:`url_origin_is_literal`).
"""

import re
from collections.abc import Iterator
from pathlib import PurePosixPath
from typing import Any

from studio.model.agents import AgentDefinition, AgentRegistry
from studio.model.problems import Problem, error, warning
from studio.model.workflow import Node

SUBSTITUTION = re.compile(r"(?<!\$)\$\{")
"""A ``${`` that starts a substitution (``$${`` writes a literal ``${``)."""

SHELLS = frozenset({"sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "yash"})
_OPTIONS_WITH_ARGUMENT = frozenset({"-o", "+o", "-O", "+O"})
_URL_PATH_MARKS = "/?#"


def has_substitution(text: str) -> bool:
    """Whether ``text`` holds a ``${…}`` substitution."""
    return SUBSTITUTION.search(text) is not None


def url_origin_is_literal(url: str) -> bool:
    """Whether the scheme, host and port of a URL template are written out in full before
    its first substitution (so no value can choose where the request goes)."""
    first = SUBSTITUTION.search(url)
    if first is None:
        return True
    _scheme, separator, after = url[: first.start()].partition("://")
    return bool(separator) and any(mark in after for mark in _URL_PATH_MARKS)


def shell_script_index(argv: list[Any]) -> int | None:
    """The index of the script in an argv that asks a shell to run one (``sh -c SCRIPT``)."""
    if not argv or not isinstance(argv[0], str) or PurePosixPath(argv[0]).name not in SHELLS:
        return None
    command_mode, index = False, 1
    while index < len(argv) and isinstance(argv[index], str):
        item = argv[index]
        if item in _OPTIONS_WITH_ARGUMENT:
            index += 2
        elif item.startswith("--") and item != "--":
            index += 1  # a long option such as --norc
        elif len(item) > 1 and item[0] in "-+" and item != "--":
            command_mode |= item[0] == "-" and "c" in item[1:]
            index += 1
        else:
            index += item == "--"
            break
    return index if command_mode and index < len(argv) else None


def agent_setting_problems(node: Node, agents: AgentRegistry) -> list[Problem]:
    """Problems in the settings of the node's agent and of its compensation tool."""
    problems: list[Problem] = []
    for role, definition in _agents_of(node, agents):
        problems.extend(_shell_script_warnings(node, role, definition))
        problems.extend(_url_origin_errors(node, role, definition))
    return problems


def _agents_of(node: Node, agents: AgentRegistry) -> Iterator[tuple[str, AgentDefinition]]:
    definition = agents.get(node.agent_id)
    if definition is not None:
        yield f"agent '{definition.id}'", definition
    if node.compensation is not None:
        tool = agents.get(node.compensation.tool)
        if tool is not None:
            yield f"its compensation tool '{tool.id}'", tool


def _shell_script_warnings(node: Node, role: str, definition: AgentDefinition) -> list[Problem]:
    argv = definition.settings.get("argv")
    if definition.kind != "shell" or not isinstance(argv, list):
        return []
    index = shell_script_index(argv)
    if index is None or not isinstance(argv[index], str) or not has_substitution(argv[index]):
        return []
    message = (
        f"{role} puts a ${{…}} substitution inside its shell script (settings.argv[{index}]): "
        "the substituted value is interpreted by the shell, so text in it can run commands; "
        'pass the value as its own argv item after the script and read it as "$1" '
        "(or declare it in env) instead"
    )
    return [warning("shell.template-in-script", message, node_id=node.id)]


def _url_origin_errors(node: Node, role: str, definition: AgentDefinition) -> list[Problem]:
    url = definition.settings.get("url")
    if definition.kind != "http" or not isinstance(url, str) or url_origin_is_literal(url):
        return []
    message = (
        f"{role} has a ${{…}} substitution in the scheme, host and port of settings.url; "
        "write them out in full (https://host:port/…) and substitute only in the path or query"
    )
    return [error("http.url-origin-template", message, node_id=node.id)]

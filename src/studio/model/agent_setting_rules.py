"""What an agent's settings show on their own: a ``${…}`` substitution placed where its value
changes the meaning of the text around it.

Two places matter. Inside the script of ``sh -c`` or the code of ``python3 -c`` (also behind a
launcher such as ``env`` or ``timeout 5``, see :mod:`studio.model.argv_code`) the value is read
as code, so text in it can run commands (a warning: it is the documented escape hatch). In the
scheme, host or port of an http agent's URL the value would choose where the request goes (an
error: the http kind refuses it at run time too, with the same rule, :func:`url_origin_is_literal`).
"""

import re
from collections.abc import Iterator
from urllib.parse import urlsplit

from studio.model.agents import AgentDefinition, AgentRegistry
from studio.model.argv_code import SHELL, CodeInArgv, code_in_argv
from studio.model.problems import Problem, error, warning
from studio.model.workflow import Node

SUBSTITUTION = re.compile(r"(?<!\$)\$\{")
"""A ``${`` that starts a substitution (``$${`` writes a literal ``${``)."""

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


def agent_setting_problems(node: Node, agents: AgentRegistry) -> list[Problem]:
    """Problems in the settings of the node's agent and of its compensation tool."""
    problems: list[Problem] = []
    for role, definition in _agents_of(node, agents):
        problems.extend(_code_template_warnings(node, role, definition))
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


def _code_template_warnings(node: Node, role: str, definition: AgentDefinition) -> list[Problem]:
    argv = definition.settings.get("argv")
    if definition.kind != "shell" or not isinstance(argv, list):
        return []
    code = code_in_argv(argv)
    text = None if code is None else argv[code.index]
    if code is None or not isinstance(text, str) or not has_substitution(text):
        return []
    message = f"{role} {_code_template_message(code)}"
    return [warning("shell.template-in-script", message, node_id=node.id)]


def _code_template_message(code: CodeInArgv) -> str:
    place = f"settings.argv[{code.index}]"
    stdin = "or read an input value from the JSON the shell kind sends on stdin, instead"
    if code.interpreter is SHELL:
        return (
            f"puts a ${{…}} substitution inside its shell script for {code.program} ({place}): "
            "the substituted value is interpreted by the shell, so text in it can run commands; "
            'pass the value as its own argv item (after the script and a name for "$0") and read '
            f'it as "$1", declare it in env, {stdin}'
        )
    language = code.interpreter.language
    return (
        f"puts a ${{…}} substitution inside the {language} code it gives {code.program} "
        f"({place}): the substituted value is interpreted by {code.program} as {language} code, "
        "so text in it can run commands; pass the value as its own argv item after the code and "
        f"read it as {code.interpreter.argument}, {stdin}"
    )


def _url_origin_errors(node: Node, role: str, definition: AgentDefinition) -> list[Problem]:
    url = definition.settings.get("url")
    if definition.kind != "http" or not isinstance(url, str) or url_origin_is_literal(url):
        return []
    message = (
        f"{role} has a ${{…}} substitution in the scheme, host and port of settings.url; "
        "write them out in full (https://host:port/…) and substitute only in the path or query"
    )
    return [error("http.url-origin-template", message, node_id=node.id)]


def http_url_problem(url: str) -> str | None:
    """What keeps ``url`` from being an http agent's URL template, or None: the scheme
    (http or https) and the host must be written out before any substitution."""
    if not url_origin_is_literal(url):
        return (
            "has a ${…} substitution in the scheme, host or port; write them out in full "
            "(https://host:port/…) and substitute only in the path or query"
        )
    first = SUBSTITUTION.search(url)
    written = url if first is None else url[: first.start()]
    try:
        parts = urlsplit(written)
    except ValueError as failure:
        return f"is not a valid URL: {failure}"
    if parts.scheme.lower() not in ("http", "https") or not written.partition("://")[1]:
        return "must start with http:// or https://"
    if not parts.hostname:
        return "has no host: write it after the scheme, as in http://example.org/…"
    return None

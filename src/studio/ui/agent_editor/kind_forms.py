"""The agent kinds a person can make in the app, and the settings form of each.

One table drives the palette's "new agent" entries and the editor's settings form: a kind's
title, what it does, and for each setting the editor it gets, whether the kind requires it
and the hint shown under it. Only settings the kind's engine code reads are listed.
"""

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from studio.model.agent_setting_rules import http_url_problem

Check = Callable[[Any], str | None]
"""What is wrong with a setting's value (never None itself), or None."""

TEMPLATE_HINT = (
    "Substitute values with ${input.name}, ${parameters.name} or ${config.name}; "
    "$${ writes a literal ${."
)


class Editor(Enum):
    """How a setting is edited."""

    LINE = "line"  # one line of text
    TEXT = "text"  # several lines of text
    LIST = "list"  # a list of texts, reorderable
    PAIRS = "pairs"  # a two-column table that becomes a mapping
    JSON = "json"  # any JSON value, typed as JSON text
    CHOICE = "choice"  # one of a few texts
    NUMBER = "number"  # a number
    WHOLE_NUMBER = "whole number"  # a whole number


@dataclass(frozen=True)
class SettingField:
    """One setting of a kind, as the form shows it."""

    key: str
    label: str
    editor: Editor
    required: bool = False
    hint: str = ""
    placeholder: str = ""
    columns: tuple[str, str] = ("Name", "Value")
    choices: tuple[str, ...] = ()
    check: Check | None = None


@dataclass(frozen=True)
class KindForm:
    """A kind that can be made in the app: its palette title and its settings form."""

    kind: str
    title: str
    summary: str
    fields: tuple[SettingField, ...] = ()
    starter: dict[str, Any] = field(default_factory=dict)
    sample_input: str = "{}"
    can_try: bool = True
    note: str = ""


def _python_function_problem(value: Any) -> str | None:
    if isinstance(value, str) and ":" in value.strip(":"):
        return None
    return "must be written as 'package.module:function'"


def _argv_problem(value: Any) -> str | None:
    if isinstance(value, list) and value and not value[0]:
        return "The first item must name the program."
    return None


def _url_problem(value: Any) -> str | None:
    return http_url_problem(value) if isinstance(value, str) else None


HTTP = KindForm(
    "http",
    "HTTP request",
    "Sends one HTTP request; a JSON answer is the output.",
    (
        SettingField(
            "url",
            "URL",
            Editor.LINE,
            required=True,
            placeholder="https://api.example.org/items/${input.id}",
            hint="Write the scheme, host and port in full. In the path or the query, put "
            "values with ${input.name}, ${parameters.name} or ${config.name}; they are "
            "percent-encoded. $${ writes a literal ${.",
            check=_url_problem,
        ),
        SettingField(
            "method",
            "Method",
            Editor.CHOICE,
            choices=("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"),
        ),
        SettingField("headers", "Headers", Editor.PAIRS, columns=("Header", "Value")),
        SettingField("params", "Query", Editor.PAIRS, columns=("Query parameter", "Value")),
        SettingField(
            "body",
            "Body",
            Editor.JSON,
            hint="A JSON template sent as the body. Empty: the node's input is sent "
            "(nothing for GET and HEAD).",
        ),
    ),
    starter={"method": "GET"},
)
SHELL = KindForm(
    "shell",
    "Shell command",
    "Runs a program with the node's input as JSON on stdin; JSON on stdout is the output.",
    (
        SettingField(
            "argv",
            "Command",
            Editor.LIST,
            required=True,
            placeholder="program or argument",
            hint="The program, then one argument per row (never one string to be split). "
            + TEMPLATE_HINT,
            check=_argv_problem,
        ),
        SettingField(
            "env",
            "Environment",
            Editor.PAIRS,
            columns=("Variable", "Value"),
            hint="The program sees PATH and these variables only.",
        ),
        SettingField("cwd", "Working folder", Editor.LINE, placeholder="(Studio's own)"),
    ),
    sample_input='{"message": "hello"}',
)
PYTHON = KindForm(
    "python",
    "Python function",
    "Calls function(input, parameters) in a separate Python process.",
    (
        SettingField(
            "function",
            "Function",
            Editor.LINE,
            required=True,
            placeholder="package.module:function",
            check=_python_function_problem,
        ),
        SettingField(
            "pythonpath",
            "Python path",
            Editor.LIST,
            placeholder="/folder/with/packages",
            hint="Folders searched first for the function's module.",
        ),
    ),
)
LLM = KindForm(
    "llm",
    "LLM chat",
    "Asks an OpenAI-compatible chat server; the answer's text is the output.",
    (
        SettingField(
            "baseUrl",
            "Base URL",
            Editor.LINE,
            required=True,
            placeholder="http://localhost:11434/v1",
            hint="The request goes to {base URL}/chat/completions.",
        ),
        SettingField("model", "Model", Editor.LINE, required=True, placeholder="llama3.2"),
        SettingField(
            "apiKeyRef",
            "API key",
            Editor.LINE,
            placeholder="env:OPENAI_API_KEY",
            hint="A credential reference (env:NAME or keyring:SERVICE/NAME), resolved when "
            "the agent is called; the key itself is never written here.",
        ),
        SettingField("systemPrompt", "System prompt", Editor.TEXT),
        SettingField(
            "prompt",
            "Prompt",
            Editor.TEXT,
            hint="Empty: the node's input is the prompt. " + TEMPLATE_HINT,
        ),
        SettingField("temperature", "Temperature", Editor.NUMBER),
        SettingField("maxTokens", "Max tokens", Editor.WHOLE_NUMBER),
    ),
    sample_input='"Say hello in five words."',
)
TRANSFORM = KindForm(
    "transform",
    "Transform",
    "Reshapes data with a template, no program involved.",
    (
        SettingField(
            "output",
            "Output",
            Editor.PAIRS,
            required=True,
            columns=("Key", "Expression"),
            hint="Each key of the output and the template that gives its value: "
            "${input.items[0].name} keeps the value's type; text around it makes a string.",
        ),
    ),
    sample_input='{"name": "Ada"}',
)
APPROVAL = KindForm(
    "approval",
    "Approval",
    "Waits for a person to approve, then passes its input on unchanged.",
    note="Try it passes the input on as an approved call would; no person is asked.",
)
ARTIFACT = KindForm(
    "artifact",
    "Land artifact",
    "Lands Markdown in the knowledge store, with the run's provenance.",
    (
        SettingField(
            "template",
            "Markdown",
            Editor.TEXT,
            hint="Empty: the input's 'markdown' field, or the input when it is text. "
            + TEMPLATE_HINT,
        ),
    ),
    can_try=False,
    note="Landing cannot be undone, so Try it is off for this kind: it lands when the "
    "workflow runs.",
)

KIND_FORMS: tuple[KindForm, ...] = (HTTP, SHELL, PYTHON, LLM, TRANSFORM, APPROVAL, ARTIFACT)
"""Every kind the palette offers to make, in the order it lists them."""


def kind_form(kind: str) -> KindForm:
    """The form of ``kind`` (KeyError for a kind that cannot be made in the app)."""
    for form in KIND_FORMS:
        if form.kind == kind:
            return form
    raise KeyError(kind)

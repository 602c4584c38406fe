"""Reading a kind's settings from an agent definition: checked, rendered, clearly reported.

Every problem becomes an AgentError whose message names the agent and the setting, so a
person can find the line to fix in the agent's YAML file.
"""

from collections.abc import Mapping
from typing import Any

from studio.engine.agent_kinds.base import AgentCall, AgentError
from studio.engine.rules.templates import TemplateError, as_text, render, render_text

_MISSING = object()


def invalid_agent(call: AgentCall, setting: str, expected: str) -> AgentError:
    """The error for a setting that is missing or of the wrong shape."""
    agent = call.agent
    return AgentError(
        "InvalidAgent", f"agent '{agent.id}' ({agent.kind}): settings.{setting} {expected}"
    )


def setting(call: AgentCall, name: str, default: Any = _MISSING) -> Any:
    """The raw value of a setting; without a default, a missing setting is an InvalidAgent."""
    value = call.agent.settings.get(name, default)
    if value is _MISSING:
        raise invalid_agent(call, name, "is required")
    return value


def rendered(call: AgentCall, name: str, template: Any) -> Any:
    """A setting's template rendered against the call's context, JSON types kept."""
    try:
        return render(template, call.template_context())
    except TemplateError as failure:
        raise template_failure(call, name, failure) from None


def rendered_text(call: AgentCall, name: str, template: Any) -> str:
    """A setting's string template rendered to text; a number or boolean reads as JSON text."""
    if isinstance(template, int | float):  # bool included: YAML ``DEBUG: true`` reads "true"
        return as_text(template)
    if not isinstance(template, str):
        raise invalid_agent(call, name, f"must be a string, not {type(template).__name__}")
    try:
        return render_text(template, call.template_context())
    except TemplateError as failure:
        raise template_failure(call, name, failure) from None


def string_list(call: AgentCall, name: str, default: Any = _MISSING) -> list[str]:
    """A setting that must be a list of strings (never one string to be split)."""
    value = setting(call, name, default)
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise invalid_agent(call, name, "must be a list of strings")
    return value


def string_mapping(call: AgentCall, name: str) -> dict[str, Any]:
    """An optional setting that must be a mapping with string keys (empty when absent)."""
    value = setting(call, name, {})
    if not isinstance(value, Mapping) or not all(isinstance(key, str) for key in value):
        raise invalid_agent(call, name, "must be a mapping with string keys")
    return dict(value)


def template_failure(call: AgentCall, name: str, failure: TemplateError) -> AgentError:
    """The error for a setting whose template cannot be rendered, naming the reference."""
    message = f"agent '{call.agent.id}': settings.{name}: {failure}"
    details = {"setting": name}
    if failure.reference is not None:
        details["reference"] = failure.reference
    return AgentError("TemplateError", message, details)

"""What keeps a definition made in the editor from being saved, by field: the loader's rules,
the settings the kind requires and the checks of the kind form, and an id already taken."""

from collections.abc import Container, Mapping
from typing import Any

from studio.model.agent_files import definition_problems
from studio.ui.agent_editor.kind_forms import KindForm

REQUIRED = "Required, and not set."


def setting_problems(form: KindForm, settings: Mapping[str, Any]) -> dict[str, str]:
    """Problems of the kind's settings, keyed ``settings.<key>``."""
    problems: dict[str, str] = {}
    for field in form.fields:
        value = settings.get(field.key)
        problem = None
        if value is None:
            problem = REQUIRED if field.required else None
        elif field.check is not None:
            problem = field.check(value)
        if problem is not None:
            problems[f"settings.{field.key}"] = problem
    return problems


def agent_problems(
    form: KindForm, data: Mapping[str, Any], taken: Container[str]
) -> dict[str, str]:
    """Every problem of the definition ``data``, the loader's first, keyed by field."""
    problems = definition_problems(data)
    for key, problem in setting_problems(form, data.get("settings", {})).items():
        problems.setdefault(key, problem)
    agent_id = data.get("id")
    if "id" not in problems and agent_id in taken:
        problems["id"] = f"An agent with the id '{agent_id}' exists already; choose another."
    return problems

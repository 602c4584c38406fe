"""One entry point that validates definition data, structurally and optionally for publishing."""

from collections.abc import Container
from typing import Any

from studio.model.problems import Problem, has_errors
from studio.model.publish_rules import override_warnings, publish_problems
from studio.model.structure import parse_workflow, reference_problems
from studio.model.workflow import Workflow


def validate_definition(
    data: Any,
    *,
    publish: bool = False,
    known_agents: Container[str] = frozenset(),
    prompt_cap: int | None = None,
) -> list[Problem]:
    """Every problem in a loaded definition: structure first; publish rules if asked and sound."""
    workflow, problems = parse_workflow(data)
    if workflow is None or has_errors(problems):
        return problems
    if publish:  # publish_problems repeats the structural checks, which passed here
        return publish_problems(workflow, known_agents, prompt_cap)
    return problems + override_warnings(workflow, prompt_cap)


def publish_readiness(
    workflow: Workflow, known_agents: Container[str], prompt_cap: int | None = None
) -> tuple[list[Problem], bool]:
    """What stands between a workflow as drawn and publishing it, and whether it is a sound
    workflow already (True: what is left is only what publishing asks more, such as real
    agents in place of placeholders)."""
    problems = publish_problems(workflow, known_agents, prompt_cap, template=workflow.is_blueprint)
    return problems, not has_errors(reference_problems(workflow))

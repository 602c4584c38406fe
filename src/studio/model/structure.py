"""Structural validation: turn raw definition data into a Workflow, or say what is malformed."""

import re
from collections import Counter
from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from studio.model.annotation_checks import annotation_problems
from studio.model.graph import find_cycle
from studio.model.identifiers import identifier_problem, is_identifier
from studio.model.problems import Problem, error
from studio.model.structure_words import describe_invalid
from studio.model.workflow import Workflow


class DefinitionError(ValueError):
    """A definition that cannot be loaded; ``problems`` lists every reason."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("; ".join(problem.describe() for problem in problems))
        self.problems = problems


def parse_workflow(data: Any) -> tuple[Workflow | None, list[Problem]]:
    """Build a Workflow from loaded YAML/JSON data and list every structural error.

    The workflow is None when the data does not fit the model at all.
    """
    if not isinstance(data, Mapping):
        kind = type(data).__name__
        return None, [
            error("structure.not-a-mapping", f"expected a mapping at the top, got {kind}")
        ]
    try:
        workflow = Workflow.model_validate(dict(data))
    except ValidationError as invalid:
        items = [item for item in invalid.errors() if not _is_underived_edge_id(item, data)]
        return None, [_problem_from_pydantic(item, data) for item in items]
    return workflow, reference_problems(workflow)


def load_workflow_data(data: Any) -> Workflow:
    """Build a Workflow from loaded data, raising DefinitionError when it is malformed."""
    workflow, problems = parse_workflow(data)
    if workflow is None or any(problem.is_error for problem in problems):
        raise DefinitionError(problems)
    return workflow


def reference_problems(workflow: Workflow) -> list[Problem]:
    """Errors in how nodes and edges refer to each other: ids, duplicates, dangling ends,
    cycles."""
    problems = _identifier_problems(workflow) + _duplicate_problems(workflow)
    node_ids = {node.id for node in workflow.nodes}
    for edge in workflow.edges:
        for end in ("source", "target"):
            ref = getattr(edge, end)
            if ref not in node_ids:
                message = f"{end} '{ref}' is not a node of this workflow"
                problems.append(error("edge.missing-node", message, edge_id=edge.id))
    return (
        problems
        + _cycle_problems(workflow, node_ids)
        + credential_problems(workflow)
        + annotation_problems(workflow)
    )


CREDENTIAL_REFERENCE = re.compile(r"^(env:[A-Za-z_][A-Za-z0-9_]*|keyring:\S+/[^/\s]+)$")


def credential_problems(workflow: Workflow) -> list[Problem]:
    """Credentials must be references; a value that is not one may be a pasted secret,
    so the message never repeats it."""
    return [
        error(
            "credentials.not-a-reference",
            f"credentials.{name} must be a reference such as env:NAME or keyring:SERVICE/NAME; "
            "secrets are never written into a workflow",
            path=f"configuration.credentials.{name}",
        )
        for name, reference in workflow.configuration.credentials.items()
        if not CREDENTIAL_REFERENCE.match(reference)
    ]


def _identifier_problems(workflow: Workflow) -> list[Problem]:
    """Node ids outside the id pattern, in a workflow stored before the pattern held."""
    return [
        error("structure.identifier", problem, path=f"nodes[{index}].id")
        for index, node in enumerate(workflow.nodes)
        if (problem := identifier_problem(node.id, "node id")) is not None
    ]


def _duplicate_problems(workflow: Workflow) -> list[Problem]:
    node_counts = Counter(node.id for node in workflow.nodes)
    edge_counts = Counter(edge.id for edge in workflow.edges)
    problems = [
        error("node.duplicate-id", f"the id is used by {count} nodes", node_id=node_id)
        for node_id, count in node_counts.items()
        if count > 1
    ]
    problems += [
        error("edge.duplicate-id", f"the id is used by {count} edges", edge_id=edge_id)
        for edge_id, count in edge_counts.items()
        if count > 1
    ]
    return problems


def _cycle_problems(workflow: Workflow, node_ids: set[str]) -> list[Problem]:
    """A loop among the edges whose ends are both nodes: an edge to nowhere, a repeated id or
    a malformed one does not hide it."""
    links = [
        (edge.source, edge.target)
        for edge in workflow.edges
        if edge.source in node_ids and edge.target in node_ids
    ]
    cycle = find_cycle(list(dict.fromkeys(node.id for node in workflow.nodes)), links)
    if not cycle:
        return []
    loop = " -> ".join([*cycle, cycle[0]])
    return [error("graph.cycle", f"the edges form a cycle: {loop}", node_id=cycle[0])]


def _problem_from_pydantic(item: Mapping[str, Any], data: Mapping[str, Any]) -> Problem:
    location = tuple(item["loc"])
    place = _owner_of(location, data)
    path = format_path(location)
    message = describe_invalid(item)
    if item["type"] in {"literal_error", "enum"} and location[-1:] == ("operator",):
        message = f"unknown operator {item.get('input')!r}; it {message}"
    elif item["type"] in {"model_type", "dict_type"}:
        message = f"expected a mapping of fields, not {_kind_of(item.get('input'))}"
    # Named by its node or edge, a problem gives the key inside it; without one, the path is
    # the place the problem is shown at already.
    located = f"{format_path(location[2:])}: {message}" if place else message
    return error(f"structure.{item['type']}", located, path=path, **place)


_KINDS_IN_WORDS = {
    list: "a list",
    str: "a text",
    bool: "true or false",
    int: "a number",
    float: "a number",
}


def _kind_of(value: Any) -> str:
    """A value's kind in a user's words: a list, a text, a number, true or false."""
    return "nothing" if value is None else _KINDS_IN_WORDS.get(type(value), type(value).__name__)


def _is_underived_edge_id(item: Mapping[str, Any], data: Mapping[str, Any]) -> bool:
    """A missing edge id that only follows from a missing source or target, reported already."""
    location = tuple(item["loc"])
    return item["type"] == "missing" and len(location) == 3 and location[::2] == ("edges", "id")


def _owner_of(location: tuple, data: Mapping[str, Any]) -> dict[str, str]:
    """The node or edge an error location falls in, by the id written in the data."""
    if len(location) < 2 or location[0] not in ("nodes", "edges"):
        return {}
    items = data.get(location[0])
    index = location[1]
    if not isinstance(items, list) or not isinstance(index, int) or index >= len(items):
        return {}
    item = items[index]
    if not isinstance(item, Mapping):
        return {}
    raw_id = item.get("id")
    source, target = item.get("source"), item.get("target")
    if location[0] == "edges" and raw_id is None and isinstance(source, str):
        raw_id = f"{source}->{target}" if isinstance(target, str) else None
    if not isinstance(raw_id, str):
        return {}
    if location[0] == "nodes":  # an id that breaks the pattern is shown by its own error
        return {"node_id": raw_id} if is_identifier(raw_id) else {}
    return {"edge_id": raw_id}


def format_path(location: tuple) -> str:
    """Render a location like ('nodes', 2, 'retryPolicy') as ``nodes[2].retryPolicy``."""
    text = ""
    for part in location:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else str(part)
    return text or "workflow"

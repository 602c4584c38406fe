"""What changed between two versions of a workflow, field by field, in a designer's words.

A blueprint update is shown as two such lists (what the new blueprint version changes, and what
was edited locally since the import), so both are made here by one diff. Nodes are matched by
id and edges by their (source, target) pair. Positions are left out: where a node sits is the
local copy's business, and a blueprint moving its nodes is no change to the workflow.

Every change and conflict carries a key: ``("node", id, *field path)``, ``("edge", source,
target, *field path)`` or ``("workflow", *field path)``. A key that is a prefix of another
concerns it too (removing a node concerns each of its fields).
"""

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from studio.model.workflow import Edge, Node, Workflow

Path = tuple[str, ...]
Key = tuple[str, ...]


class _Missing:
    """The value of a key that one side does not have."""

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()

NODE_FIELDS: tuple[Path, ...] = (
    ("agent_id",),
    ("name",),
    ("type",),
    ("configuration", "model_override"),
    ("configuration", "system_prompt_addition"),
    ("retry_policy",),
    ("timeout",),
    ("requires_approval",),
    ("compensation",),
)
NODE_KEYED: tuple[Path, ...] = (("configuration", "parameters"), ("constraints",))
"""Mappings compared key by key, so that two sides may edit different keys of one mapping."""
EDGE_FIELDS: tuple[Path, ...] = (("condition",),)
WORKFLOW_FIELDS: tuple[Path, ...] = (
    ("timeout",),
    ("configuration", "model_override"),
    ("configuration", "system_prompt_addition"),
    ("configuration", "compensation"),
    ("configuration", "governance"),
)
WORKFLOW_KEYED: tuple[Path, ...] = (
    ("configuration", "parameters"),
    ("configuration", "integrations"),
    ("configuration", "credentials"),
    ("configuration", "agent_properties"),
)
WORKFLOW_PLACE = "Workflow settings"

_LABELS = {
    "agent_id": "agent",
    "model_override": "model override",
    "system_prompt_addition": "system prompt addition",
    "retry_policy": "retry policy",
    "requires_approval": "requires approval",
    "parameters": "parameter",
    "constraints": "constraint",
    "integrations": "integration",
    "credentials": "credential",
    "agent_properties": "agent properties for",
}
_KEYED_NAMES = ("parameters", "constraints", "integrations", "credentials", "agent_properties")
_OPERATORS = {"equals": "=", "notEquals": "≠", "greaterThan": ">", "lessThan": "<"}
_LONGEST_SHOWN = 48


@dataclass(frozen=True)
class Change:
    """One difference between two versions: which item (``place``) and what (``text``)."""

    key: Key
    place: str
    text: str

    def describe(self) -> str:
        """The change as one line, e.g. "Node 'Classify': model override gpt-4o → gpt-4.1"."""
        return f"{self.place}: {self.text}"


def related(first: Key, second: Key) -> bool:
    """Whether two keys concern the same thing: one is a prefix of the other."""
    shorter = min(len(first), len(second))
    return first[:shorter] == second[:shorter]


def describe_changes(
    before: Workflow, after: Workflow, labels: Mapping[str, str] | None = None
) -> list[Change]:
    """Every change from ``before`` to ``after``: nodes, then edges, then workflow settings.

    ``labels`` names nodes by id (so that two lists name a renamed node alike); by default a
    node is named as ``after`` has it."""
    names = dict(labels) if labels is not None else node_labels(after, before)
    return (
        _node_changes(before, after, names)
        + _edge_changes(before, after, names)
        + _workflow_changes(before, after)
    )


def node_labels(*workflows: Workflow) -> dict[str, str]:
    """Each node's label as the first workflow that has the node names it."""
    labels: dict[str, str] = {}
    for workflow in reversed(workflows):
        labels.update((node.id, node.label) for node in workflow.nodes)
    return labels


def node_place(node_id: str, labels: Mapping[str, str]) -> str:
    """How a node is named in a change: Node 'Classify request'."""
    return f"Node '{labels.get(node_id, node_id)}'"


def edge_place(pair: tuple[str, str], labels: Mapping[str, str]) -> str:
    """How an edge is named in a change: Edge 'Classify' → 'Reply'."""
    source, target = pair
    return f"Edge '{labels.get(source, source)}' → '{labels.get(target, target)}'"


def node_data(node: Node) -> dict[str, Any]:
    """A node as plain data by field name, for comparing and patching field by field."""
    return node.model_dump(mode="json")


def edges_by_pair(workflow: Workflow) -> dict[tuple[str, str], Edge]:
    """A workflow's edges by (source, target); the first wins where a pair repeats."""
    pairs: dict[tuple[str, str], Edge] = {}
    for edge in workflow.edges:
        pairs.setdefault((edge.source, edge.target), edge)
    return pairs


def field_paths(fixed: Iterable[Path], keyed: Iterable[Path], *datas: Any) -> list[Path]:
    """The compared fields of an item: the fixed ones, and each key of its keyed mappings that
    any of ``datas`` has."""
    paths = list(fixed)
    for prefix in keyed:
        keys: dict[str, None] = {}
        for data in datas:
            mapping = value_at(data, prefix)
            keys.update(dict.fromkeys(mapping if isinstance(mapping, dict) else ()))
        paths += [(*prefix, key) for key in keys]
    return paths


def value_at(data: Any, path: Path) -> Any:
    """The value at ``path`` in nested mappings, or MISSING."""
    for part in path:
        if not isinstance(data, dict) or part not in data:
            return MISSING
        data = data[part]
    return data


def same(first: Any, second: Any) -> bool:
    """Whether two values are the same JSON (true is not 1, 1 is not 1.0, key order aside)."""
    if first is MISSING or second is MISSING:
        return first is second
    return _canonical(first) == _canonical(second)


def field_words(path: Path, before: Any, after: Any) -> str:
    """A field's change in words: "model override gpt-4o → gpt-4.1"."""
    return f"{field_label(path)} {value_words(path, before)} → {value_words(path, after)}"


def field_label(path: Path) -> str:
    """A field's name in words; a mapping's entry is named with its key: parameter 'tone'."""
    for depth, part in enumerate(path):
        if depth + 1 < len(path) and part in _KEYED_NAMES:
            return f"{_LABELS[part]} '{path[depth + 1]}'"
    return _LABELS.get(path[-1], path[-1])


def value_words(path: Path, value: Any) -> str:
    """A field's value in words, cut short when long."""
    if value is MISSING:
        return "not set"
    if value is None:
        return "always" if path == ("condition",) else "none"
    if path[-1] == "condition":
        return _condition_words(value)
    if path[-1] == "retry_policy":
        return (
            f"{value['max_retries']} retries, backoff {_number(value['backoff_base'])}"
            f"–{_number(value['backoff_max'])} s"
        )
    if path[-1] == "compensation" and "tool" in value:
        return f"undo with {value['tool']}"
    return _plain(value)


def _condition_words(condition: dict[str, Any]) -> str:
    operator = condition["operator"]
    if operator == "exists":
        return f"when {condition['field']} exists"
    value = condition["value"]
    shown = f'"{_plain(value)}"' if isinstance(value, str) else _plain(value)
    return f"when {condition['field']} {_OPERATORS.get(operator, operator)} {shown}"


def _plain(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, int | float):
        return _number(value)
    text = value if isinstance(value, str) else _canonical(value)
    text = " ".join(text.split()) if text.strip() else repr(text)
    return text if len(text) <= _LONGEST_SHOWN else text[:_LONGEST_SHOWN] + "…"


def _number(value: float) -> str:
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)


def _node_changes(before: Workflow, after: Workflow, labels: Mapping[str, str]) -> list[Change]:
    old = {node.id: node_data(node) for node in before.nodes}
    new = {node.id: node_data(node) for node in after.nodes}
    changes = []
    for node_id in dict.fromkeys([*old, *new]):
        place, key = node_place(node_id, labels), ("node", node_id)
        if node_id not in new:
            changes.append(Change(key, place, "removed"))
        elif node_id not in old:
            changes.append(Change(key, place, f"added (agent {new[node_id]['agent_id']})"))
        else:
            changes += _field_changes(
                key, place, NODE_FIELDS, NODE_KEYED, old[node_id], new[node_id]
            )
    return changes


def _edge_changes(before: Workflow, after: Workflow, labels: Mapping[str, str]) -> list[Change]:
    old, new = edges_by_pair(before), edges_by_pair(after)
    changes = []
    for pair in dict.fromkeys([*old, *new]):
        place, key = edge_place(pair, labels), ("edge", *pair)
        if pair not in new:
            changes.append(Change(key, place, "removed"))
        elif pair not in old:
            condition = value_words(("condition",), new[pair].model_dump(mode="json")["condition"])
            changes.append(Change(key, place, f"added ({condition})"))
        else:
            old_data, new_data = (
                old[pair].model_dump(mode="json"),
                new[pair].model_dump(mode="json"),
            )
            changes += _field_changes(key, place, EDGE_FIELDS, (), old_data, new_data)
    return changes


def _workflow_changes(before: Workflow, after: Workflow) -> list[Change]:
    old, new = before.model_dump(mode="json"), after.model_dump(mode="json")
    return _field_changes(("workflow",), WORKFLOW_PLACE, WORKFLOW_FIELDS, WORKFLOW_KEYED, old, new)


def _field_changes(
    key: Key, place: str, fixed: Iterable[Path], keyed: Iterable[Path], old: Any, new: Any
) -> list[Change]:
    changes = []
    for path in field_paths(fixed, keyed, old, new):
        first, second = value_at(old, path), value_at(new, path)
        if not same(first, second):
            changes.append(Change((*key, *path), place, field_words(path, first, second)))
    return changes

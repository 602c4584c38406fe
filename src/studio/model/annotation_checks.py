"""What can be wrong with a workflow's notes and groups: repeated ids, a group naming a node
the workflow does not have, a node claimed by two groups."""

from collections import Counter

from studio.model.problems import Problem, error
from studio.model.workflow import Workflow


def annotation_problems(workflow: Workflow) -> list[Problem]:
    """Every error in how the workflow's notes and groups name themselves and its nodes."""
    return _repeated_ids(workflow) + _missing_members(workflow) + _shared_members(workflow)


def _repeated_ids(workflow: Workflow) -> list[Problem]:
    problems = []
    for kind, items in (("note", workflow.notes), ("group", workflow.groups)):
        counts = Counter(item.id for item in items)
        problems += [
            error(
                f"{kind}.duplicate-id",
                f"the id '{item_id}' is used by {count} {kind}s",
                path=f"{kind}s[{_first_index(items, item_id)}].id",
            )
            for item_id, count in counts.items()
            if count > 1
        ]
    return problems


def _missing_members(workflow: Workflow) -> list[Problem]:
    node_ids = {node.id for node in workflow.nodes}
    return [
        error(
            "group.missing-node",
            f"group '{group.label}' lists '{node_id}', which is not a node of this workflow",
            path=f"groups[{index}].nodeIds[{position}]",
        )
        for index, group in enumerate(workflow.groups)
        for position, node_id in enumerate(group.node_ids)
        if node_id not in node_ids
    ]


def _shared_members(workflow: Workflow) -> list[Problem]:
    owners: dict[str, list[str]] = {}
    for group in workflow.groups:
        for node_id in dict.fromkeys(group.node_ids):
            owners.setdefault(node_id, []).append(group.label)
    return [
        error(
            "group.shared-node",
            "a node belongs to one group at most; it is in "
            + " and ".join(f"'{name}'" for name in names),
            node_id=node_id,
        )
        for node_id, names in owners.items()
        if len(names) > 1
    ]


def _first_index(items: list, item_id: str) -> int:
    return next(index for index, item in enumerate(items) if item.id == item_id)

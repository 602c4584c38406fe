"""Bring a newer blueprint version into a workflow imported from an older one: a three-way merge.

``base`` is the blueprint version the workflow was imported from, ``theirs`` the newer version
and ``ours`` the workflow as it is now, local edits included. Every change the blueprint made
(``base`` → ``theirs``) is applied to ``ours`` unless the workflow changed the same thing
differently; then the local value is kept and the pair is listed as a conflict. Local removals
win over the blueprint's edits of what was removed, and local edits win over the blueprint's
removals. An edge left without one of its ends, or one that would close a loop, is dropped and
listed, so the result is as sound a workflow as its inputs were.
"""

import copy
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from studio.model.annotations import Group
from studio.model.blueprint_changes import (
    EDGE_FIELDS,
    MISSING,
    NODE_FIELDS,
    NODE_KEYED,
    WORKFLOW_FIELDS,
    WORKFLOW_KEYED,
    WORKFLOW_PLACE,
    Change,
    Key,
    Path,
    describe_changes,
    edge_place,
    edges_by_pair,
    field_label,
    field_paths,
    node_data,
    node_labels,
    node_place,
    related,
    same,
    value_at,
    value_words,
)
from studio.model.blueprint_placement import placed_nodes
from studio.model.configuration import WorkflowConfiguration
from studio.model.graph import find_cycle
from studio.model.identifiers import free_id
from studio.model.workflow import Edge, Node, Workflow

Pair = tuple[str, str]


@dataclass(frozen=True)
class Conflict:
    """Something both sides changed differently, or an edge that could not be kept; the
    workflow keeps its local state for it."""

    key: Key
    place: str
    text: str

    def describe(self) -> str:
        """The conflict as one line, e.g. "Node 'Reply': timeout: the blueprint has 30, …"."""
        return f"{self.place}: {self.text}"


@dataclass(frozen=True)
class BlueprintMerge:
    """The outcome of merging a blueprint update: the workflow and what to show a designer."""

    merged: Workflow
    blueprint_changes: tuple[Change, ...]
    """What the newer blueprint version changes, compared with the one imported."""
    local_edits: tuple[Change, ...]
    """What was edited in the workflow since it was imported."""
    conflicts: tuple[Conflict, ...]

    def conflicts_with(self, change: Change) -> tuple[Conflict, ...]:
        """The conflicts that concern a change (of either list)."""
        return tuple(conflict for conflict in self.conflicts if related(conflict.key, change.key))


def merge_blueprint_update(base: Workflow, theirs: Workflow, ours: Workflow) -> BlueprintMerge:
    """Apply what changed from ``base`` to ``theirs`` onto ``ours``, keeping ``ours``' identity
    (id, name, status, app, version), local edits, notes and node positions."""
    labels = node_labels(ours, theirs, base)
    merger = _ThreeWay(base, theirs, ours, labels)
    merged = merger.merged()
    return BlueprintMerge(
        merged,
        tuple(describe_changes(base, theirs, labels)),
        tuple(describe_changes(base, ours, labels)),
        tuple(merger.conflicts),
    )


class _ThreeWay:
    """One merge under way: the three versions and the conflicts found so far."""

    def __init__(
        self, base: Workflow, theirs: Workflow, ours: Workflow, labels: dict[str, str]
    ) -> None:
        self.base, self.theirs, self.ours = base, theirs, ours
        self.labels: dict[str, str] = labels
        self.conflicts: list[Conflict] = []

    def merged(self) -> Workflow:
        """The merged workflow; fills ``conflicts`` on the way."""
        nodes = self.nodes()
        node_ids = {node.id for node in nodes}
        settings = self.settings()
        return self.ours.model_copy(
            update={
                "nodes": nodes,
                "edges": self.edges(node_ids),
                "groups": self.groups(node_ids),
                "timeout": settings["timeout"],
                "configuration": WorkflowConfiguration.model_validate(settings["configuration"]),
            }
        )

    def nodes(self) -> list[Node]:
        """Ours' nodes merged with theirs, in ours' order, then the nodes the blueprint added."""
        base = {node.id: node for node in self.base.nodes}
        theirs = {node.id: node for node in self.theirs.nodes}
        merged: list[Node] = []
        for node in self.ours.nodes:
            if node.id in theirs:
                merged.append(self.merged_node(base.get(node.id), theirs[node.id], node))
            elif node.id not in base or self.kept_against_removal(base[node.id], node):
                merged.append(node)
        ours_ids = {node.id for node in self.ours.nodes}
        added = [node for node in self.theirs.nodes if node.id not in ours_ids]
        for node in added:
            if node.id in base:
                self.check_local_removal(base[node.id], node)
        fresh = [node for node in added if node.id not in base]
        return merged + placed_nodes(fresh, self.theirs, merged)

    def merged_node(self, base: Node | None, theirs: Node, ours: Node) -> Node:
        """One node both sides have, merged field by field."""
        ours_data = node_data(ours)
        paths = field_paths(NODE_FIELDS, NODE_KEYED, node_data(theirs), ours_data)
        base_data = node_data(base) if base is not None else {}
        key, place = ("node", ours.id), node_place(ours.id, self.labels)
        data = self.merged_fields(key, place, paths, (base_data, node_data(theirs), ours_data))
        return ours if data == ours_data else Node.model_validate(data)

    def kept_against_removal(self, base: Node, ours: Node) -> bool:
        """Whether a node the blueprint removed stays, because it was edited here."""
        if not _node_differs(base, ours):
            return False
        self.conflict(
            ("node", ours.id),
            node_place(ours.id, self.labels),
            "the blueprint removes it, but it was edited here; it is kept",
        )
        return True

    def check_local_removal(self, base: Node, theirs: Node) -> None:
        """A node removed here that the blueprint changed stays removed, as a conflict."""
        if _node_differs(base, theirs):
            self.conflict(
                ("node", theirs.id),
                node_place(theirs.id, self.labels),
                "removed here, but the blueprint changes it; it stays removed",
            )

    def edges(self, node_ids: set[str]) -> list[Edge]:
        """Ours' edges merged with theirs, then the edges the blueprint added that still fit."""
        base, theirs = edges_by_pair(self.base), edges_by_pair(self.theirs)
        kept = self.ours_edges(base, theirs, node_ids)
        kept = [edge for edge in kept if self.has_ends(edge, node_ids)]
        ours_pairs = {(edge.source, edge.target) for edge in self.ours.edges}
        for pair, edge in theirs.items():
            if pair in ours_pairs:
                continue
            if pair in base:
                self.check_edge_removal(base[pair], edge)
            elif self.has_ends(edge, node_ids) and self.keeps_graph_acyclic(edge, kept, node_ids):
                taken = {other.id for other in kept}
                kept.append(
                    edge.model_copy(update={"id": free_id(edge.id, taken, len(edge.id) + 8)})
                )
        return kept

    def ours_edges(
        self, base: dict[Pair, Edge], theirs: dict[Pair, Edge], node_ids: set[str]
    ) -> list[Edge]:
        """Ours' edges with the blueprint's changes to them; those it removed are left out."""
        merged: list[Edge] = []
        seen: set[Pair] = set()
        for edge in self.ours.edges:
            pair = (edge.source, edge.target)
            if pair in seen or (pair not in theirs and pair not in base):
                merged.append(edge)
            elif pair in theirs:
                merged.append(self.merged_edge(base.get(pair), theirs[pair], edge))
            elif self.kept_against_edge_removal(base[pair], edge, node_ids):
                merged.append(edge)
            seen.add(pair)
        return merged

    def kept_against_edge_removal(self, base: Edge, ours: Edge, node_ids: set[str]) -> bool:
        """Whether an edge the blueprint removed stays: it leads to a node kept here against
        the blueprint's removal, or its condition was edited here (a conflict)."""
        their_nodes = {node.id for node in self.theirs.nodes}
        ends = (ours.source, ours.target)
        if any(end not in their_nodes and end in node_ids for end in ends):
            return True
        if not _condition_differs(base, ours):
            return False
        self.conflict(("edge", *ends), self.edge_place(ends), _KEPT_EDGE)
        return True

    def check_edge_removal(self, base: Edge, theirs: Edge) -> None:
        """An edge removed here whose condition the blueprint changed stays removed, listed."""
        if _condition_differs(base, theirs):
            ends = (theirs.source, theirs.target)
            self.conflict(("edge", *ends), self.edge_place(ends), _REMOVED_EDGE)

    def merged_edge(self, base: Edge | None, theirs: Edge, ours: Edge) -> Edge:
        """One edge both sides have: its condition merged."""
        ours_data = ours.model_dump(mode="json")
        base_data = base.model_dump(mode="json") if base is not None else {}
        key = ("edge", ours.source, ours.target)
        datas = (base_data, theirs.model_dump(mode="json"), ours_data)
        data = self.merged_fields(key, self.edge_place(key[1:]), EDGE_FIELDS, datas)
        return ours if data == ours_data else Edge.model_validate(data)

    def has_ends(self, edge: Edge, node_ids: set[str]) -> bool:
        """Whether both ends of an edge are nodes of the merged workflow; if not, it is listed."""
        missing = [end for end in (edge.source, edge.target) if end not in node_ids]
        if missing:
            label = self.labels.get(missing[0], missing[0])
            self.conflict(
                ("edge", edge.source, edge.target),
                self.edge_place((edge.source, edge.target)),
                f"dropped: node '{label}' is no longer in the workflow",
            )
        return not missing

    def keeps_graph_acyclic(self, edge: Edge, edges: list[Edge], node_ids: set[str]) -> bool:
        """Whether adding the blueprint's edge leaves the graph without loops; if not, listed."""
        links = [(other.source, other.target) for other in edges] + [(edge.source, edge.target)]
        if not find_cycle(sorted(node_ids), links):
            return True
        pair = (edge.source, edge.target)
        self.conflict(("edge", *pair), self.edge_place(pair), _LOOPING_EDGE)
        return False

    def groups(self, node_ids: set[str]) -> list[Group]:
        """Ours' groups, without the nodes the blueprint removed."""
        return [
            group
            if all(node_id in node_ids for node_id in group.node_ids)
            else group.model_copy(
                update={"node_ids": [node_id for node_id in group.node_ids if node_id in node_ids]}
            )
            for group in self.ours.groups
        ]

    def settings(self) -> dict[str, Any]:
        """The workflow's timeout and configuration, merged field by field, as plain data."""
        base, theirs, ours = (_settings_data(side) for side in (self.base, self.theirs, self.ours))
        paths = field_paths(WORKFLOW_FIELDS, WORKFLOW_KEYED, base, theirs, ours)
        return self.merged_fields(("workflow",), WORKFLOW_PLACE, paths, (base, theirs, ours))

    def merged_fields(
        self, key: Key, place: str, paths: Iterable[Path], datas: tuple[Any, Any, Any]
    ) -> dict[str, Any]:
        """Ours' data with every field theirs changed and ours did not; conflicts listed."""
        merged = copy.deepcopy(datas[2])
        for path in paths:
            was, new, here = (value_at(data, path) for data in datas)
            if same(new, was) or same(new, here):
                continue
            if same(here, was):
                _put(merged, path, new)
                continue
            self.conflict(
                (*key, *path),
                place,
                f"{field_label(path)}: the blueprint has {value_words(path, new)}, this workflow "
                f"{value_words(path, here)}; the local value is kept",
            )
        return merged

    def conflict(self, key: Key, place: str, text: str) -> None:
        """List a conflict."""
        self.conflicts.append(Conflict(key, place, text))

    def edge_place(self, pair: tuple[str, ...]) -> str:
        """An edge named by its nodes' labels."""
        return edge_place((pair[0], pair[1]), self.labels)


_KEPT_EDGE = "the blueprint removes it, but its condition was edited here; it is kept"
_REMOVED_EDGE = "removed here, but the blueprint changes its condition; it stays removed"
_LOOPING_EDGE = "from the blueprint, not added: with the local edges it would close a loop"


def _condition_differs(first: Edge, second: Edge) -> bool:
    """Whether two versions of an edge test different conditions."""
    conditions = (edge.model_dump(mode="json")["condition"] for edge in (first, second))
    return not same(*conditions)


def _node_differs(first: Node, second: Node) -> bool:
    """Whether two versions of a node differ in a compared field (position aside)."""
    one, other = node_data(first), node_data(second)
    paths = field_paths(NODE_FIELDS, NODE_KEYED, one, other)
    return any(not same(value_at(one, path), value_at(other, path)) for path in paths)


def _settings_data(workflow: Workflow) -> dict[str, Any]:
    return workflow.model_dump(mode="json", include={"timeout", "configuration"})


def _put(data: dict[str, Any], path: Path, value: Any) -> None:
    """Set (or, for MISSING, remove) the value at ``path`` in nested mappings."""
    *parents, last = path
    for part in parents:
        data = data.setdefault(part, {})
    if value is MISSING:
        data.pop(last, None)
    else:
        data[last] = value

"""The shape of a workflow as the runner sees it, and the pure rules that drive a run.

The runner keeps only statuses and outputs; ``decide`` says what each node does next. Skipping
needs no separate walk: a node whose incoming edges are all dead is skipped, which in turn
kills its own outgoing edges, so applying ``decide`` until nothing changes skips exactly the
downstream subgraph of a false condition and nothing that another live branch still reaches.
"""

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from studio.engine.rules.conditions import evaluate_condition
from studio.model.execution import CANCELLED, COMPLETED, FAILED, NODE_TERMINAL, PENDING
from studio.model.graph import find_cycle, topological_order
from studio.model.workflow import Edge, Workflow

Decision = Literal["wait", "run", "skip", "fail"]
BLOCKING_STATUSES: frozenset[str] = frozenset({FAILED, CANCELLED})
"""Predecessor statuses that make a node fail instead of running."""


@dataclass(frozen=True)
class DagPlan:
    """A workflow's nodes and edges indexed for the runner, with a topological order."""

    node_ids: tuple[str, ...]
    predecessors: Mapping[str, tuple[str, ...]]
    successors: Mapping[str, tuple[str, ...]]
    incoming: Mapping[str, tuple[Edge, ...]]
    topological_order: list[str]


def build_plan(workflow: Workflow) -> DagPlan:
    """Index a workflow for running.

    Raises:
        ValueError: node ids repeat, an edge names a node that is not there, or edges cycle.
    """
    node_ids = tuple(node.id for node in workflow.nodes)
    _check_references(node_ids, workflow.edges)
    order = _acyclic_order(node_ids, [(edge.source, edge.target) for edge in workflow.edges])
    incoming: dict[str, list[Edge]] = {node_id: [] for node_id in node_ids}
    successors: dict[str, list[str]] = {node_id: [] for node_id in node_ids}
    for edge in workflow.edges:
        incoming[edge.target].append(edge)
        successors[edge.source].append(edge.target)
    return DagPlan(
        node_ids=node_ids,
        predecessors={n: _unique(e.source for e in incoming[n]) for n in node_ids},
        successors={n: _unique(successors[n]) for n in node_ids},
        incoming={n: tuple(incoming[n]) for n in node_ids},
        topological_order=order,
    )


def find_root_nodes(plan: DagPlan) -> list[str]:
    """Nodes with no predecessor, in definition order: where a run starts.

    The runner's :class:`~studio.engine.rules.frontier.Frontier` is held to this by a property
    test."""
    return [node_id for node_id in plan.node_ids if not plan.predecessors[node_id]]


def find_sink_nodes(plan: DagPlan) -> list[str]:
    """Nodes with no successor, in definition order: where a run's output comes from."""
    return [node_id for node_id in plan.node_ids if not plan.successors[node_id]]


def find_downstream_subgraph(plan: DagPlan, node_id: str) -> set[str]:
    """Every node reachable from ``node_id``, not counting the node itself."""
    return _reachable(plan.successors, node_id)


def find_upstream_subgraph(plan: DagPlan, node_id: str) -> set[str]:
    """Every node from which ``node_id`` can be reached, not counting the node itself."""
    return _reachable(plan.predecessors, node_id)


def _reachable(links: Mapping[str, tuple[str, ...]], node_id: str) -> set[str]:
    reached: set[str] = set()
    frontier = list(links[node_id])
    while frontier:
        current = frontier.pop()
        if current not in reached:
            reached.add(current)
            frontier.extend(links[current])
    return reached


def edge_is_live(edge: Edge, statuses: Mapping[str, str], outputs: Mapping[str, Any]) -> bool:
    """Whether an edge carries on: its source completed and its condition holds on the output."""
    if statuses.get(edge.source, PENDING) != COMPLETED:
        return False
    return evaluate_condition(edge.condition, outputs.get(edge.source))


def decide(
    plan: DagPlan, node_id: str, statuses: Mapping[str, str], outputs: Mapping[str, Any]
) -> Decision:
    """What a node does next, given every node's status and the completed nodes' outputs."""
    sources = plan.predecessors[node_id]
    if not sources:
        return "run"
    states = [statuses.get(source, PENDING) for source in sources]
    if any(state not in NODE_TERMINAL for state in states):
        return "wait"
    if any(state in BLOCKING_STATUSES for state in states):
        return "fail"
    if any(edge_is_live(edge, statuses, outputs) for edge in plan.incoming[node_id]):
        return "run"
    return "skip"


def find_ready_nodes(
    plan: DagPlan, statuses: Mapping[str, str], outputs: Mapping[str, Any]
) -> list[str]:
    """Pending nodes that should start now, in topological order.

    The reference for the runner's incremental frontier (a property test compares them)."""
    return [
        node_id
        for node_id in plan.topological_order
        if statuses.get(node_id, PENDING) == PENDING
        and decide(plan, node_id, statuses, outputs) == "run"
    ]


def node_input(
    plan: DagPlan,
    node_id: str,
    execution_input: Any,
    outputs: Mapping[str, Any],
    statuses: Mapping[str, str],
) -> Any:
    """What a node receives: the run's input, its one predecessor's output, or a dict of them."""
    sources = plan.predecessors[node_id]
    if not sources:
        return execution_input
    if len(sources) == 1:
        return outputs.get(sources[0])
    live = {edge.source for edge in plan.incoming[node_id] if edge_is_live(edge, statuses, outputs)}
    return {source: outputs.get(source) for source in sources if source in live}


def execution_output(plan: DagPlan, outputs: Mapping[str, Any], statuses: Mapping[str, str]) -> Any:
    """What a run returns: the single sink's output, or a dict of the completed sinks' outputs."""
    sinks = find_sink_nodes(plan)
    if len(sinks) == 1:
        return outputs.get(sinks[0])
    return {sink: outputs.get(sink) for sink in sinks if statuses.get(sink) == COMPLETED}


def _check_references(node_ids: tuple[str, ...], edges: list[Edge]) -> None:
    repeated = sorted(node_id for node_id, count in Counter(node_ids).items() if count > 1)
    if repeated:
        raise ValueError(f"node ids must be unique; repeated: {', '.join(repeated)}")
    known = set(node_ids)
    for edge in edges:
        for end, ref in (("source", edge.source), ("target", edge.target)):
            if ref not in known:
                raise ValueError(f"edge '{edge.id}': {end} '{ref}' is not a node of this workflow")


def _unique(ids: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(ids))


def _acyclic_order(node_ids: tuple[str, ...], links: list[tuple[str, str]]) -> list[str]:
    order, leftover = topological_order(node_ids, links)
    if leftover:
        cycle = find_cycle(node_ids, links)
        raise ValueError(f"the workflow's edges form a cycle: {' -> '.join([*cycle, cycle[0]])}")
    return order

"""Re-running part of a finished execution: a node and what depends on it, reusing the rest."""

from studio.engine.rules.dag import build_plan, find_downstream_subgraph, find_upstream_subgraph
from studio.model import Workflow
from studio.model.errors import NotAllowedError
from studio.model.execution import COMPLETED, SKIPPED, ExecutionRecord, NodeResult

REUSABLE = (COMPLETED, SKIPPED)


def reused_results(
    workflow: Workflow, source: ExecutionRecord, node_id: str
) -> dict[str, NodeResult]:
    """The results a "run from here" at ``node_id`` takes over from ``source``.

    The node and everything downstream of it run again. Every other node that completed or
    was skipped keeps its recorded result; the rest (failed or never run) run again too. Every
    node upstream of ``node_id`` must have completed or been skipped, since their outputs are
    its input: otherwise NotAllowedError says which did not.
    """
    plan = build_plan(workflow)
    if node_id not in plan.node_ids:
        raise NotAllowedError(f"node '{node_id}' is not in version {workflow.version}")
    rerun = find_downstream_subgraph(plan, node_id) | {node_id}
    upstream = find_upstream_subgraph(plan, node_id)
    blocked = [
        nid
        for nid in plan.topological_order
        if nid in upstream and _status(source, nid) not in REUSABLE
    ]
    if blocked:
        names = ", ".join(f"'{b}' ({_status(source, b)})" for b in blocked)
        raise NotAllowedError(
            f"cannot run from '{node_id}': upstream {names} did not finish in that execution"
        )
    return {
        nid: source.node_results[nid]
        for nid in plan.node_ids
        if nid not in rerun and _status(source, nid) in REUSABLE
    }


def _status(record: ExecutionRecord, node_id: str) -> str:
    result = record.node_results.get(node_id)
    return result.status if result else "missing"

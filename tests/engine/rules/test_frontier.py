"""The runner's incremental frontier against the whole-graph rules it must agree with."""

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from studio.engine.rules.dag import (
    Decision,
    build_plan,
    decide,
    find_ready_nodes,
    find_root_nodes,
)
from studio.engine.rules.frontier import Frontier
from studio.model.workflow import Workflow
from tests.engine.rules.test_dag import dag_workflows

CLOSED = {"skip": "skipped", "fail": "failed"}


@settings(max_examples=300)
@given(dag_workflows(conditional=True), st.data())
def test_the_frontier_readies_and_closes_what_the_whole_graph_rules_say(
    workflow: Workflow, data: st.DataObject
) -> None:
    plan = build_plan(workflow)
    statuses = dict.fromkeys(plan.node_ids, "pending")
    outputs: dict[str, Any] = {}
    frontier = Frontier(plan, statuses)

    def close(node_id: str, verdict: Decision) -> None:
        assert decide(plan, node_id, statuses, outputs) == verdict
        statuses[node_id] = CLOSED[verdict]

    frontier.settle(statuses, outputs, close)
    assert sorted(frontier.ready) == sorted(find_root_nodes(plan))
    assert list(frontier.ready) == find_ready_nodes(plan, statuses, outputs)
    while frontier.ready:
        node_id = frontier.take()
        if data.draw(st.booleans(), label=f"{node_id} fails"):
            statuses[node_id] = "failed"
        else:
            statuses[node_id] = "completed"
            outputs[node_id] = {"go": data.draw(st.booleans(), label=f"{node_id} go")}
        frontier.finished(node_id)
        frontier.settle(statuses, outputs, close)
        assert sorted(frontier.ready) == sorted(find_ready_nodes(plan, statuses, outputs))
    assert "pending" not in statuses.values()  # every node was run or closed

"""P8: starting the same execution twice gives the same state and no duplicate invocation."""

import asyncio
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.engine.runner_harness import INVOCATIONS, Harness, make_harness


@st.composite
def small_dags(draw: st.DrawFn) -> dict:
    """Workflow data: 1–6 counting nodes, edges only forward, so always acyclic and connected."""
    count = draw(st.integers(min_value=1, max_value=6))
    ids = [f"n{i}" for i in range(count)]
    edges = [
        {"source": ids[draw(st.integers(0, i - 1))], "target": ids[i]} for i in range(1, count)
    ]
    extra = draw(
        st.lists(st.tuples(st.integers(0, count - 1), st.integers(0, count - 1)), max_size=4)
    )
    for a, b in extra:
        if a < b and {"source": ids[a], "target": ids[b]} not in edges:
            edges.append({"source": ids[a], "target": ids[b]})
    return {"name": "dag", "nodes": [{"id": i, "agentId": "counter"} for i in ids], "edges": edges}


@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=small_dags())
def test_running_an_execution_twice_invokes_each_node_once(tmp_path: Path, data: dict) -> None:
    harness = shared_harness(tmp_path)
    record = harness.runner.start(harness.publish(data).id, {"x": 1})

    async def run_twice_at_once():
        return await asyncio.gather(
            harness.runner.run(record.execution_id), harness.runner.run(record.execution_id)
        )

    first, second = asyncio.run(run_twice_at_once())
    again = asyncio.run(harness.runner.run(record.execution_id))
    assert first.to_data() == second.to_data() == again.to_data()
    assert first.status == "completed"
    for node in data["nodes"]:
        assert INVOCATIONS[(record.execution_id, node["id"])] == 1


def test_a_second_runner_on_the_same_file_does_not_invoke_a_finished_execution_again(
    tmp_path: Path,
) -> None:
    harness = make_harness(tmp_path)
    record = harness.runner.start(
        harness.publish({"nodes": [{"id": "a", "agentId": "counter"}]}).id
    )
    finished = asyncio.run(harness.runner.run(record.execution_id))
    replayed = asyncio.run(harness.another_runner().run(record.execution_id))
    assert replayed.to_data() == finished.to_data()
    assert INVOCATIONS[(record.execution_id, "a")] == 1


_HARNESSES: dict[Path, Harness] = {}


def shared_harness(tmp_path: Path) -> Harness:
    """One database for all examples of a test: each example starts its own execution."""
    if tmp_path not in _HARNESSES:
        _HARNESSES[tmp_path] = make_harness(tmp_path)
    return _HARNESSES[tmp_path]

"""A run uses the agent versions it started with: resumed after a person's decision, or run
again from a node, it keeps them whatever was saved since. Real SQLite file, real runner."""

import asyncio
from pathlib import Path
from typing import Any

from sqlalchemy import update

from studio.model import AgentDefinition, Workflow
from studio.model.agent_library import DEFAULT, FOLDER, AgentPin
from studio.store.schema import executions
from studio.workspace import Workspace
from tests.engine.runner_harness import chain, make_harness


def stamper(prefix: str) -> AgentDefinition:
    """An echo agent that puts ``prefix`` in front of its input."""
    schema = {"type": "object", "properties": {"prefix": {"type": "string", "default": prefix}}}
    return AgentDefinition(id="stamper", name="Stamper", kind="echo", parameters=schema)


def open_workspace(tmp_path: Path) -> Workspace:
    return Workspace(data_dir=tmp_path, database=str(tmp_path / "studio.db"))


def publish_waiting_stamp(workspace: Workspace) -> Workflow:
    data: dict[str, Any] = {
        "name": "stamp after approval",
        "nodes": [{"id": "stamp", "agentId": "stamper", "requiresApproval": True}],
    }
    stored = workspace.workflows.create(Workflow.model_validate(data))
    published, problems = workspace.workflows.publish(stored.id, workspace.agents)
    assert published.status == "PUBLISHED", problems
    return published


def test_a_run_resumes_and_reruns_with_the_agent_version_it_started_with(
    tmp_path: Path,
) -> None:
    first = open_workspace(tmp_path)
    first.agent_library.save(stamper("v1:"))
    workflow = publish_waiting_stamp(first)
    waiting = asyncio.run(first.runner().execute(workflow.id, "hello"))
    assert waiting.status == "waiting"
    assert first.executions.agent_pins(waiting.execution_id) == {"stamper": AgentPin(DEFAULT, 1)}
    first.agent_library.save(stamper("v2:"))  # the edit, while the run waits for a person
    first.close()

    later = open_workspace(tmp_path)  # another Studio, after the edit
    assert later.agents.get("stamper") == stamper("v2:")
    runner = later.runner()
    runner.decide(waiting.execution_id, "stamp", approved=True, by="ana", comment=None)
    resumed = asyncio.run(runner.run(waiting.execution_id))
    assert (resumed.status, resumed.output) == ("completed", "v1:hello")

    later.agent_library.save(stamper("v3:"))
    again = runner.start_from(waiting.execution_id, "stamp")
    assert later.executions.agent_pins(again.execution_id) == {"stamper": AgentPin(DEFAULT, 1)}
    runner.decide(again.execution_id, "stamp", approved=True, by="ana", comment=None)
    rerun = asyncio.run(runner.run(again.execution_id))
    assert (rerun.status, rerun.output) == ("completed", "v1:hello")
    later.close()

    fresh = open_workspace(tmp_path)  # a new run takes what is current
    runner = fresh.runner()
    record = runner.start(workflow.id, "hello")
    assert fresh.executions.agent_pins(record.execution_id) == {"stamper": AgentPin(DEFAULT, 3)}
    fresh.close()


def test_a_folder_agent_is_pinned_in_the_folder_namespace(tmp_path: Path) -> None:
    harness = make_harness(tmp_path)
    harness.agents.add(stamper("one:"))
    workflow = harness.publish(chain("a", agent="stamper"))
    record = harness.runner.start(workflow.id, "hi")
    pins = harness.executions.agent_pins(record.execution_id)
    assert pins == {"stamper": AgentPin(FOLDER, 1)}
    harness.agents.add(stamper("two:"))  # the folder's file changed before the run was driven
    finished = asyncio.run(harness.runner.run(record.execution_id))
    assert finished.output == "one:hi"
    second = harness.runner.start(workflow.id, "hi")
    assert harness.executions.agent_pins(second.execution_id) == {"stamper": AgentPin(FOLDER, 2)}
    third = harness.runner.start(workflow.id, "hi")  # unchanged: no new folder version
    assert harness.executions.agent_pins(third.execution_id) == {"stamper": AgentPin(FOLDER, 2)}


def test_an_execution_stored_before_pinning_runs_with_the_current_agents(
    tmp_path: Path,
) -> None:
    harness = make_harness(tmp_path)
    harness.agents.add(stamper("old:"))
    workflow = harness.publish(chain("a", agent="stamper"))
    record = harness.runner.start(workflow.id, "hi")
    with harness.executions.database.write() as connection:
        connection.execute(
            update(executions)
            .where(executions.c.id == record.execution_id)
            .values(agent_versions=None)
        )
    harness.agents.add(stamper("now:"))
    finished = asyncio.run(harness.runner.run(record.execution_id))
    assert finished.output == "now:hi"

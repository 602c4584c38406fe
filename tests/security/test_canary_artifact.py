"""A credential never lands in the knowledge store, where nothing can ever be removed.

An ``artifact`` agent whose template renders ``${credentials.api}`` (or whose Markdown input
holds the value, in any spelling) fails with an ``ArtifactRejected`` error that names the
reference and never the value, and nothing lands: not the artifact, not a derived row, not a
byte of the value in the database file.
"""

import asyncio
import json
import os
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
import yaml

from studio.engine.agent_kinds.artifact import ArtifactKind
from studio.engine.agent_kinds.base import AgentCall, AgentError
from studio.model import AgentDefinition
from studio.workspace import Workspace
from tests.cli_runner import run_studio

CANARY_VARIABLE = "STUDIO_CANARY_KEY"

FRONT = """\
---
id: release-notes
kind: release-notes
subject: checkout-redesign
title: Release notes
produced_by: {capability: writing}
created_at: 2026-09-20T12:00:00Z
---
# Release notes

## Access

"""
LEAKY_TEMPLATE = FRONT + "Call the API with the token ${credentials.api} until Friday.\n"


def write_yaml(path: Path, data: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def write_agents(folder: Path) -> Path:
    write_yaml(
        folder / "leaky-notes.yaml",
        {
            "id": "leaky-notes",
            "name": "Leaky notes",
            "kind": "artifact",
            "settings": {"template": LEAKY_TEMPLATE},
        },
    )
    write_yaml(
        folder / "lander.yaml",
        {"id": "lander", "name": "Lander", "kind": "artifact", "settings": {}},
    )
    return folder


def one_node_workflow(path: Path, agent_id: str) -> Path:
    return write_yaml(
        path,
        {
            "name": f"land with {agent_id}",
            "configuration": {"credentials": {"api": f"env:{CANARY_VARIABLE}"}},
            "nodes": [{"id": "write", "name": "Write", "agentId": agent_id}],
        },
    )


@dataclass
class LandingRun:
    """A ``studio run`` of the leaky template, and what it left."""

    canary: str
    database: Path
    run: Any
    show: dict[str, Any]


@pytest.fixture(scope="module")
def landing_run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LandingRun]:
    canary = f"canary-{uuid.uuid4().hex}"
    root = tmp_path_factory.mktemp("canary-artifact")
    database = root / "db" / "studio.db"
    database.parent.mkdir()
    env = {**os.environ, "STUDIO_DATA_DIR": str(root / "data"), CANARY_VARIABLE: canary}
    env.pop("STUDIO_DB", None)
    agents = write_agents(root / "agents")
    workflow = one_node_workflow(root / "leaky.yaml", "leaky-notes")
    database_option = ("--db", str(database))
    run = run_studio(
        "run", str(workflow), "--agents", str(agents), *database_option, "--json", env=env
    )
    execution_id = json.loads(run.stdout)["executionId"]
    show = run_studio("executions", "show", execution_id, "--json", *database_option, env=env)
    assert show.returncode == 0, show.stderr
    yield LandingRun(canary, database, run, json.loads(show.stdout))


def test_a_rendered_credential_fails_the_node_naming_the_reference(landing_run: LandingRun) -> None:
    assert landing_run.run.returncode == 1, landing_run.run.stdout + landing_run.run.stderr
    result = landing_run.show["nodeResults"]["write"]
    assert result["status"] == "failed"
    assert result["output"] is None
    error = result["error"]
    assert error["type"] == "ArtifactRejected"
    assert "credentials.api" in error["message"]
    assert "was not landed" in error["message"]
    assert error["details"] == {"references": ["credentials.api"]}


def test_nothing_of_the_artifact_lands(landing_run: LandingRun) -> None:
    workspace = Workspace(database=str(landing_run.database))
    try:
        assert workspace.knowledge.heads() == []
        assert workspace.knowledge.repository.refs() == set()
        assert workspace.knowledge.repository.derived_snapshot() == []
    finally:
        workspace.close()


def test_the_canary_is_not_in_the_database_or_the_output(landing_run: LandingRun) -> None:
    canary = landing_run.canary.encode("utf-8")
    files = [Path(f"{landing_run.database}{suffix}") for suffix in ("", "-wal", "-shm")]
    assert landing_run.database.exists()
    assert [path for path in files if path.exists() and canary in path.read_bytes()] == []
    assert landing_run.canary not in landing_run.run.stdout + landing_run.run.stderr
    assert landing_run.canary not in json.dumps(landing_run.show)


# --- the value in the Markdown an artifact agent is given -------------------------------------


@pytest.fixture
def canary(monkeypatch: pytest.MonkeyPatch) -> str:
    value = f"canary/{uuid.uuid4().hex}+key"
    monkeypatch.setenv(CANARY_VARIABLE, value)
    return value


@pytest.fixture
def workspace(tmp_path: Path) -> Iterator[Workspace]:
    opened = Workspace(agent_dirs=[write_agents(tmp_path / "agents")])
    yield opened
    opened.close()


@pytest.mark.parametrize(
    "spell", [lambda value: value, lambda value: quote(value, safe="")], ids=["as-is", "encoded"]
)
def test_markdown_input_holding_the_value_is_refused(
    workspace: Workspace, tmp_path: Path, canary: str, spell: Any
) -> None:
    workflow = workspace.import_and_publish(one_node_workflow(tmp_path / "wf.yaml", "lander"))
    markdown = FRONT + f"See https://api.example/items?key={spell(canary)} for the list.\n"

    record = asyncio.run(workspace.runner().execute(workflow.id, {"markdown": markdown}))

    error = record.node_results["write"].error
    assert record.status == "failed"
    assert error["type"] == "ArtifactRejected"
    assert "credentials.api" in error["message"]
    assert workspace.knowledge.heads() == []


def test_an_agents_own_credential_setting_is_named_by_its_setting() -> None:
    landed: list[str] = []
    secret = f"key-{uuid.uuid4().hex}"
    call = AgentCall(
        execution_id="execution-1",
        workflow_id="workflow-1",
        node_id="write",
        agent=AgentDefinition(id="lander", name="Lander", kind="artifact"),
        input={"markdown": FRONT + f"The writer used {secret}.\n"},
        secrets={"api": "another-value", "writer.apiKeyRef": secret},
    )

    with pytest.raises(AgentError) as refused:
        asyncio.run(ArtifactKind(lambda text, _by: landed.append(text) or "ref").run(call))

    assert refused.value.error_type == "ArtifactRejected"
    assert "settings.apiKeyRef of agent 'writer'" in refused.value.message
    assert "credentials.api" not in refused.value.message
    assert secret not in refused.value.message
    assert landed == []

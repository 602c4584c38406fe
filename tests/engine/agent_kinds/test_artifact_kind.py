"""The ``artifact`` kind in real runs: a published workflow whose node lands Markdown (from
its input, or from a template) in the workspace's knowledge store, with the provenance the
engine knows, so the run appears in the graph producing the artifact. A Markdown that fails
the lint fails the node with every problem, and nothing is stored."""

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from studio.knowledge.front_matter import split_artifact
from studio.knowledge.projection import ViewOptions
from studio.model import Workflow
from studio.model.execution import ExecutionRecord
from studio.workspace import Workspace

SUBJECT = "checkout-redesign"

CLAIMING = """\
---
id: personas
kind: personas
subject: checkout-redesign
title: Personas
produced_by:
  capability: research
  workflow: forged-workflow
  workflow_version: 99
  execution: exec-forged
  node: forged-node
  attempt: 7
created_at: 2026-09-02T08:00:00Z
---
# Personas

## Shoppers

```yaml persona
id: P-GUEST
name: Occasional guest
```
"""
"""An artifact whose front matter claims a provenance the run did not give it."""

TEMPLATE = """\
---
id: release-notes
kind: release-notes
subject: checkout-redesign
title: ${input.title}
produced_by: {capability: writing}
created_at: 2026-09-20T12:00:00Z
---
# ${input.title}

## Changes

Everything in [[personas]], for ${parameters.audience}.
"""


def write_yaml(path: Path, data: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


@pytest.fixture
def workspace(tmp_path: Path) -> Iterator[Workspace]:
    """A workspace whose agents folder holds two artifact agents: one taking the Markdown
    from its input, one rendering a template."""
    agents = tmp_path / "agents"
    write_yaml(
        agents / "lander.yaml",
        {"id": "lander", "name": "Lander", "kind": "artifact", "settings": {}},
    )
    write_yaml(
        agents / "notes-writer.yaml",
        {
            "id": "notes-writer",
            "name": "Release notes",
            "kind": "artifact",
            "parameters": {
                "type": "object",
                "properties": {"audience": {"type": "string", "default": "shoppers"}},
            },
            "settings": {"template": TEMPLATE},
        },
    )
    workspace = Workspace(agent_dirs=[agents])
    yield workspace
    workspace.close()


def publish(workspace: Workspace, tmp_path: Path, name: str, agent_id: str) -> Workflow:
    """A one-node workflow ("write") running the agent, written to a file and published."""
    data = {"name": name, "nodes": [{"id": "write", "name": "Write", "agentId": agent_id}]}
    return workspace.import_and_publish(write_yaml(tmp_path / f"{name}.yaml", data))


def execute(workspace: Workspace, workflow: Workflow, run_input: Any) -> ExecutionRecord:
    return asyncio.run(workspace.runner().execute(workflow.id, run_input))


def landed_ref(record: ExecutionRecord) -> str:
    assert record.status == "completed", record.error
    output = record.node_results["write"].output
    assert set(output) == {"ref"}
    return output["ref"]


def test_the_workspace_provides_the_artifact_kind(workspace: Workspace) -> None:
    assert "artifact" in workspace.kinds.names()
    assert workspace.agents.get("lander").kind == "artifact"


def test_the_markdown_of_the_input_lands_and_the_output_is_its_ref(
    workspace: Workspace, tmp_path: Path
) -> None:
    workflow = publish(workspace, tmp_path, "land-personas", "lander")

    ref = landed_ref(execute(workspace, workflow, {"markdown": CLAIMING}))

    assert ref == f"{SUBJECT}/personas/2026-09-02-personas.md"
    assert [version.ref for version in workspace.knowledge.heads()] == [ref]
    stored = workspace.knowledge.resolve(ref)
    assert stored.endswith(CLAIMING[CLAIMING.index("\n---\n") + 5 :])  # the body as written
    assert [hit.version.ref for hit in workspace.knowledge.search("guest")] == [ref]


def test_the_engine_fills_the_provenance_over_what_the_text_claims(
    workspace: Workspace, tmp_path: Path
) -> None:
    workflow = publish(workspace, tmp_path, "land-personas", "lander")

    record = execute(workspace, workflow, {"markdown": CLAIMING})
    ref = landed_ref(record)

    attempt = record.node_results["write"].retry_count + 1
    expected = {
        "capability": "research",  # the engine does not know it: the text's word stands
        "workflow": workflow.id,
        "workflow_version": workflow.version,
        "execution": record.execution_id,
        "node": "write",
        "attempt": attempt,
    }
    assert attempt == 1
    assert record.workflow_version == workflow.version
    front, _body, _line = split_artifact(workspace.knowledge.resolve(ref))
    assert front["produced_by"] == expected
    assert workspace.knowledge.repository.version(ref).front.produced_by == expected


def test_the_graph_shows_the_run_producing_the_artifact(
    workspace: Workspace, tmp_path: Path
) -> None:
    workflow = publish(workspace, tmp_path, "land-personas", "lander")
    record = execute(workspace, workflow, {"markdown": CLAIMING})
    ref = landed_ref(record)

    graph = workspace.knowledge.graph(ViewOptions(subject=SUBJECT))

    run = f"run:{record.execution_id}"
    assert (run, "PRODUCES", "personas") in graph.edge_keys()
    assert "run:exec-forged" not in graph.graph
    node = graph.node_data(run)
    assert node["type"] == "run"
    assert node["ref"] == ref
    assert node["execution"] == record.execution_id
    assert node["workflow"] == workflow.id
    assert node["workflow_version"] == workflow.version


def test_a_template_is_rendered_with_the_input_and_parameters(
    workspace: Workspace, tmp_path: Path
) -> None:
    workflow = publish(workspace, tmp_path, "release-notes", "notes-writer")

    record = execute(workspace, workflow, {"title": "Spring release"})
    ref = landed_ref(record)

    assert ref == f"{SUBJECT}/release-notes/2026-09-20-release-notes.md"
    (version,) = workspace.knowledge.heads()
    assert version.front.title == "Spring release"
    assert version.front.produced_by["execution"] == record.execution_id
    assert version.front.produced_by["capability"] == "writing"
    stored = workspace.knowledge.resolve(ref)
    assert "# Spring release\n" in stored
    assert "for shoppers." in stored
    graph = workspace.knowledge.graph(ViewOptions(subject=SUBJECT))
    assert graph.node_data("release-notes")["label"] == "Spring release"
    assert (f"run:{record.execution_id}", "PRODUCES", "release-notes") in graph.edge_keys()


def test_a_second_run_lands_a_new_version_produced_by_it(
    workspace: Workspace, tmp_path: Path
) -> None:
    workflow = publish(workspace, tmp_path, "release-notes", "notes-writer")
    first = execute(workspace, workflow, {"title": "Spring release"})
    second = execute(workspace, workflow, {"title": "Spring release, final"})

    first_ref, second_ref = landed_ref(first), landed_ref(second)

    assert first_ref != second_ref
    assert workspace.knowledge.repository.version(second_ref).front.supersedes == first_ref
    assert [v.ref for v in workspace.knowledge.history(SUBJECT, "release-notes")] == [
        first_ref,
        second_ref,
    ]
    edges = workspace.knowledge.graph(ViewOptions(subject=SUBJECT)).edge_keys()
    assert (f"run:{second.execution_id}", "PRODUCES", "release-notes") in edges
    assert not any(source == f"run:{first.execution_id}" for source, _t, _d in edges)


BROKEN = (
    CLAIMING.replace(f"subject: {SUBJECT}", "subject: Checkout Redesign")
    .replace("title: Personas\n", "")
    .replace("name: Occasional guest\n", "name: Occasional guest\ncolour: red\n")
)


@pytest.mark.parametrize(
    ("markdown", "codes"),
    [
        (
            BROKEN,
            [
                "kg.front_matter.missing_field",
                "kg.front_matter.subject",
                "kg.item.unknown_field",
            ],
        ),
        (
            "# Notes without front matter\n\n```yaml epic\nid: E-1\n```\n",
            ["kg.front_matter.missing", "kg.item.unknown_type"],
        ),
    ],
    ids=["broken fields", "no front matter"],
)
def test_a_markdown_that_fails_lint_fails_the_node_and_stores_nothing(
    workspace: Workspace, tmp_path: Path, markdown: str, codes: list[str]
) -> None:
    workflow = publish(workspace, tmp_path, "land-personas", "lander")

    record = execute(workspace, workflow, {"markdown": markdown})

    assert record.status == "failed"
    result = record.node_results["write"]
    assert result.status == "failed"
    assert result.output is None
    assert result.error["type"] == "ArtifactRejected"
    message = result.error["message"]
    assert f"was not landed ({len(codes)} problem(s))" in message
    listed = [line.strip() for line in message.splitlines()[1:]]
    assert [line.rsplit("[", 1)[1].rstrip("]") for line in listed] == codes
    assert all(line.startswith("error: ") for line in listed)
    assert workspace.knowledge.repository.refs() == set()
    assert workspace.knowledge.repository.derived_snapshot() == []
    assert workspace.knowledge.heads() == []


def test_an_input_without_markdown_is_invalid(workspace: Workspace, tmp_path: Path) -> None:
    workflow = publish(workspace, tmp_path, "land-personas", "lander")

    record = execute(workspace, workflow, {"text": CLAIMING})

    assert record.node_results["write"].error["type"] == "InvalidInput"
    assert workspace.knowledge.repository.refs() == set()

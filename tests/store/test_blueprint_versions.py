"""Blueprints saved to the catalog in a real SQLite file: the first save publishes a new
blueprint, saving again under its name publishes the next version (an identical one adds
none), and a copy imported from it can take a later version in."""

from collections.abc import Iterator
from pathlib import Path

import pytest

from studio.model import Edge, Node, Workflow
from studio.model.configuration import NodeConfiguration
from studio.store import AppRepository, Database, WorkflowRepository, open_database

AGENTS = {"demo-echo-agent"}


def triage(timeout: float | None = None) -> Workflow:
    nodes = [
        Node(id="take", agent_id="demo-echo-agent"),
        Node(id="answer", agent_id="demo-echo-agent", timeout=timeout),
    ]
    return Workflow(
        name="Support triage", nodes=nodes, edges=[Edge(source="take", target="answer")]
    )


@pytest.fixture
def database(db_path: Path) -> Iterator[Database]:
    opened = open_database(db_path)
    try:
        yield opened
    finally:
        opened.close()


@pytest.fixture
def workflows(database: Database) -> WorkflowRepository:
    return WorkflowRepository(database)


def test_the_first_save_publishes_a_new_blueprint_with_no_app_or_link(workflows) -> None:
    linked = triage().model_copy(
        update={"app_id": None, "blueprint_id": "x", "blueprint_version": 4}
    )

    saved, problems = workflows.save_blueprint(linked, AGENTS)

    assert problems == []
    assert saved.is_blueprint and saved.status == "PUBLISHED" and saved.version == 2
    assert (saved.app_id, saved.blueprint_id, saved.blueprint_version) == (None, None, None)
    assert workflows.get(saved.stored_id) == saved


def test_saving_again_under_its_name_publishes_the_next_version(workflows) -> None:
    first, _ = workflows.save_blueprint(triage(), AGENTS)

    again, _ = workflows.save_blueprint(triage(), AGENTS)
    second, _ = workflows.save_blueprint(triage(timeout=30.0), AGENTS)

    assert again == first  # identical: no new version
    assert second.id == first.id and second.version == first.version + 1
    assert second.status == "PUBLISHED" and second.created_at == first.created_at
    assert workflows.get_version(first.stored_id, first.version).nodes[1].timeout is None
    assert workflows.get(first.stored_id).nodes[1].timeout == 30.0
    assert len(workflows.find(blueprints=True)) == 1


def test_a_blueprint_with_publish_problems_is_not_saved(workflows) -> None:
    broken = triage().model_copy(update={"edges": []})  # two nodes, connected to nothing

    returned, problems = workflows.save_blueprint(broken, AGENTS)

    assert any(problem.severity == "error" for problem in problems)
    assert returned.id is None and workflows.find() == []


def test_a_copy_takes_a_later_blueprint_version_in_when_saved(database, workflows) -> None:
    blueprint, _ = workflows.save_blueprint(triage(), AGENTS)
    apps = AppRepository(database, "local")
    copy = apps.import_blueprint(blueprint, apps.create("Desk").id, {})
    newer, _ = workflows.save_blueprint(triage(timeout=30.0), AGENTS)
    assert copy.blueprint_version == blueprint.version

    configured = NodeConfiguration(model_override="gpt-4.1")
    edited = copy.model_copy(update={"blueprint_version": newer.version})
    edited = edited.model_copy(
        update={"nodes": [copy.nodes[0].model_copy(update={"configuration": configured})]}
    )
    stored = workflows.update(edited.model_copy(update={"edges": []}), copy.version)
    assert stored.blueprint_version == newer.version and stored.blueprint_id == blueprint.id

    stray = stored.model_copy(update={"blueprint_id": "another", "blueprint_version": 99})
    kept = workflows.update(stray, stored.version)
    assert (kept.blueprint_id, kept.blueprint_version) == (blueprint.id, newer.version)

"""The agent library's rules, without a database: shadowing, bodies, pins, diffs."""

from pathlib import Path

from studio.model import AgentDefinition, Workflow
from studio.model.agent_files import write_agent_file
from studio.model.agent_library import (
    BODY_THRESHOLD,
    DEFAULT,
    FOLDER,
    SYSTEM,
    AgentLibrary,
    AgentPin,
    AgentVersion,
    LibraryAgents,
    body_digest,
    joined_definition,
    pin_hint,
    pins_from_data,
    pins_to_data,
    split_bodies,
    used_agent_ids,
    version_diff,
)

PROMPT = "You are careful. " * 200


def agent(agent_id: str, name: str = "Agent", **settings: object) -> AgentDefinition:
    return AgentDefinition(id=agent_id, name=name, kind="echo", settings=dict(settings))


def version(namespace: str, definition: AgentDefinition, number: int = 1) -> AgentVersion:
    return AgentVersion(namespace, definition.id, number, definition)


def test_a_default_definition_shadows_the_system_one_with_its_id() -> None:
    builtin, mine = agent("echo", "Built in"), agent("echo", "Mine")
    library = AgentLibrary(
        [version(SYSTEM, builtin, 2), version(DEFAULT, mine, 4), version(SYSTEM, agent("other"))]
    )
    assert library.current("echo") == version(DEFAULT, mine, 4)
    assert library.shadowed("echo") == version(SYSTEM, builtin, 2)
    assert library.current("other") is not None and library.shadowed("other") is None
    assert [entry.pin for entry in library.entries()] == [AgentPin(DEFAULT, 4), AgentPin(SYSTEM, 1)]


def test_folder_versions_are_no_part_of_the_catalog() -> None:
    library = AgentLibrary([version(FOLDER, agent("from-folder"))])
    assert library.entries() == [] and library.current("from-folder") is None


def test_long_string_settings_are_bodies_and_join_back() -> None:
    definition = agent("writer", systemPrompt=PROMPT, model="small", note="x" * BODY_THRESHOLD)
    split = split_bodies(definition)
    assert split.bodies == {"systemPrompt": PROMPT}  # exactly the threshold is not a body
    assert split.body_refs == {"systemPrompt": body_digest(PROMPT)}
    assert "systemPrompt" not in split.data["settings"]
    assert joined_definition(split.data, split.bodies) == definition


def test_pins_round_trip_through_json_data() -> None:
    pins = {"b": AgentPin(SYSTEM, 3), "a": AgentPin(DEFAULT, 1)}
    data = pins_to_data(pins)
    assert list(data) == ["a", "b"]
    assert data["b"] == {"namespace": "SYSTEM", "version": 3}
    assert pins_from_data(data) == pins


def test_a_run_uses_its_nodes_agents_and_compensation_tools() -> None:
    workflow = Workflow.model_validate(
        {
            "name": "w",
            "nodes": [
                {"id": "a", "agentId": "pay", "compensation": {"tool": "refund"}},
                {"id": "b", "agentId": "pay"},
            ],
        }
    )
    assert used_agent_ids(workflow) == ["pay", "refund"]


def test_a_diff_shows_what_changed_between_two_versions() -> None:
    old = version(DEFAULT, agent("echo", "Before"), 1)
    new = version(DEFAULT, agent("echo", "After"), 2)
    lines = version_diff(old, new)
    assert lines[:2] == ["--- echo default v1", "+++ echo default v2"]
    assert "-name: Before" in lines and "+name: After" in lines
    assert version_diff(old, old) == []


def test_the_registry_holds_current_versions_under_folder_definitions(tmp_path: Path) -> None:
    library = AgentLibrary([version(SYSTEM, agent("echo")), version(DEFAULT, agent("mine"), 2)])
    folder = tmp_path / "extra"
    write_agent_file(agent("mine", "From the folder"), folder)
    registry = LibraryAgents.of_library(library, [folder])
    assert registry.get("mine") == agent("mine", "From the folder")
    assert pin_hint(registry, "mine") is None  # a folder definition has no library version
    assert pin_hint(registry, "echo") == AgentPin(SYSTEM, 1)


def test_a_file_made_in_the_app_is_kept_by_the_keeper(tmp_path: Path) -> None:
    kept: list[AgentDefinition] = []

    def keep(definition: AgentDefinition) -> AgentVersion:
        kept.append(definition)
        return version(DEFAULT, definition, 7)

    registry = LibraryAgents.of_library(AgentLibrary([]), home=tmp_path, keeper=keep)
    path = write_agent_file(agent("new"), tmp_path)
    assert registry.load_file(path) == agent("new")
    assert kept == [agent("new")]
    assert registry.pin_of("new") == AgentPin(DEFAULT, 7)
    assert registry.source_of("new") == path

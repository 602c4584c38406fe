"""The agent registry: definitions collected from folders, later folders winning."""

from pathlib import Path

import pytest
from pydantic import ValidationError

from studio.model import AgentDefinition, AgentRegistry

ECHO = "id: echo-agent\nname: Echo\nkind: echo\ndescription: Says it back\n"
SHELL = "id: shell-agent\nname: Shell\nkind: shell\nsettings:\n  command: ls\n"


def write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_definitions_load_from_a_folder(tmp_path: Path) -> None:
    echo = write(tmp_path, "echo.yaml", ECHO)
    write(tmp_path, "shell.yml", SHELL)
    registry = AgentRegistry.from_folders([tmp_path])
    assert registry.problems == []
    assert len(registry) == 2
    assert [agent.id for agent in registry] == ["echo-agent", "shell-agent"]
    assert "echo-agent" in registry
    definition = registry.get("echo-agent")
    assert definition is not None
    assert (definition.name, definition.kind, definition.description) == (
        "Echo",
        "echo",
        "Says it back",
    )
    assert registry.source_of("echo-agent") == echo


def test_kind_specific_settings_are_kept(tmp_path: Path) -> None:
    write(tmp_path, "shell.yaml", SHELL)
    definition = AgentRegistry.from_folders([tmp_path]).get("shell-agent")
    assert definition is not None
    assert definition.settings == {"command": "ls"}


def test_later_folder_overrides_an_agent_with_the_same_id(tmp_path: Path) -> None:
    write(tmp_path / "bundled", "echo.yaml", ECHO)
    write(tmp_path / "bundled", "shell.yaml", SHELL)
    mine = write(tmp_path / "user", "my-echo.yaml", ECHO.replace("name: Echo", "name: My echo"))
    registry = AgentRegistry.from_folders([tmp_path / "bundled", tmp_path / "user"])
    definition = registry.get("echo-agent")
    assert definition is not None
    assert definition.name == "My echo"
    assert registry.source_of("echo-agent") == mine
    assert len(registry) == 2
    assert registry.problems == []


def test_missing_folder_is_skipped(tmp_path: Path) -> None:
    write(tmp_path / "real", "echo.yaml", ECHO)
    registry = AgentRegistry.from_folders([tmp_path / "absent", tmp_path / "real"])
    assert [agent.id for agent in registry] == ["echo-agent"]
    assert registry.problems == []


def test_json_definitions_load_and_other_files_are_ignored(tmp_path: Path) -> None:
    write(tmp_path, "notes.txt", "not an agent")
    write(tmp_path, "agent.json", '{"id": "j", "name": "J", "kind": "echo"}')
    registry = AgentRegistry.from_folders([tmp_path])
    assert [agent.id for agent in registry] == ["j"]
    assert registry.problems == []


def test_malformed_yaml_is_a_problem_and_other_files_still_load(tmp_path: Path) -> None:
    bad = write(tmp_path, "a-broken.yaml", "id: broken\nname: [unclosed\n")
    write(tmp_path, "b-echo.yaml", ECHO)
    registry = AgentRegistry.from_folders([tmp_path])
    assert [agent.id for agent in registry] == ["echo-agent"]
    [problem] = registry.problems
    assert problem.path == bad
    assert "invalid YAML" in problem.message
    assert str(problem).startswith(str(bad))


@pytest.mark.parametrize("kind", ["Robot", "robot kind", "9lives", "''"])
def test_malformed_kind_is_a_problem_and_other_files_still_load(tmp_path: Path, kind: str) -> None:
    robot = write(tmp_path, "robot.yaml", f"id: robot\nname: Robot\nkind: {kind}\n")
    write(tmp_path, "shell.yaml", SHELL)
    registry = AgentRegistry.from_folders([tmp_path])
    assert [agent.id for agent in registry] == ["shell-agent"]
    [problem] = registry.problems
    assert problem.path == robot
    assert "kind" in problem.message
    assert "robot.yaml" in str(problem)


def test_missing_kind_is_a_problem(tmp_path: Path) -> None:
    write(tmp_path, "nokind.yaml", "id: a\nname: A\n")
    [problem] = AgentRegistry.from_folders([tmp_path]).problems
    assert problem.path.name == "nokind.yaml"
    assert "kind: Field required" in problem.message


def test_every_bad_file_gets_its_own_problem(tmp_path: Path) -> None:
    write(tmp_path, "a.yaml", "id: a\nname: [\n")
    write(tmp_path, "b.yaml", "id: b\nname: B\nkind: Not A Kind\n")
    write(tmp_path, "c.yaml", "just text\n")
    write(tmp_path, "d.yaml", ECHO)
    registry = AgentRegistry.from_folders([tmp_path])
    assert [problem.path.name for problem in registry.problems] == ["a.yaml", "b.yaml", "c.yaml"]
    assert len(registry) == 1


def test_same_id_twice_in_one_folder_is_a_problem(tmp_path: Path) -> None:
    write(tmp_path, "echo-1.yaml", ECHO)
    second = write(tmp_path, "echo-2.yaml", ECHO.replace("name: Echo", "name: Other"))
    registry = AgentRegistry.from_folders([tmp_path])
    [problem] = registry.problems
    assert problem.path == second
    assert "echo-1.yaml" in problem.message
    definition = registry.get("echo-agent")
    assert definition is not None
    assert definition.name == "Echo"


def test_parameters_schema_must_be_an_object(tmp_path: Path) -> None:
    path = write(tmp_path, "list.yaml", ECHO + "parameters:\n  type: array\n")
    registry = AgentRegistry.from_folders([tmp_path])
    [problem] = registry.problems
    assert problem.path == path
    assert "parameters" in problem.message
    assert "'object'" in problem.message
    assert len(registry) == 0


def test_parameters_schema_properties_must_be_a_mapping() -> None:
    with pytest.raises(ValidationError, match="'properties' must be a mapping"):
        AgentDefinition(
            id="a", name="A", kind="echo", parameters={"type": "object", "properties": []}
        )


def test_parameters_default_to_an_empty_object_schema() -> None:
    definition = AgentDefinition(id="a", name="A", kind="llm")
    assert definition.parameters == {"type": "object", "properties": {}}


def test_parameters_schema_without_a_type_counts_as_an_object() -> None:
    schema = {"properties": {"text": {"type": "string"}}}
    assert AgentDefinition(id="a", name="A", kind="echo", parameters=schema).parameters == schema


@pytest.mark.parametrize("kind", ["echo", "shell", "python", "http", "llm", "my_kind-2"])
def test_lowercase_kind_names_are_accepted(kind: str) -> None:
    assert AgentDefinition(id="a", name="A", kind=kind).kind == kind


@pytest.mark.parametrize(
    "fields",
    [
        {"id": "", "name": "A", "kind": "echo"},
        {"id": "a", "name": "", "kind": "echo"},
        {"id": "a", "name": "A"},
        {"id": "a", "name": "A", "kind": "echo", "colour": "red"},
        {"id": "a", "name": "A", "kind": "echo", "models": "model-x"},
    ],
)
def test_invalid_definition_is_rejected(fields: dict) -> None:
    with pytest.raises(ValidationError):
        AgentDefinition.model_validate(fields)


def test_agent_file_with_a_list_as_key_is_a_problem(tmp_path: Path) -> None:
    write(tmp_path, "a-odd.yaml", "? [a]\n: b\n")
    write(tmp_path, "b-echo.yaml", ECHO)
    registry = AgentRegistry.from_folders([tmp_path])
    assert [problem.path.name for problem in registry.problems] == ["a-odd.yaml"]
    assert len(registry) == 1


def test_syntax_error_problem_names_the_file_once(tmp_path: Path) -> None:
    bad = write(tmp_path, "broken.yaml", "id: broken\nname: [unclosed\n")
    [problem] = AgentRegistry.from_folders([tmp_path]).problems
    assert str(problem).count(str(bad)) == 1

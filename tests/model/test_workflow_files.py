"""Reading workflow files: syntax errors with line numbers, duplicate keys, bad paths."""

from pathlib import Path

import pytest

from studio.model import (
    DefinitionError,
    Workflow,
    WorkflowFileError,
    load_workflow,
    read_definition,
    write_workflow,
)
from studio.model.workflow_files import format_of, parse_text

VALID_YAML = """\
name: Demo
nodes:
  - id: a
    agentId: demo-echo-agent
  - id: b
    agentId: demo-echo-agent
edges:
  - source: a
    target: b
"""


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def read_error(path: Path) -> WorkflowFileError:
    with pytest.raises(WorkflowFileError) as raised:
        read_definition(path)
    return raised.value


@pytest.mark.parametrize("name", ["flow.yaml", "flow.yml", "FLOW.YAML"])
def test_yaml_file_loads(tmp_path: Path, name: str) -> None:
    workflow = load_workflow(write(tmp_path, name, VALID_YAML))
    assert workflow.name == "Demo"
    assert [edge.id for edge in workflow.edges] == ["a->b"]


def test_json_file_loads(tmp_path: Path) -> None:
    text = '{"name": "Demo", "nodes": [{"id": "a", "agentId": "x"}]}'
    assert load_workflow(write(tmp_path, "flow.json", text)).nodes[0].agent_id == "x"


def test_yaml_syntax_error_names_file_line_and_column(tmp_path: Path) -> None:
    text = "name: Demo\nnodes:\n  - id: a\n    agentId: echo: extra\nedges: []\n"
    path = write(tmp_path, "broken.yaml", text)
    error = read_error(path)
    assert (error.path, error.line, error.column) == (str(path), 4, 18)
    assert "invalid YAML" in error.message
    assert str(error).startswith(f"{path}:4:18: invalid YAML")


def test_unclosed_yaml_list_points_after_the_opening_line(tmp_path: Path) -> None:
    text = "name: Demo\nnodes:\n  - id: a\n    agentId: [unclosed\nedges: []\n"
    error = read_error(write(tmp_path, "broken.yml", text))
    assert error.line == 5
    assert "expected ',' or ']'" in error.message


def test_yaml_tab_indentation_is_an_error_on_its_line(tmp_path: Path) -> None:
    text = "name: Demo\ndescription: x\nnodes:\n\t- id: a\n"
    assert read_error(write(tmp_path, "tabs.yaml", text)).line == 4


def test_json_syntax_error_names_file_line_and_column(tmp_path: Path) -> None:
    text = '{\n  "name": "x",\n  "nodes": []\n  "edges": []\n}\n'
    path = write(tmp_path, "broken.json", text)
    error = read_error(path)
    assert (error.line, error.column) == (4, 3)
    assert error.message == "invalid JSON: Expecting ',' delimiter"
    assert error.to_data() == {
        "file": str(path),
        "line": 4,
        "column": 3,
        "message": "invalid JSON: Expecting ',' delimiter",
    }


def test_empty_json_file_is_an_error_on_line_one(tmp_path: Path) -> None:
    assert read_error(write(tmp_path, "empty.json", "")).line == 1


def test_duplicate_top_level_yaml_key_is_an_error_on_the_second_key(tmp_path: Path) -> None:
    text = "name: Demo\ndescription: x\nname: Again\n"
    error = read_error(write(tmp_path, "dup.yaml", text))
    assert (error.line, error.column) == (3, 1)
    assert "duplicate key 'name'" in error.message


def test_duplicate_yaml_key_inside_a_node_is_an_error(tmp_path: Path) -> None:
    text = "nodes:\n  - id: a\n    agentId: x\n    id: b\n"
    error = read_error(write(tmp_path, "dup.yaml", text))
    assert error.line == 4
    assert "duplicate key 'id'" in error.message


def test_duplicate_yaml_key_in_flow_style_is_an_error() -> None:
    with pytest.raises(WorkflowFileError, match="duplicate key 'a'"):
        parse_text("- {a: 1, a: 2}\n", "yaml")


def test_duplicate_json_key_is_an_error(tmp_path: Path) -> None:
    text = '{\n  "name": "x",\n  "nodes": [{"id": "a", "agentId": "x", "id": "b"}]\n}\n'
    error = read_error(write(tmp_path, "dup.json", text))
    assert "duplicate key 'id'" in error.message
    assert error.message.startswith("invalid JSON")


def test_same_key_in_different_mappings_is_fine() -> None:
    text = "nodes:\n  - id: a\n    agentId: x\n  - id: b\n    agentId: x\n"
    assert parse_text(text, "yaml") == {
        "nodes": [{"id": "a", "agentId": "x"}, {"id": "b", "agentId": "x"}]
    }


@pytest.mark.parametrize("text", ["? [a, b]\n: c\n", "{[1]: 2}\n"])
def test_yaml_mapping_with_a_list_as_key_is_a_file_error(text: str) -> None:
    with pytest.raises(WorkflowFileError):
        parse_text(text, "yaml")


@pytest.mark.parametrize("name", ["flow.txt", "flow", "flow.yaml.bak", "flow.JSON5"])
def test_unknown_extension_is_refused(tmp_path: Path, name: str) -> None:
    path = write(tmp_path, name, VALID_YAML)
    error = read_error(path)
    assert "unknown file type" in error.message
    assert ".json, .yaml, .yml" in error.message
    assert error.path == str(path)


def test_unknown_extension_is_refused_before_writing(tmp_path: Path) -> None:
    with pytest.raises(WorkflowFileError, match=r"unknown file type '\.txt'"):
        write_workflow(Workflow(), tmp_path / "flow.txt")
    assert list(tmp_path.iterdir()) == []


def test_extension_decides_the_format() -> None:
    assert [format_of(name) for name in ("a.yaml", "a.YML", "dir.json/a.json")] == [
        "yaml",
        "yaml",
        "json",
    ]


def test_missing_file_message_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "nowhere" / "missing.yaml"
    error = read_error(path)
    assert error.path == str(path)
    assert str(error).startswith(str(path))
    assert "cannot read the file" in error.message
    assert error.line is None


def test_folder_named_like_a_workflow_cannot_be_read(tmp_path: Path) -> None:
    folder = tmp_path / "folder.json"
    folder.mkdir()
    assert "cannot read the file" in read_error(folder).message


def test_file_that_is_not_utf8_cannot_be_read(tmp_path: Path) -> None:
    path = tmp_path / "latin1.yaml"
    path.write_bytes("name: caf\xe9\n".encode("latin-1"))
    assert "cannot read the file" in read_error(path).message


def test_empty_yaml_file_is_not_a_workflow(tmp_path: Path) -> None:
    path = write(tmp_path, "empty.yaml", "")
    assert read_definition(path) is None
    with pytest.raises(DefinitionError, match="expected a mapping"):
        load_workflow(path)


def test_file_with_a_cycle_is_a_definition_error(tmp_path: Path) -> None:
    text = VALID_YAML + "  - source: b\n    target: a\n"
    with pytest.raises(DefinitionError) as raised:
        load_workflow(write(tmp_path, "cycle.yaml", text))
    assert [problem.code for problem in raised.value.problems] == ["graph.cycle"]


def test_yaml_words_are_read_as_yaml_says() -> None:
    assert parse_text("a: yes\nb: 'yes'\nc: null\nd: 1e3\ne: 1.0e+3\n", "yaml") == {
        "a": True,
        "b": "yes",
        "c": None,
        "d": "1e3",
        "e": 1000.0,
    }

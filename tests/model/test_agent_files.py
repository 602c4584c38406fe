"""Agent definitions made in the app: checked by the loader's rules before they are written,
written as YAML the loader reads back, and picked up by the registry at once."""

from pathlib import Path

import pytest

from studio.model import AgentDefinition, AgentRegistry
from studio.model.agent_files import definition_problems, write_agent_file
from studio.model.agent_setting_rules import http_url_problem

HTTP = {
    "id": "weather",
    "name": "Weather",
    "kind": "http",
    "description": "Asks the weather service",
    "parameters": {
        "type": "object",
        "properties": {"city": {"type": "string"}},
        "required": ["city"],
    },
    "settings": {"url": "http://127.0.0.1:8000/weather/${parameters.city}", "method": "GET"},
}


def test_a_written_definition_loads_back_the_same(tmp_path: Path) -> None:
    definition = AgentDefinition.model_validate(HTTP)
    path = write_agent_file(definition, tmp_path / "agents")
    assert path == tmp_path / "agents" / "weather.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.startswith("id: weather\nname: Weather\nkind: http\n")
    registry = AgentRegistry.from_folders([tmp_path / "agents"])
    assert registry.problems == []
    assert registry.get("weather") == definition


def test_writing_again_replaces_the_file_and_leaves_no_temporary(tmp_path: Path) -> None:
    definition = AgentDefinition.model_validate(HTTP)
    write_agent_file(definition, tmp_path)
    renamed = definition.model_copy(update={"name": "Weather now"})
    write_agent_file(renamed, tmp_path)
    assert [path.name for path in tmp_path.iterdir()] == ["weather.yaml"]
    assert AgentRegistry.from_folders([tmp_path]).get("weather") == renamed


def test_load_file_adds_a_new_definition_to_a_loaded_registry(tmp_path: Path) -> None:
    registry = AgentRegistry.from_folders([tmp_path], home=tmp_path)
    assert registry.home == tmp_path
    assert "weather" not in registry
    path = write_agent_file(AgentDefinition.model_validate(HTTP), tmp_path)
    loaded = registry.load_file(path)
    assert loaded is not None and loaded.id == "weather"
    assert "weather" in registry
    assert registry.source_of("weather") == path


def test_load_file_reports_a_broken_file_as_a_problem(tmp_path: Path) -> None:
    registry = AgentRegistry()
    path = tmp_path / "broken.yaml"
    path.write_text("id: x\nname: ''\nkind: echo\n", encoding="utf-8")
    assert registry.load_file(path) is None
    assert "x" not in registry
    (problem,) = registry.problems
    assert "name" in problem.message


def test_a_sound_definition_has_no_problems() -> None:
    assert definition_problems(HTTP) == {}


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"name": ""}, "name", "at least 1 character"),
        ({"id": ""}, "id", "at least 1 character"),
        ({"id": "has space"}, "id", "not a valid agent id"),
        ({"kind": "Not A Kind"}, "kind", "pattern"),
        (
            {"parameters": {"type": "object", "properties": {"n": {"type": "nonsense"}}}},
            "parameters",
            "not a valid JSON Schema",
        ),
    ],
)
def test_each_broken_field_is_named_with_the_loaders_words(
    change: dict, field: str, words: str
) -> None:
    problems = definition_problems({**HTTP, **change})
    assert field in problems, problems
    assert words in problems[field]


def test_the_loader_reports_the_same_words_for_the_same_mistake(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("id: bad\nname: ''\nkind: echo\n", encoding="utf-8")
    registry = AgentRegistry.from_folders([tmp_path])
    (problem,) = registry.problems
    message = definition_problems({"id": "bad", "name": "", "kind": "echo"})["name"]
    assert message in problem.message


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("http://127.0.0.1:8000/items", None),
        ("https://example.org/items/${input.id}?q=${parameters.q}", None),
        ("example.org/items", "http:// or https://"),
        ("ftp://example.org/items", "http:// or https://"),
        ("http:///items", "host"),
        ("${config.base}/items", "write them out in full"),
        ("http://${input.host}/items", "write them out in full"),
        ("not a url", "http:// or https://"),
    ],
)
def test_http_urls_are_checked_as_the_kind_will_use_them(url: str, words: str | None) -> None:
    problem = http_url_problem(url)
    if words is None:
        assert problem is None
    else:
        assert problem is not None and words in problem

"""Hostile workflow files: alias bombs, deep nesting, long texts and numbers JSON cannot carry.

Each is refused with one line naming the file (and, for YAML, the line) before anything walks
the data, so nothing spins for minutes or dies of a RecursionError.
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from studio.model import WorkflowFileError, load_workflow
from studio.model.input_limits import (
    MAX_DEPTH,
    MAX_STRING_CHARS,
    InputLimitError,
    check_limits,
    limit_problem,
)
from studio.model.workflow_files import parse_text
from tests.cli_runner import REPO_ROOT


def laughs(levels: int, indent: str = "") -> str:
    """The "billion laughs": ``levels`` lines, each a list of nine aliases of the line above."""
    lines = [f'{indent}a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for level in range(1, levels):
        aliases = ", ".join([f"*a{level - 1}"] * 9)
        lines.append(f"{indent}a{level}: &a{level} [{aliases}]")
    return "\n".join(lines) + "\n"


def laughs_workflow(levels: int) -> str:
    """A workflow whose parameters hold the bomb (its lines start on line 4)."""
    return "name: laughs\nconfiguration:\n  parameters:\n" + laughs(levels, "    ") + "nodes: []\n"


def nested(depth: int, fmt: str) -> str:
    """A document whose top mapping holds a value ``depth`` lists deep."""
    inner = "[" * depth + "1" + "]" * depth
    return f'{{"name": "deep", "description": {inner}}}' if fmt == "json" else f"x: {inner}\n"


def refusal(text: str, fmt: str = "yaml") -> WorkflowFileError:
    with pytest.raises(WorkflowFileError) as raised:
        parse_text(text, fmt, "flow." + fmt)
    return raised.value


# --- aliases --------------------------------------------------------------------------------


def test_validate_refuses_a_billion_laughs_file_at_once_naming_the_line(tmp_path: Path) -> None:
    path = tmp_path / "laughs.yaml"
    path.write_text(laughs_workflow(9), encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "studio", "validate", str(path)],
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        timeout=60,
    )
    assert result.returncode == 2
    assert result.stderr.startswith(f"studio: {path}:10:9: ")  # a6, the first too big alone
    assert "aliases repeat 490,329,036 values" in result.stderr
    assert "Traceback" not in result.stderr


def test_aliases_that_repeat_more_than_a_million_values_are_refused() -> None:
    error = refusal(laughs_workflow(7))
    assert (error.line, error.column) == (10, 9)
    assert error.message.startswith("aliases repeat 6,053,427 values and 16,142,490 characters")
    assert "at most 1,000,000 values and 10,000,000 characters are allowed" in error.message


def test_aliases_that_repeat_a_long_text_too_often_are_refused() -> None:
    text = f"text: &t {'x' * 100_000}\ncopies: [{', '.join(['*t'] * 101)}]\n"
    error = refusal(text)
    assert error.message.startswith("aliases repeat 101 values and 10,100,000 characters")


def test_a_few_levels_of_aliases_are_fine() -> None:
    data = parse_text(laughs(5), "yaml")
    assert len(data["a4"]) == 9
    assert data["a4"][0][0][0][0] == ["lol"] * 9


def test_an_alias_inside_the_value_it_names_is_refused() -> None:
    error = refusal("name: x\nconfiguration:\n  parameters:\n    loop: &a [1, *a]\n")
    assert (error.line, error.message) == (4, "an alias is used inside the value it names")


def test_an_alias_inside_a_mapping_it_names_is_refused() -> None:
    error = refusal("a: &m\n  b:\n    c: *m\n")
    assert error.message == "an alias is used inside the value it names"


def test_merge_keys_still_share_settings_between_nodes(tmp_path: Path) -> None:
    text = (
        "defaults: &defaults {agentId: demo-echo-agent, timeout: 5}\n"
        "name: merged\n"
        "nodes:\n"
        "  - {<<: *defaults, id: a}\n"
        "  - {<<: *defaults, id: b, timeout: 9}\n"
    )
    data = parse_text(text, "yaml")
    assert data["nodes"] == [
        {"agentId": "demo-echo-agent", "timeout": 5, "id": "a"},
        {"agentId": "demo-echo-agent", "timeout": 9, "id": "b"},
    ]


def test_a_merge_key_given_twice_is_a_repeated_key() -> None:
    error = refusal("d: &d {a: 1}\ne: {<<: *d, <<: *d}\n")
    assert "duplicate key '<<'" in error.message


# --- depth ----------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["yaml", "json"])
def test_nesting_up_to_the_limit_is_read(fmt: str) -> None:
    assert parse_text(nested(MAX_DEPTH - 1, fmt), fmt) is not None


@pytest.mark.parametrize("fmt", ["yaml", "json"])
def test_nesting_past_the_limit_is_refused_with_the_limit(fmt: str) -> None:
    error = refusal(nested(MAX_DEPTH, fmt), fmt)
    assert error.message.endswith("nested deeper than 200 levels")
    assert "Traceback" not in str(error)


def test_deep_yaml_is_refused_on_its_line_and_column() -> None:
    error = refusal("name: x\nparameters: " + "[" * 250 + "]" * 250 + "\n")
    assert (error.line, error.column) == (2, 212)  # the 200th bracket: the mapping is the 1st


def test_deep_json_names_where_it_goes_too_deep() -> None:
    text = '{"a": ' * 300 + "1" + "}" * 300
    error = refusal(text, "json")
    assert error.message == "a.a.a.a.a.a.a.a…: nested deeper than 200 levels"


@pytest.mark.parametrize("depth", [1_000, 100_000])
def test_json_too_deep_for_the_parser_is_refused_not_a_recursion_error(depth: int) -> None:
    error = refusal("[" * depth + "]" * depth, "json")
    assert error.message == "nested deeper than 200 levels"


def test_a_deep_workflow_file_is_refused_by_validate_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 3000 + "]" * 3000, encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "studio", "validate", str(path)],
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        timeout=60,
    )
    assert (result.returncode, result.stderr) == (
        2,
        f"studio: {path}: nested deeper than 200 levels\n",
    )


# --- text length and numbers ----------------------------------------------------------------


def test_a_text_over_the_limit_is_refused_naming_its_place_in_json() -> None:
    data = {"name": "x", "nodes": [{"id": "a", "agentId": "y" * (MAX_STRING_CHARS + 1)}]}
    error = refusal(json.dumps(data), "json")
    assert error.message == (
        "nodes[0].agentId: a text of 1,000,001 characters; at most 1,000,000 are allowed"
    )


def test_a_text_over_the_limit_is_refused_on_its_line_in_yaml() -> None:
    text = f"name: x\nnodes:\n  - id: a\n    agentId: {'y' * (MAX_STRING_CHARS + 1)}\n"
    error = refusal(text)
    assert (error.line, error.column) == (4, 14)
    assert error.message == "a text of 1,000,001 characters; at most 1,000,000 are allowed"


def test_a_text_at_the_limit_is_read(tmp_path: Path) -> None:
    path = tmp_path / "long.json"
    data = {"name": "n" * MAX_STRING_CHARS, "nodes": [{"id": "a", "agentId": "x"}]}
    path.write_text(json.dumps(data), encoding="utf-8")
    assert len(load_workflow(path).name) == MAX_STRING_CHARS


def test_a_key_over_the_limit_is_refused() -> None:
    text = json.dumps({"configuration": {"parameters": {"k" * (MAX_STRING_CHARS + 1): 1}}})
    error = refusal(text, "json")
    assert error.message.startswith(f"configuration.parameters.{'k' * 40}…: a text of 1,000,001")


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_numbers_json_cannot_carry_are_refused_in_json_files(constant: str) -> None:
    error = refusal(f'{{"nodes": [{{"position": {{"x": {constant}}}}}]}}', "json")
    assert error.message == "nodes[0].position.x: numbers must be finite"


# --- the walk over loaded data --------------------------------------------------------------


def deep_list(depth: int) -> list:
    value: list = []
    for _ in range(depth - 1):
        value = [value]
    return value


def test_the_walk_measures_depth_without_recursing() -> None:
    assert limit_problem(deep_list(MAX_DEPTH)) is None
    assert limit_problem(deep_list(MAX_DEPTH + 1)) == (
        "[0][0][0][0][0][0][0][0]…: nested deeper than 200 levels"
    )
    assert limit_problem(deep_list(50_000)) is not None


def test_the_walk_finds_the_first_problem_in_document_order() -> None:
    data = {"a": [1.0, {"b": float("nan")}], "c": "x" * (MAX_STRING_CHARS + 1)}
    assert limit_problem(data) == "a[1].b: numbers must be finite"
    assert limit_problem(data, finite=False) == (
        "c: a text of 1,000,001 characters; at most 1,000,000 are allowed"
    )


def test_check_limits_raises_a_value_error_with_the_problem() -> None:
    with pytest.raises(InputLimitError, match=r"^\[1\]: numbers must be finite$"):
        check_limits((1, float("inf")))
    assert issubclass(InputLimitError, ValueError)

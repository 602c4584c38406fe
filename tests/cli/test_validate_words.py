"""``studio validate`` on the files people really write: every problem names the file, the line
and the key in Studio's words (not the validation library's); an unknown agent gets a "did you
mean"; a cycle is found even beside a dangling edge."""

from pathlib import Path

import pytest

from tests.cli.test_id_prefixes import studio


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def lines_of(capsys: pytest.CaptureFixture[str], path: Path, *extra: str) -> list[str]:
    code, out, err = studio(capsys, "validate", str(path), *extra)
    assert code == 1, out + err
    return out.splitlines()


WRONG_TYPES = """\
name: Wrong types
nodes:
  - id: fetch
    agentId: demo-echo-agent
    retryPolicy:
      maxRetries: many
  - id: store
    agentId: 5
    timeout: -3
    colour: red
edges:
  - source: fetch
    target: store
"""


def test_wrong_values_name_file_line_and_key_in_studio_words(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = write(tmp_path, "wrong.yaml", WRONG_TYPES)
    out = lines_of(capsys, path)
    assert out == [
        f"{path}:6: error: node 'fetch': retryPolicy.maxRetries: expected a whole number, "
        "not the text 'many' [structure.int_type]",
        f"{path}:8: error: node 'store': agentId: expected a text, not a number "
        "[structure.string_type]",
        f"{path}:9: error: node 'store': timeout: must be greater than 0 [structure.greater_than]",
        f"{path}:10: error: node 'store': colour: unknown key [structure.extra_forbidden]",
    ]
    for line in out:
        assert "Input should" not in line and "Extra inputs" not in line


def test_a_missing_key_names_the_line_of_its_entry(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = write(
        tmp_path,
        "missing.yaml",
        "nodes:\n  - id: a\n    agentId: demo-echo-agent\nedges:\n  - source: a\n",
    )
    assert lines_of(capsys, path) == [
        f"{path}:5: error: edges[0].target: the key 'target' is missing [structure.missing]"
    ]


def test_a_json_file_names_lines_too(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "flow.json",
        '{\n  "nodes": [\n    {"id": "a", "agentId": "demo-echo-agent",\n'
        '     "requiresApproval": "maybe"}\n  ]\n}\n',
    )
    assert lines_of(capsys, path) == [
        f"{path}:4: error: node 'a': requiresApproval: expected true or false, "
        "not the text 'maybe' [structure.bool_type]"
    ]


def test_a_cycle_is_reported_beside_a_dangling_edge(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = write(
        tmp_path,
        "loop.yaml",
        "nodes:\n- {id: a, agentId: demo-echo-agent}\n- {id: b, agentId: demo-echo-agent}\n"
        "edges:\n- {source: a, target: b}\n- {source: b, target: a}\n"
        "- {source: b, target: ghost}\n",
    )
    out = lines_of(capsys, path)
    assert f"{path}:7: error: edge 'b->ghost': target 'ghost' is not a node of this " in out[0]
    assert any(
        line.startswith(f"{path}:2: error: node 'a': the edges form a cycle: a -> b -> a")
        for line in out
    ), out


def test_an_unknown_agent_is_a_warning_with_a_suggestion(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = write(
        tmp_path,
        "typo.yaml",
        "nodes:\n- {id: a, agentId: demo-echo-agnet}\n- {id: b, agentId: demo-echo-agent}\n"
        "edges:\n- {source: a, target: b}\n",
    )
    code, out, err = studio(capsys, "validate", str(path))
    assert code == 0, out + err
    assert out.splitlines() == [
        f"{path}:2: warning: node 'a': uses agent 'demo-echo-agnet', which is not in the agent "
        "registry; did you mean 'demo-echo-agent'? [agent.unknown]",
        f"{path}: valid (1 warning(s))",
    ]


def test_an_unknown_agent_without_a_near_name_is_still_a_warning(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = write(tmp_path, "odd.yaml", "nodes:\n- {id: a, agentId: zzzz}\n")
    code, out, _err = studio(capsys, "validate", str(path))
    assert code == 0
    assert out.splitlines()[0] == (
        f"{path}:2: warning: node 'a': uses agent 'zzzz', which is not in the agent registry "
        "[agent.unknown]"
    )


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"\x00\x01\x02name: x\n", "it is a binary file, not text"),
        (b"name: caf\xe9\n", "it is not UTF-8 text (byte 0xe9 on line 1)"),
    ],
    ids=["binary", "latin-1"],
)
def test_a_file_that_is_not_text_says_why(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: bytes, reason: str
) -> None:
    path = tmp_path / "flow.yaml"
    path.write_bytes(content)
    code, out, err = studio(capsys, "validate", str(path))
    assert (code, out) == (2, "")
    assert err == f"studio: {path}: cannot read the file: {reason}\n"


def test_a_missing_file_says_so_in_words(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "nope.yaml"
    code, _out, err = studio(capsys, "validate", str(path))
    assert code == 2
    assert err == f"studio: {path}: cannot read the file: there is no such file\n"

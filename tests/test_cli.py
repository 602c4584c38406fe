"""The ``studio`` command as a user runs it: a real subprocess, real files."""

import json
import os
from pathlib import Path

from tests.cli_runner import REPO_ROOT, run_studio

BLUEPRINTS = REPO_ROOT / "blueprints"
ECHO_DEMO = BLUEPRINTS / "echo-demo-workflow.yaml"
PLACEHOLDER_BLUEPRINTS = {
    "sequential-agent-pipeline.yaml": [
        "placeholder-researcher",
        "placeholder-writer",
        "placeholder-reviewer",
    ],
    "parallel-fan-out.yaml": [
        "placeholder-dispatcher",
        "placeholder-worker",
        "placeholder-aggregator",
    ],
    "conditional-router.yaml": [
        "placeholder-classifier",
        "placeholder-fulfiller",
        "placeholder-responder",
    ],
    "data-processing-pipeline.yaml": [
        "placeholder-extractor",
        "placeholder-transformer",
        "placeholder-validator",
        "placeholder-loader",
    ],
}


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_version_names_the_program() -> None:
    result = run_studio("--version")
    assert result.returncode == 0
    assert result.stdout.startswith("studio ")


def test_echo_demo_passes_publish_validation() -> None:
    result = run_studio("validate", str(ECHO_DEMO), "--publish")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "valid for publishing" in result.stdout


def test_each_placeholder_blueprint_fails_publish_naming_every_placeholder() -> None:
    for file, agents in PLACEHOLDER_BLUEPRINTS.items():
        result = run_studio("validate", str(BLUEPRINTS / file), "--publish")
        assert result.returncode == 1, file
        for agent in agents:
            assert f"placeholder agent '{agent}'" in result.stdout, (file, agent)


def test_placeholder_blueprints_are_structurally_valid_drafts() -> None:
    for file in PLACEHOLDER_BLUEPRINTS:
        assert run_studio("validate", str(BLUEPRINTS / file)).returncode == 0, file


def test_a_cycle_is_invalid_and_the_message_names_the_loop(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "loop.yaml",
        "nodes:\n- {id: a, agentId: demo-echo-agent}\n- {id: b, agentId: demo-echo-agent}\n"
        "edges:\n- {source: a, target: b}\n- {source: b, target: a}\n",
    )
    result = run_studio("validate", str(path))
    assert result.returncode == 1
    assert f"{path}:2: error: node 'a': the edges form a cycle: a -> b -> a" in result.stdout


def test_an_edge_to_a_missing_node_names_the_edge_and_the_node(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "dangling.json",
        json.dumps(
            {
                "nodes": [{"id": "a", "agentId": "demo-echo-agent"}],
                "edges": [{"id": "to-nowhere", "source": "a", "target": "ghost"}],
            }
        ),
    )
    result = run_studio("validate", str(path), "--publish")
    assert result.returncode == 1
    assert "edge 'to-nowhere': target 'ghost' is not a node of this workflow" in result.stdout


def test_a_yaml_syntax_error_exits_2_with_file_and_line(tmp_path: Path) -> None:
    path = write(
        tmp_path, "broken.yaml", "name: Broken\nnodes:\n  - id: a\n    agentId: [unclosed\n"
    )
    result = run_studio("validate", str(path))
    assert result.returncode == 2
    assert result.stdout == ""
    first_line = result.stderr.strip().splitlines()[0]
    assert first_line.startswith(f"studio: {path}:5:")
    assert "invalid YAML" in first_line


def test_a_json_syntax_error_exits_2_with_file_and_line(tmp_path: Path) -> None:
    path = write(tmp_path, "broken.json", '{\n  "name": "x",\n  "nodes": [\n}\n')
    result = run_studio("validate", str(path))
    assert result.returncode == 2
    assert f"{path}:4:1: invalid JSON" in result.stderr


def test_a_missing_file_exits_2_naming_it(tmp_path: Path) -> None:
    missing = tmp_path / "nope.yaml"
    result = run_studio("validate", str(missing))
    assert result.returncode == 2
    assert str(missing) in result.stderr


def test_json_output_is_one_document_with_every_problem(tmp_path: Path) -> None:
    result = run_studio(
        "validate", str(BLUEPRINTS / "conditional-router.yaml"), "--publish", "--json"
    )
    assert result.returncode == 1
    document = json.loads(result.stdout)
    assert document["valid"] is False
    assert {p["nodeId"] for p in document["problems"]} == {"classify", "fulfil", "explain"}
    assert all(p["code"] == "agent.placeholder" for p in document["problems"])


def test_json_output_for_an_unparsable_file_carries_the_line(tmp_path: Path) -> None:
    path = write(tmp_path, "broken.yaml", "a: [1, 2\n")
    result = run_studio("validate", str(path), "--json")
    assert result.returncode == 2
    assert json.loads(result.stdout)["error"]["line"] == 2


def test_agents_from_an_extra_folder_make_a_workflow_publishable(tmp_path: Path) -> None:
    agents = tmp_path / "agents"
    agents.mkdir()
    (agents / "ticketing.yaml").write_text("id: ticketing-agent\nname: Tickets\nkind: http\n")
    workflow = write(
        tmp_path,
        "tickets.yaml",
        "nodes:\n- {id: file, agentId: ticketing-agent}\n- {id: echo, agentId: demo-echo-agent}\n"
        "edges:\n- {source: file, target: echo}\n",
    )
    assert run_studio("validate", str(workflow), "--publish").returncode == 1
    result = run_studio("validate", str(workflow), "--publish", "--agents", str(agents))
    assert result.returncode == 0, result.stdout


def test_blueprints_list_shows_the_five_seed_blueprints() -> None:
    result = run_studio("blueprints", "list", "--json")
    assert result.returncode == 0
    by_name = {entry["name"]: entry for entry in json.loads(result.stdout)}
    assert set(by_name) == {
        "Sequential Agent Pipeline",
        "Parallel Fan-Out",
        "Conditional Router",
        "Data Processing Pipeline",
        "Echo Demo Workflow",
    }
    assert by_name["Echo Demo Workflow"]["category"] == "demo"
    assert by_name["Echo Demo Workflow"]["agents"] == ["demo-echo-agent"]
    assert by_name["Echo Demo Workflow"]["nodes"] == 2


def test_blueprints_list_as_text_has_a_line_per_blueprint() -> None:
    result = run_studio("blueprints", "list")
    assert result.returncode == 0
    assert len(result.stdout.strip().splitlines()) == 5


def test_gui_without_a_display_says_so_in_one_line() -> None:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"}
    }
    result = run_studio("gui", env=env)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "no display" in lines[0]


def test_screenshot_writes_a_png_of_the_window(tmp_path: Path) -> None:
    out = tmp_path / "shot.png"
    result = run_studio("screenshot", str(out), "--open", str(ECHO_DEMO), "--size", "800x600")
    assert result.returncode == 0, result.stderr
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_screenshot_rejects_a_bad_size(tmp_path: Path) -> None:
    result = run_studio("screenshot", str(tmp_path / "x.png"), "--size", "big")
    assert result.returncode == 2
    assert "--size" in result.stderr


def test_screenshot_draws_a_stored_run_and_its_replay(tmp_path: Path) -> None:
    assert run_studio("run", str(ECHO_DEMO), "--input", '{"message": "hi"}').returncode == 0
    for extra in ((), ("--replay-at", "3")):
        out = tmp_path / f"run{len(extra)}.png"
        result = run_studio("screenshot", str(out), "--run", "last", "--size", "900x600", *extra)
        assert result.returncode == 0, result.stderr
        assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_screenshot_of_the_last_run_without_runs_says_so(tmp_path: Path) -> None:
    result = run_studio("screenshot", str(tmp_path / "x.png"), "--run", "last")
    assert result.returncode == 2
    assert "no runs" in result.stderr

"""A workflow file written without positions (every node in one spot) is laid out when it
is imported, from the app or by ``studio run``; one whose nodes are placed keeps its places."""

from pathlib import Path

import yaml

from studio.workspace import Workspace


def write(folder: Path, positions: list[dict[str, float]] | None) -> Path:
    nodes = [{"id": f"n{i}", "agentId": "demo-echo-agent"} for i in range(3)]
    if positions is not None:
        for node, position in zip(nodes, positions, strict=True):
            node["position"] = position
    edges = [{"source": "n0", "target": "n1"}, {"source": "n1", "target": "n2"}]
    path = folder / "flow.yaml"
    path.write_text(yaml.safe_dump({"name": "Flow", "nodes": nodes, "edges": edges}), "utf-8")
    return path


def places(workspace: Workspace, path: Path) -> list[tuple[float, float]]:
    workflow = workspace.import_and_publish(path)
    return [(node.position.x, node.position.y) for node in workflow.nodes]


def test_a_file_without_positions_is_laid_out_left_to_right(tmp_path) -> None:
    with_nothing = Workspace(data_dir=tmp_path / "data")
    xs = [x for x, _y in places(with_nothing, write(tmp_path, None))]
    with_nothing.close()

    assert xs == sorted(xs) and len(set(xs)) == 3


def test_a_placed_file_keeps_its_places(tmp_path) -> None:
    placed = [{"x": 0, "y": 0}, {"x": 0, "y": 200}, {"x": 0, "y": 400}]
    workspace = Workspace(data_dir=tmp_path / "data")

    assert places(workspace, write(tmp_path, placed)) == [(0, 0), (0, 200), (0, 400)]
    workspace.close()

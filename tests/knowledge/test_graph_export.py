"""The fixture's projection written as GraphML and JSON and read back: the same nodes, edges
and fields; positions travel with the JSON."""

import json
from collections.abc import Iterator
from pathlib import Path

import networkx as nx
import pytest

from studio.knowledge.graph_export import write_graphml, write_json
from studio.knowledge.projection import Projection, ViewOptions
from studio.workspace import Workspace

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "checkout-redesign"
SUBJECT = "checkout-redesign"


@pytest.fixture
def projection(tmp_path: Path) -> Iterator[Projection]:
    workspace = Workspace(database=str(tmp_path / "k.db"))
    workspace.knowledge.ingest(FIXTURE)
    yield workspace.knowledge.graph(ViewOptions(items=True, units=True, subject=SUBJECT))
    workspace.close()


def test_graphml_reads_back_with_every_node_edge_and_field(
    projection: Projection, tmp_path: Path
) -> None:
    path = tmp_path / "view.graphml"

    write_graphml(projection, path)
    read = nx.read_graphml(path, force_multigraph=True)

    assert projection.graph.number_of_nodes() > 10
    assert set(read.nodes) == set(projection.graph.nodes)
    edges = sorted((u, attrs["type"], v) for u, v, attrs in read.edges(data=True))
    assert edges == projection.edge_keys()
    for node_id, attrs in projection.graph.nodes(data=True):
        written = read.nodes[node_id]
        assert (written["type"], written["label"], written["ref"]) == (
            attrs["type"],
            attrs["label"],
            attrs["ref"],
        )
        assert json.loads(written["data"]) == json.loads(json.dumps(attrs["data"], default=str))
        assert written["hidden"] == len(attrs["hidden"])


def test_json_round_trips_the_projection_and_its_positions(
    projection: Projection, tmp_path: Path
) -> None:
    path = tmp_path / "view.json"
    positions = {node: (10.0 * i, -2.5 * i) for i, node in enumerate(projection.graph.nodes)}
    positions["not-in-the-view"] = (1.0, 1.0)

    write_json(projection, path, positions)
    read = json.loads(path.read_text(encoding="utf-8"))

    expected = json.loads(json.dumps(projection.to_data(), default=str))
    assert read["nodes"] == expected["nodes"]
    assert read["edges"] == expected["edges"]
    assert len(read["edges"]) == projection.graph.number_of_edges()
    assert set(read["positions"]) == set(projection.graph.nodes)
    first = next(iter(projection.graph.nodes))
    assert read["positions"][first] == {"x": positions[first][0], "y": positions[first][1]}


def test_json_without_positions_is_the_projection_alone(
    projection: Projection, tmp_path: Path
) -> None:
    path = tmp_path / "view.json"

    write_json(projection, path)

    assert set(json.loads(path.read_text(encoding="utf-8"))) == {"nodes", "edges"}

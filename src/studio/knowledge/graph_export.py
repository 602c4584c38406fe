"""A projection written out for other tools: GraphML (yEd, Gephi, networkx) and JSON.

GraphML holds only scalar attributes, so a node's fields (``data``) are written as one JSON
string and its hidden neighbours as their count; an edge carries its type. The JSON file is
the projection's plain data (``Projection.to_data``), with the drawn positions when given.
"""

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import networkx as nx

from studio.knowledge.projection import Projection

Positions = Mapping[str, tuple[float, float]]
"""Node id → (x, y) where the view draws it."""


def graphml_graph(projection: Projection) -> "nx.MultiDiGraph[str]":
    """A copy of the projection's graph whose attributes are all text or numbers."""
    flat: nx.MultiDiGraph[str] = nx.MultiDiGraph()
    for node_id, attrs in sorted(projection.graph.nodes(data=True)):
        flat.add_node(
            node_id,
            type=attrs["type"],
            label=attrs["label"],
            subject=attrs["subject"],
            ref=attrs["ref"],
            data=_json_text(attrs["data"]),
            hidden=len(attrs["hidden"]),
        )
    for source, edge_type, target in projection.edge_keys():
        flat.add_edge(source, target, key=edge_type, type=edge_type)
    return flat


def write_graphml(projection: Projection, path: Path) -> None:
    """Write the projection as a GraphML file."""
    nx.write_graphml(graphml_graph(projection), str(path), encoding="utf-8")


def json_data(projection: Projection, positions: Positions | None = None) -> dict[str, Any]:
    """The projection's plain data, with ``positions`` ({id: {x, y}}) when given."""
    data: dict[str, Any] = dict(projection.to_data())
    if positions is not None:
        data["positions"] = {
            node_id: {"x": float(x), "y": float(y)}
            for node_id, (x, y) in sorted(positions.items())
            if node_id in projection.graph
        }
    return data


def write_json(projection: Projection, path: Path, positions: Positions | None = None) -> None:
    """Write the projection (and the drawn positions) as a JSON file."""
    text = json.dumps(json_data(projection, positions), indent=2, default=str)
    path.write_text(text + "\n", encoding="utf-8")


def _json_text(value: Any) -> str:
    """Fields as JSON text; dates and other values YAML reads are written as text."""
    return json.dumps(value, sort_keys=True, default=str, ensure_ascii=False)

"""The graph rows derived from a version, as stored: one JSON document per version.

Rebuildable, unlike the versions and bodies they come from, and so not covered by any hash:
``studio kg rebuild`` derives them again from the checked text.
"""

import json
from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import Row

from studio.model.knowledge import Derivation, GraphEdge, GraphNode


@dataclass(frozen=True)
class EncodedDerivation:
    """A derivation already in its stored form (made where it was derived, e.g. in a worker
    process, so the process that writes only hands the text on)."""

    document: str


def check_derivation(ref: str, derivation: Derivation) -> None:
    """Derived rows belong to the version they are stored with, once each (a caller's slip)."""
    keys = [(node.version_ref, node.key) for node in derivation.nodes]
    keys += [(e.version_ref, e.source, e.type, e.target) for e in derivation.edges]
    foreign = sorted({key[0] for key in keys} - {ref})
    if foreign:
        raise ValueError(f"the derivation of {ref} carries rows of other versions: {foreign}")
    if len(set(keys)) != len(keys):
        twice = next(key for key in keys if keys.count(key) > 1)
        raise ValueError(f"the derivation of {ref} has a row twice: {' '.join(twice[1:])}")


def document(derivation: Derivation | EncodedDerivation) -> str:
    """The document stored for a derivation."""
    if isinstance(derivation, EncodedDerivation):
        return derivation.document
    return encode_derivation(derivation)


def encode_derivation(derivation: Derivation) -> str:
    """A derivation as the document stored for its version (rows without their version)."""
    return json.dumps(
        {
            "nodes": [[n.key, n.type, n.label, n.subject, n.data] for n in derivation.nodes],
            "edges": [[e.source, e.type, e.target, e.subject] for e in derivation.edges],
        },
        ensure_ascii=False,
        separators=(",", ":"),
    )


def decoded(found: Iterable[Row]) -> tuple[list[GraphNode], list[GraphEdge]]:
    """The nodes and edges of stored documents (rows of version_ref and rows)."""
    nodes: list[GraphNode] = []
    edges: list[GraphEdge] = []
    for row in found:
        stored, ref = json.loads(row.rows), row.version_ref
        nodes += [GraphNode(k, t, label, s, ref, data) for k, t, label, s, data in stored["nodes"]]
        edges += [GraphEdge(source, t, target, s, ref) for source, t, target, s in stored["edges"]]
    return nodes, edges


def node_tuple(node: GraphNode) -> tuple:
    """A node as a comparable tuple (its data as canonical JSON)."""
    data = json.dumps(node.data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return (node.version_ref, node.key, node.type, node.label, node.subject, data)

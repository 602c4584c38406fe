"""The graph rows derived from a version, as stored: one JSON document per version.

Rebuildable, unlike the versions and bodies they come from, and so not covered by any hash:
derivation is deterministic, so ``studio kg verify`` derives them again from the checked text
and compares, and ``studio kg rebuild`` replaces them with what the text derives.
"""

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from operator import attrgetter

from sqlalchemy import Row

from studio.model.knowledge import Derivation, GraphEdge, GraphNode
from studio.store.knowledge_integrity import DamagedVersion, report

_UNREADABLE_ROWS = "its derived graph rows cannot be read; `studio kg rebuild` derives them again"


@dataclass(frozen=True)
class EncodedDerivation:
    """A derivation already in its stored form (made where it was derived, e.g. in a worker
    process, so the process that writes only hands the text on)."""

    document: str


def check_derivation(ref: str, derivation: Derivation) -> None:
    """Derived rows belong to the version they are stored with, once each (a caller's slip)."""
    keys: list[tuple[str, ...]] = [(node.version_ref, node.key) for node in derivation.nodes]
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
        more_nodes, more_edges = decoded_document(row.rows, row.version_ref)
        nodes += more_nodes
        edges += more_edges
    return nodes, edges


def decoded_document(document: str, ref: str) -> tuple[list[GraphNode], list[GraphEdge]]:
    """The nodes and edges of the document stored for version ``ref``."""
    stored = json.loads(document)
    nodes = [GraphNode(k, t, label, s, ref, data) for k, t, label, s, data in stored["nodes"]]
    edges = [GraphEdge(source, t, target, s, ref) for source, t, target, s in stored["edges"]]
    return nodes, edges


UNREADABLE = (ValueError, TypeError, KeyError, AttributeError, RecursionError)
"""What decoding a document another program wrote may raise."""


VersionRows = tuple[tuple[GraphNode, ...], tuple[GraphEdge, ...]]
"""One version's nodes (by key) and edges (by source, type and target)."""
_NODE_ORDER = attrgetter("key")
_EDGE_ORDER = attrgetter("source", "type", "target")


def graph_rows_of(
    found: Iterable[Row], damaged: list[DamagedVersion] | None
) -> tuple[list[GraphNode], list[GraphEdge]]:
    """The nodes and edges of stored documents, by subject, then key or endpoints; a version
    whose document cannot be read at all is reported damaged."""
    nodes: list[GraphNode] = []
    edges: list[GraphEdge] = []
    for more_nodes, more_edges in rows_by_version(found, damaged).values():
        nodes += more_nodes
        edges += more_edges
    nodes.sort(key=lambda n: (n.subject, n.key, n.version_ref))
    edges.sort(key=lambda e: (e.subject, e.source, e.type, e.target, e.version_ref))
    return nodes, edges


def rows_by_version(
    found: Iterable[Row], damaged: list[DamagedVersion] | None
) -> dict[str, VersionRows]:
    """Each stored document's nodes and edges, by its version's ref, each version's in the
    order ``graph_rows_of`` gives them (a version's rows share its subject); a version whose
    document cannot be read at all is reported damaged and left out."""
    by_version: dict[str, VersionRows] = {}
    unreadable: list[DamagedVersion] = []
    for row in found:
        try:
            nodes, edges = decoded_document(row.rows, row.version_ref)
        except UNREADABLE:
            unreadable.append(DamagedVersion(row.version_ref, _UNREADABLE_ROWS))
            continue
        nodes.sort(key=_NODE_ORDER)
        edges.sort(key=_EDGE_ORDER)
        by_version[row.version_ref] = (tuple(nodes), tuple(edges))
    report(unreadable, damaged)
    return by_version


def differing_refs(found: Iterable[Row], derivations: Mapping[str, Derivation]) -> list[str]:
    """The refs, in the order given, whose stored documents (``found``) do not hold the rows
    given for them: changed, missing or unreadable."""
    stored = {row.version_ref: stored_rows(row.rows, row.version_ref) for row in found}
    return [
        ref
        for ref, derivation in derivations.items()
        if stored.get(ref) != derived_rows(derivation)
    ]


def stored_rows(document: str, ref: str) -> list[tuple] | None:
    """The rows a stored document holds, as ``row_tuples`` gives them; None when it is not a
    document of rows (another program wrote it)."""
    try:
        return row_tuples(*decoded_document(document, ref))
    except UNREADABLE:
        return None


def derived_rows(derivation: Derivation) -> list[tuple]:
    """A derivation's rows, as ``row_tuples`` gives them."""
    return row_tuples(list(derivation.nodes), list(derivation.edges))


def row_tuples(nodes: Iterable[GraphNode], edges: Iterable[GraphEdge]) -> list[tuple]:
    """Graph rows as comparable tuples, sorted: equal lists mean identical rows."""
    rows = [("node", *node_tuple(node)) for node in nodes]
    rows += [("edge", e.version_ref, e.source, e.type, e.target, e.subject) for e in edges]
    return sorted(rows)


def node_tuple(node: GraphNode) -> tuple:
    """A node as a comparable tuple (its data as canonical JSON)."""
    data = json.dumps(node.data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return (node.version_ref, node.key, node.type, node.label, node.subject, data)

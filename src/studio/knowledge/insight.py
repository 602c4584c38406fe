"""What the knowledge graph tells that no single document does: coverage gaps and suspect links.

Both read plain rows: the nodes and edges derived from the current heads (and, for suspect
links, every version ever landed, to know which artifacts were revised). An edge counts only
when both its ends are among the given nodes, so a link to something that no longer exists
neither covers nor implements anything.

A link is suspect when the thing it relies on was revised after the link was written: the
current version of the artifact holding the relied-on node was created later than the version
that wrote the link, and that artifact has more than one version. Reliance follows what the
edges mean: the source relies on the target for DEPENDS_ON, COVERS, DERIVED_FROM, CONSUMES,
CONSUMES_CONTRACT, FOR_PERSONA and EXPOSES; for IMPLEMENTS (drawn story → unit) the unit relies
on the story. Citations, provenance and containment are not reliance and are not checked.
"""

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from studio.knowledge.projection import UPSTREAM_BACKWARD, UPSTREAM_FORWARD
from studio.model.knowledge import CITES, ArtifactVersion, GraphEdge, GraphNode

COVERS, IMPLEMENTS = "COVERS", "IMPLEMENTS"
REQUIREMENT, STORY, DECISION, UNIT = "requirement", "story", "decision", "unit"

RELIES_FORWARD = UPSTREAM_FORWARD - {CITES}
"""Edges whose source relies on their target: what lineage calls upstream, except a citation,
which names a kind of artifact rather than anything in it."""
RELIES_BACKWARD = UPSTREAM_BACKWARD & {IMPLEMENTS}
"""Edges whose target relies on their source (a unit on the story it implements); provenance
and containment are not reliance."""

Place = tuple[str, str]
"""(subject, key) of a node."""

MISSING = {
    REQUIREMENT: "no story covers it",
    STORY: "no unit implements it",
    DECISION: "it covers nothing",
}
"""The node types coverage checks, and what a gap of each lacks."""


@dataclass(frozen=True)
class Gap:
    """A node that traceability expects to be linked and is not."""

    subject: str
    key: str
    type: str
    label: str
    ref: str
    """The version the node comes from."""
    missing: str
    """What is missing, in words: "no story covers it", …"""

    @property
    def message(self) -> str:
        """One line for a person: which node, where it is written, what is missing."""
        return f"{self.type} {self.key} ({self.label}, in {self.ref}): {self.missing}"


@dataclass(frozen=True)
class Suspect:
    """A link written before the thing it relies on was revised."""

    subject: str
    item: str
    """The key of the node that relies on the other."""
    link: str
    """The edge type as stored (for IMPLEMENTS the stored edge runs from ``target`` to ``item``)."""
    target: str
    """The key of the node relied on."""
    item_ref: str
    """The version that wrote the link."""
    item_written: datetime
    target_ref: str
    """The current version of the relied-on node's artifact."""
    target_revised: datetime

    @property
    def message(self) -> str:
        """One line for a person naming both ends, both versions and both dates."""
        return (
            f"{self.item} relies on {self.target} ({self.link}), written in {self.item_ref} on "
            f"{day(self.item_written)}, but {self.target} was revised in {self.target_ref} "
            f"on {day(self.target_revised)}"
        )


def day(moment: datetime) -> str:
    """``moment``'s date as 2026-09-08. Not ``strftime``: it imports ``time`` on each call, and
    with Qt's import hook in place a thousand dates took 14 ms of a window's turn."""
    return moment.date().isoformat()


def coverage_gaps(nodes: Iterable[GraphNode], edges: Iterable[GraphEdge]) -> list[Gap]:
    """Requirements no story covers, stories no unit implements, decisions that cover nothing."""
    index = {(n.subject, n.key): n for n in nodes}
    satisfied: set[Place] = set()
    for edge in edges:
        source = index.get((edge.subject, edge.source))
        target = index.get((edge.subject, edge.target))
        if source is not None and target is not None:
            satisfied.update(_satisfies(edge.type, source, target))
    return [
        Gap(node.subject, node.key, node.type, node.label, node.version_ref, MISSING[node.type])
        for place, node in sorted(index.items())
        if node.type in MISSING and place not in satisfied
    ]


def _satisfies(edge_type: str, source: GraphNode, target: GraphNode) -> list[Place]:
    """The nodes an edge takes off the gap list: a covered requirement, a covering decision, …"""
    if edge_type == COVERS and source.type == STORY and target.type == REQUIREMENT:
        return [(target.subject, target.key)]
    if edge_type == COVERS and source.type == DECISION:
        return [(source.subject, source.key)]
    if edge_type == IMPLEMENTS and source.type == STORY and target.type == UNIT:
        return [(source.subject, source.key)]
    return []


def suspect_links(
    versions_all: Iterable[ArtifactVersion],
    head_versions: Iterable[ArtifactVersion],
    nodes: Iterable[GraphNode],
    edges: Iterable[GraphEdge],
) -> list[Suspect]:
    """Links among the heads' rows whose relied-on end was revised after the link was written."""
    heads = {v.ref: v for v in head_versions}
    known = {v.ref: v for v in versions_all} | heads
    version_count = Counter((v.subject, v.artifact_id) for v in known.values())
    index = {(n.subject, n.key): n for n in nodes if n.version_ref in heads}
    found: set[Suspect] = set()
    for edge in edges:
        ends = _reliance(edge)
        if edge.version_ref not in heads or ends is None:
            continue
        item, target = index.get((edge.subject, ends[0])), index.get((edge.subject, ends[1]))
        if item is None or target is None:
            continue
        written, revised = heads[edge.version_ref], heads[target.version_ref]
        later = revised.front.created_at > written.front.created_at
        if later and version_count[(revised.subject, revised.artifact_id)] > 1:
            found.add(_suspect(edge, item.key, target.key, written, revised))
    return sorted(found, key=lambda s: (s.subject, s.item, s.link, s.target))


def _reliance(edge: GraphEdge) -> tuple[str, str] | None:
    """(relying key, relied-on key) of an edge, or None when the edge is not reliance."""
    if edge.type in RELIES_FORWARD:
        return edge.source, edge.target
    if edge.type in RELIES_BACKWARD:
        return edge.target, edge.source
    return None


def _suspect(
    edge: GraphEdge, item: str, target: str, written: ArtifactVersion, revised: ArtifactVersion
) -> Suspect:
    return Suspect(
        subject=edge.subject,
        item=item,
        link=edge.type,
        target=target,
        item_ref=written.ref,
        item_written=written.front.created_at,
        target_ref=revised.ref,
        target_revised=revised.front.created_at,
    )

"""Marks drawn over the graph: lineage dimming, compare colours and ghosts, gap badges and
suspect edges. The marks are remembered, so a graph shown again (another filter or date) carries
them on the items it keeps and on the ones it adds."""

from collections.abc import Mapping
from typing import Any

from studio.ui.knowledge.graph_items import EdgeKey, NodeItem, node_caption
from studio.ui.knowledge.graph_scene import GraphScene, Position
from studio.ui.knowledge.node_look import ADDED, CHANGED, look_for

DIMMED_NODE, DIMMED_EDGE = 0.18, 0.10
"""Opacity of what lies outside the lineage being traced."""


class GraphMarks:
    """The marks on one GraphScene."""

    def __init__(self, scene: GraphScene) -> None:
        self.scene = scene
        self.keep: set[str] | None = None
        self._dimmed = False
        """Whether any item may be dimmed."""
        self._marked = False
        """Whether any item may carry a compare colour."""
        self.added: set[str] = set()
        self.changed: set[str] = set()
        self.removed: dict[str, dict[str, Any]] = {}
        self.removed_positions: dict[str, Position] = {}
        self.gaps: dict[str, str] = {}
        self.suspects: dict[EdgeKey, str] = {}

    def reapply(self) -> None:
        """Draw every mark again on the scene's current items (after a show)."""
        self._apply_dimming()
        self._apply_changes()
        self._apply_gaps()
        self._apply_suspects()

    def set_dimmed(self, keep: set[str] | None) -> None:
        """Dim everything outside ``keep``; None: nothing is dimmed."""
        self.keep = None if keep is None else set(keep)
        self._apply_dimming()

    def set_changes(
        self,
        added: set[str],
        removed: Mapping[str, dict[str, Any]],
        changed: set[str],
        removed_positions: Mapping[str, Position],
    ) -> None:
        """Outline added nodes green and changed ones amber; draw removed ones as ghosts."""
        self.added, self.changed = set(added), set(changed)
        self.removed, self.removed_positions = dict(removed), dict(removed_positions)
        self._apply_changes()

    def clear_changes(self) -> None:
        """Back to plain outlines, without ghosts."""
        self.set_changes(set(), {}, set(), {})

    def set_gaps(self, gaps: Mapping[str, str]) -> None:
        """A warning badge on each node of ``gaps``, with its message as the tooltip."""
        previous, self.gaps = self.gaps, dict(gaps)
        for node_id in previous.keys() - self.gaps.keys():
            if node_id in self.scene.nodes:
                self.scene.nodes[node_id].set_gap(None)
        self._apply_gaps()

    def set_suspects(self, suspects: Mapping[EdgeKey, str]) -> None:
        """Draw each edge of ``suspects`` dashed, with the reason as its tooltip."""
        previous, self.suspects = self.suspects, dict(suspects)
        for key in previous.keys() - self.suspects.keys():
            if key in self.scene.edges:
                self.scene.edges[key].set_suspect(None)
        self._apply_suspects()

    def _apply_dimming(self) -> None:
        keep = self.keep
        if keep is None and not self._dimmed:
            return  # nothing was dimmed, and items come undimmed
        self._dimmed = keep is not None
        for node_id, node in self.scene.nodes.items():
            node.setOpacity(1.0 if keep is None or node_id in keep else DIMMED_NODE)
        for (source, _type, target), edge in self.scene.edges.items():
            inside = keep is None or (source in keep and target in keep)
            edge.setOpacity(1.0 if inside else DIMMED_EDGE)

    def _apply_changes(self) -> None:
        if not (self.added or self.changed or self.removed or self.scene.ghosts or self._marked):
            return  # no compare marks, and none left on any item
        self._marked = bool(self.added or self.changed)
        for node_id, node in self.scene.nodes.items():
            node.set_mark(
                ADDED if node_id in self.added else CHANGED if node_id in self.changed else None
            )
        for ghost in self.scene.ghosts.values():
            self.scene.removeItem(ghost)
        self.scene.ghosts.clear()
        for node_id, data in self.removed.items():
            place = self.removed_positions.get(node_id)
            if place is not None and node_id not in self.scene.nodes:
                self.scene.ghosts[node_id] = self._ghost(node_id, data, place)

    def _ghost(self, node_id: str, data: dict[str, Any], place: Position) -> NodeItem:
        """A removed node: its dashed, faded outline where it used to be."""
        node_type = str(data.get("type", ""))
        ghost = self.scene.make_node(node_id, look_for(node_type, data.get("kind")), ghost=True)
        label = str(data.get("label", node_id))
        caption = node_caption(node_id, {"type": node_type, "data": data})
        ghost.show_data(label, caption, f"removed: {label}\n{caption}\n{node_id}")
        ghost.place_at(place)
        if self.scene.detail:
            ghost.make_detail()  # few: their text is made at once, wherever they are
        return ghost

    def _apply_gaps(self) -> None:
        for node_id, message in self.gaps.items():
            if node_id in self.scene.nodes:
                self.scene.nodes[node_id].set_gap(message)

    def _apply_suspects(self) -> None:
        edges = self.scene.edges
        for key, reason in self.suspects.items():
            edge = edges.get(key)
            if edge is not None and edge.suspect != reason:
                edge.set_suspect(reason)

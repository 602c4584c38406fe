"""The badges of every node on one canvas while a run is shown, made as the nodes appear."""

from collections.abc import Collection
from datetime import datetime

import shiboken6
from PySide6.QtGui import QColor

from studio.model.run_view import RunView
from studio.ui.canvas.scene import WorkflowScene
from studio.ui.run.node_badge import ANIMATED, NodeBadge


class BadgeLayer:
    """One NodeBadge per node of a scene, by node id."""

    def __init__(self, scene: WorkflowScene) -> None:
        self.scene = scene
        self.by_node: dict[str, NodeBadge] = {}
        self.moving: set[str] = set()  # nodes whose badge shows a status that moves

    def prune(self) -> None:
        """Forget badges whose node left the canvas (deleted, or the scene was rebuilt by an
        undo or a reload): Qt deleted them with their node."""
        for node_id, badge in list(self.by_node.items()):
            item = self.scene.node_items.get(node_id)
            if not shiboken6.isValid(badge) or badge.parentItem() is not item:
                del self.by_node[node_id]
                self.moving.discard(node_id)

    def draw(self, node_id: str, view: RunView, now: datetime) -> None:
        """Draw what ``view`` says of the node (times relative to ``now``), if it is shown."""
        badge = self._badge(node_id)
        if badge is None:
            return
        node = view.nodes[node_id]
        badge.show_node(node, now)
        if node.status in ANIMATED:
            self.moving.add(node_id)
        else:
            self.moving.discard(node_id)

    def keep_only(self, node_ids: Collection[str]) -> None:
        """Remove the badges of nodes other than these."""
        for node_id in list(self.by_node):
            if node_id not in node_ids:
                self.by_node.pop(node_id).remove()
                self.moving.discard(node_id)

    def remove_all(self) -> None:
        """Remove every badge."""
        self.keep_only(())

    def set_heat(self, seconds: dict[str, float] | None) -> None:
        """Tint nodes by how long they took (a heat map), or remove the tint."""
        longest = max((s for s in (seconds or {}).values()), default=0.0)
        for node_id, badge in self.by_node.items():
            value = (seconds or {}).get(node_id)
            badge.heat = None if value is None or longest <= 0 else heat_colour(value / longest)
            badge.update()

    def animated(self) -> bool:
        """Whether any badge shows a status that moves (a spinner, a countdown)."""
        return bool(self.moving)

    def tick(self, now: datetime) -> None:
        """Advance the moving badges to ``now``."""
        for node_id in self.moving:
            self.by_node[node_id].tick(now)

    def set_opacity(self, value: float) -> None:
        """Fade every badge to ``value``."""
        for badge in self.by_node.values():
            badge.setOpacity(value)

    def _badge(self, node_id: str) -> NodeBadge | None:
        item = self.scene.node_items.get(node_id)
        badge = self.by_node.get(node_id)
        if item is None:
            return None
        if badge is None or badge.parentItem() is not item:  # the scene was rebuilt
            badge = NodeBadge(item, self.scene.colors.background.lightness() < 128)
            self.by_node[node_id] = badge
        return badge


def heat_colour(share: float) -> QColor:
    """Cool (short) to hot (long), translucent so the node stays readable."""
    colour = QColor.fromHsvF(0.33 * (1.0 - min(1.0, max(0.0, share))), 0.85, 0.95)
    colour.setAlphaF(0.35)
    return colour

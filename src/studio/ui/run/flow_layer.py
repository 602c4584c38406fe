"""The marks of a run on the edges of one canvas: which edges carried data, and how much."""

from collections.abc import Callable, Iterable
from typing import Any

import shiboken6

from studio.model.execution import COMPLETED, PENDING, SKIPPED
from studio.model.run_view import RunView
from studio.ui.canvas.items import EdgeItem
from studio.ui.canvas.scene import WorkflowScene
from studio.ui.run.edge_flow import EdgeFlow
from studio.ui.run.status_look import status_look

NodeOutput = Callable[[str, str], Any]
"""(execution id, node id) → that node's output, for the preview on an edge."""


class FlowLayer:
    """One EdgeFlow per edge of a scene that carried data in the run shown, by edge id."""

    def __init__(self, scene: WorkflowScene, preview: NodeOutput | None = None) -> None:
        self.scene = scene
        self.preview = preview
        self.by_edge: dict[str, EdgeFlow] = {}

    def prune(self) -> None:
        """Forget marks whose edge left the canvas: Qt deleted them with their edge."""
        for edge_id, flow in list(self.by_edge.items()):
            edge = self.scene.edge_items.get(edge_id)
            if not shiboken6.isValid(flow.label) or flow.edge is not edge:
                del self.by_edge[edge_id]

    def draw_all(self, view: RunView) -> None:
        """Mark every edge of the canvas afresh from ``view``."""
        self.remove_all()
        for edge_id, edge in self.scene.edge_items.items():
            self._draw(edge_id, edge, view)

    def draw_around(self, node_ids: Iterable[str], view: RunView) -> None:
        """Mark again the edges in and out of these nodes (each edge once), after their
        status changed."""
        edges: dict[str, EdgeItem] = {}
        for node_id in node_ids:
            item = self.scene.node_items.get(node_id)
            edges.update((edge.edge_id, edge) for edge in (item.edges if item else ()))
        for edge_id, edge in edges.items():
            self._draw(edge_id, edge, view)

    def remove_all(self) -> None:
        """Give every edge its own look back."""
        for edge_id in list(self.by_edge):
            self.by_edge.pop(edge_id).remove()

    def set_opacity(self, value: float) -> None:
        """Fade every mark to ``value``."""
        for flow in self.by_edge.values():
            flow.set_opacity(value)

    def _draw(self, edge_id: str, edge: EdgeItem, view: RunView) -> None:
        source = view.nodes.get(edge.source.node_id)
        target = view.nodes.get(edge.target.node_id)
        if source is None or target is None or not _carried(source.status, target.status):
            if edge_id in self.by_edge:
                self.by_edge.pop(edge_id).remove()
            return
        flow = self.by_edge.get(edge_id)
        if flow is None or flow.edge is not edge:
            colour = status_look(COMPLETED).colour(self.scene.colors.background.lightness() < 128)
            preview = self._preview_of(view.execution_id, edge.source.node_id)
            flow = EdgeFlow(edge, colour, preview)
            self.by_edge[edge_id] = flow
        flow.show_items(source.items)

    def _preview_of(self, execution_id: str, node_id: str) -> Callable[[], Any]:
        def preview() -> Any:
            return None if self.preview is None else self.preview(execution_id, node_id)

        return preview


def _carried(source_status: str, target_status: str) -> bool:
    """Whether data went along an edge: its source completed and its target was reached."""
    return source_status == COMPLETED and target_status not in (PENDING, SKIPPED)

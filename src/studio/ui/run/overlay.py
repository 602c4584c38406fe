"""The execution overlay: each node's run status drawn on the canvas, live or replayed.

The overlay holds a RunView and folds the run's events into it; a badge layer draws each node's
status under the node and a flow layer highlights the edges that carried data. The live path
folds each event into the view at once but draws on the next frame: a run of many quick nodes
sends hundreds of events a second, and drawing (and repainting the canvas) for each would stall
the window. A frame draws only the nodes that changed since the last one, and their edges."""

import time
from datetime import UTC, datetime

from PySide6.QtCore import QObject, QTimer, QVariantAnimation
from PySide6.QtWidgets import QGraphicsItem

from studio.model.document import DocumentEvent
from studio.model.execution import ExecutionEvent
from studio.model.run_view import RunView
from studio.ui.canvas.scene import WorkflowScene
from studio.ui.run.badge_layer import BadgeLayer
from studio.ui.run.edge_flow import EdgeFlow
from studio.ui.run.flow_layer import FlowLayer, NodeOutput
from studio.ui.run.node_badge import NodeBadge

REDRAWN_ON = frozenset({"node_added", "edge_added", "reset"})
"""Document changes after which the run is drawn again on what came back."""
FADE_AFTER_MS = 10_000
FADE_DURATION_MS = 800
TICK_MS = 100
FRAME_MS = 50
"""Live events are drawn at most this often (twenty times a second): soon enough to read as
live, and rare enough that drawing a busy run never leaves the window without time to react."""
FINISH_AT_ONCE = 40
"""Nodes left to draw when a run ends that are drawn at once rather than over frames."""
FRAME_BUDGET_S = 0.004
"""How long one frame may spend drawing badges; the nodes left wait for the next frame."""


class RunOverlay(QObject):
    """Draws one execution's RunView on a workflow's canvas."""

    def __init__(
        self,
        scene: WorkflowScene,
        preview: NodeOutput | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.scene = scene
        self.view: RunView | None = None
        self.badge_layer = BadgeLayer(scene)
        self.flow_layer = FlowLayer(scene, preview)  # preview: a node's output, on hover
        self.ticker = QTimer(self, interval=TICK_MS)
        self.ticker.timeout.connect(self._tick)
        self.fade_timer = QTimer(self, singleShot=True)
        self.fade_timer.timeout.connect(self._fade)
        self.fading: QVariantAnimation | None = None
        self.frozen_now: datetime | None = None  # a replay shows times as of its moment
        self._pending: dict[str, None] = {}  # nodes changed since last drawn, oldest first
        self.frame_timer = QTimer(self, singleShot=True, interval=FRAME_MS)
        self.frame_timer.timeout.connect(self._draw_frame)
        # After the scene has redrawn a node or edge (an undo, a paste, a reload) draw the run
        # on it again; the scene subscribed first, so its items exist by then.
        scene.document.subscribe(self._document_changed)

    @property
    def execution_id(self) -> str | None:
        """The execution shown, if any."""
        return self.view.execution_id if self.view else None

    @property
    def is_shown(self) -> bool:
        """Whether a run is drawn on the canvas now."""
        return self.view is not None

    @property
    def badges(self) -> dict[str, NodeBadge]:
        """The badge on each node, by node id."""
        return self.badge_layer.by_node

    @property
    def flows(self) -> dict[str, EdgeFlow]:
        """The mark on each edge that carried data, by edge id."""
        return self.flow_layer.by_edge

    def show_view(self, view: RunView, at: datetime | None = None) -> None:
        """Draw a whole view (a run opened from history, or a replay at ``at``)."""
        self._cache_nodes(False)
        self._stop_fading()
        self._drop_pending()
        self._prune()
        self.view, self.frozen_now = view, at
        self.badge_layer.keep_only(view.nodes)
        now = self._now()
        for node_id in view.nodes:
            self.badge_layer.draw(node_id, view, now)
        self.flow_layer.draw_all(view)
        self._keep_ticking()

    def show_live(self, view: RunView) -> None:
        """Draw a live run from its first moment: the badges are drawn over the next frames,
        a few milliseconds' worth a frame, so a large canvas never holds the window up."""
        self._stop_fading()
        self._drop_pending()
        self._prune()
        self.view, self.frozen_now = view, None
        self.badge_layer.keep_only(view.nodes)
        self.flow_layer.remove_all()
        self._pending = dict.fromkeys(view.nodes)
        self.frame_timer.start()
        self._cache_nodes(True)

    def apply(self, event: ExecutionEvent) -> None:
        """Take one live event of the shown execution; what it changed is drawn on the next
        frame (``flush`` draws it at once)."""
        view = self.view
        if view is None or event.execution_id != view.execution_id:
            return
        self._stop_fading()
        node_id = view.apply(event)
        if node_id is not None:
            self._pending[node_id] = None
            if not self.frame_timer.isActive():
                self.frame_timer.start()

    def flush(self) -> None:
        """Draw now every node whose view changed since it was last drawn, and its edges."""
        self._draw_pending(deadline=None)

    def finish(self) -> None:
        """The run ended: draw what is left at once when it is little (the canvas says how
        the run ended when the status bar does), else go on frame by frame."""
        if len(self._pending) <= FINISH_AT_ONCE:
            self.flush()

    def set_heat(self, seconds: dict[str, float] | None) -> None:
        """Tint nodes by how long they took (a heat map), or remove the tint."""
        self._prune()
        self.badge_layer.set_heat(seconds)

    def fade_later(self, delay_ms: int | None = None) -> None:
        """Fade the overlay out ``delay_ms`` (10 s unless told) after the run ended."""
        self.fade_timer.start(FADE_AFTER_MS if delay_ms is None else delay_ms)

    def clear(self) -> None:
        """Remove every badge and edge highlight."""
        self._cache_nodes(False)
        self._stop_fading()
        self._drop_pending()
        self.ticker.stop()
        self._prune()
        self.badge_layer.remove_all()
        self.flow_layer.remove_all()
        self.view = None

    def _document_changed(self, event: DocumentEvent) -> None:
        view = self.view
        if view is None or event.kind not in REDRAWN_ON:
            return
        self._prune()
        now = self._now()
        for node_id in view.nodes:
            if node_id not in self.badges:
                self.badge_layer.draw(node_id, view, now)
        self.flow_layer.draw_all(view)

    # Frames -----------------------------------------------------------------------------

    def _draw_frame(self) -> None:
        self._draw_pending(deadline=time.perf_counter() + FRAME_BUDGET_S)

    def _draw_pending(self, deadline: float | None) -> None:
        """Draw pending nodes, oldest change first, until ``deadline`` (all when None); the
        rest wait for the next frame."""
        self.frame_timer.stop()
        view = self.view
        if view is None or not self._pending:
            return
        self._prune()
        now = self._now()
        drawn: list[str] = []
        for node_id in self._pending:
            self.badge_layer.draw(node_id, view, now)
            drawn.append(node_id)
            if deadline is not None and time.perf_counter() > deadline:
                break
        for node_id in drawn:
            del self._pending[node_id]
        self.flow_layer.draw_around(drawn, view)
        self._keep_ticking()
        if self._pending:
            self.frame_timer.start()

    def _cache_nodes(self, cached: bool) -> None:
        """While a live run repaints its badges many times a second, the nodes under them are
        drawn from a picture of themselves rather than by Python each time: the run's engine
        shares the interpreter with the window, and a Python paint per node per frame would
        wait its turn for the interpreter hundreds of times a frame."""
        mode = QGraphicsItem.CacheMode
        for item in self.scene.node_items.values():
            item.setCacheMode(mode.DeviceCoordinateCache if cached else mode.NoCache)

    def _drop_pending(self) -> None:
        self.frame_timer.stop()
        self._pending = {}

    def _prune(self) -> None:
        self.badge_layer.prune()
        self.flow_layer.prune()

    # Time -------------------------------------------------------------------------------

    def _now(self) -> datetime:
        return self.frozen_now or datetime.now(UTC)

    def _keep_ticking(self) -> None:
        animated = self.frozen_now is None and self.badge_layer.animated()
        if animated and not self.ticker.isActive():
            self.ticker.start()
        elif not animated:
            self.ticker.stop()

    def _tick(self) -> None:
        self._prune()
        self.badge_layer.tick(self._now())

    def _fade(self) -> None:
        self.fading = QVariantAnimation(self, startValue=1.0, endValue=0.0)
        self.fading.setDuration(FADE_DURATION_MS)
        self.fading.valueChanged.connect(self._set_opacity)
        self.fading.finished.connect(self.clear)
        self.fading.start()

    def _set_opacity(self, value: float) -> None:
        self._prune()
        self.badge_layer.set_opacity(value)
        self.flow_layer.set_opacity(value)

    def _stop_fading(self) -> None:
        self.fade_timer.stop()
        if self.fading is not None:
            self.fading.finished.disconnect(self.clear)
            self.fading.stop()
            self.fading = None
            self._set_opacity(1.0)

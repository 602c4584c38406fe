"""Canvas speed: open a workflow file into a drawn canvas, and repaint while zooming and
panning with everything in view — for a chain and a random DAG of 100, 500 and 2,000 nodes,
next to a bare QGraphicsScene of rectangles, curves and text. Prints; asserts nothing.

    QT_QPA_PLATFORM=offscreen .venv/bin/python bench/canvas.py
"""

import os
import random
import statistics
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QPainterPath, QPen
from PySide6.QtWidgets import QApplication, QGraphicsScene, QGraphicsView

from studio.model import AgentDefinition, AgentRegistry, Workflow, load_workflow, write_workflow
from studio.model.layout import layout_positions
from studio.ui.canvas.editor import WorkflowEditor

SIZES = (100, 500, 2000)
ROW = "{:<12} {:>6} {:>9} {:>11} {:>14} {:>16}"
FRAMES = 30


def chain(count: int) -> Workflow:
    nodes = [{"id": f"n{i}", "agentId": "echo", "name": f"Step {i}"} for i in range(count)]
    edges = [{"source": f"n{i}", "target": f"n{i + 1}"} for i in range(count - 1)]
    return _laid_out({"name": f"chain {count}", "nodes": nodes, "edges": edges})


def random_dag(count: int, seed: int = 7) -> Workflow:
    rng = random.Random(seed)
    nodes = [{"id": f"n{i}", "agentId": "echo", "name": f"Step {i}"} for i in range(count)]
    edges = []
    for target in range(1, count):
        for source in rng.sample(range(max(0, target - 30), target), k=min(2, target)):
            edges.append({"source": f"n{source}", "target": f"n{target}"})
    return _laid_out({"name": f"dag {count}", "nodes": nodes, "edges": edges})


def _laid_out(data: dict) -> Workflow:
    workflow = Workflow.model_validate(data)
    positions = layout_positions(workflow)
    nodes = [node.model_copy(update={"position": positions[node.id]}) for node in workflow.nodes]
    return workflow.model_copy(update={"nodes": nodes})


def open_into_canvas(path: Path, agents: AgentRegistry) -> tuple[float, WorkflowEditor]:
    """Seconds from reading the file to a painted canvas."""
    began = time.perf_counter()
    editor = WorkflowEditor(load_workflow(path), agents)
    editor.resize(1400, 900)
    editor.show()
    editor.view.fit_all()
    editor.view.viewport().repaint()
    QApplication.processEvents()
    return time.perf_counter() - began, editor


def frame_times(view: QGraphicsView) -> float:
    """Median milliseconds per repaint while zooming in and out and panning, all in view."""
    times = []
    for frame in range(FRAMES):
        factor = 1.05 if frame % 10 < 5 else 1 / 1.05
        view.scale(factor, factor)
        view.horizontalScrollBar().setValue(
            view.horizontalScrollBar().value() + (3 if frame % 2 else -3)
        )
        began = time.perf_counter()
        view.viewport().grab()  # a full paint of the viewport into a pixmap
        times.append(time.perf_counter() - began)
    return statistics.median(times) * 1000


def bare_scene(workflow: Workflow) -> QGraphicsView:
    """The same number of rectangles, curves and labels, with nothing of Studio's."""
    scene = QGraphicsScene()
    where = {node.id: node.position for node in workflow.nodes}
    for node in workflow.nodes:
        scene.addRect(QRectF(node.position.x, node.position.y, 200, 64))
        text = scene.addText(node.name)
        text.setPos(node.position.x + 10, node.position.y + 10)
    for edge in workflow.edges:
        start, end = where[edge.source], where[edge.target]
        path = QPainterPath(QPointF(start.x + 200, start.y + 32))
        path.cubicTo(
            QPointF(start.x + 260, start.y + 32),
            QPointF(end.x - 60, end.y + 32),
            QPointF(end.x, end.y + 32),
        )
        scene.addPath(path, QPen())
    view = QGraphicsView(scene)
    scene.setParent(view)  # the view does not own its scene; keep it alive with the view
    view.resize(1400, 900)
    view.show()
    view.fitInView(scene.itemsBoundingRect())
    return view


def main() -> None:
    app = QApplication.instance() or QApplication([])
    agents = AgentRegistry()
    agents.add(AgentDefinition(id="echo", name="Echo", kind="echo"))
    print(
        ROW.format("graph", "nodes", "open (s)", "frame (ms)", "bare open (s)", "bare frame (ms)")
    )
    with tempfile.TemporaryDirectory() as folder:
        for size in SIZES:
            for name, build in (("chain", chain), ("random DAG", random_dag)):
                workflow = build(size)
                path = Path(folder) / f"{name}-{size}.yaml"
                write_workflow(workflow, path)
                seconds, editor = open_into_canvas(path, agents)
                frame = frame_times(editor.view)
                began = time.perf_counter()
                bare = bare_scene(load_workflow(path))
                bare.viewport().repaint()
                app.processEvents()
                bare_seconds = time.perf_counter() - began
                bare_frame = frame_times(bare)
                figures = (
                    f"{seconds:.3f}",
                    f"{frame:.1f}",
                    f"{bare_seconds:.3f}",
                    f"{bare_frame:.1f}",
                )
                print(ROW.format(name, size, *figures))
                editor.close()
                bare.close()


if __name__ == "__main__":
    main()

"""Canvas speed: open a workflow file into a drawn canvas, and repaint while zooming and
panning with everything in view — for a chain and a random DAG of 100, 500 and 2,000 nodes,
next to a bare QGraphicsScene of rectangles, curves and text. Prints; asserts nothing.

    QT_QPA_PLATFORM=offscreen .venv/bin/python bench/canvas.py

Where the time goes (random DAG of 2,000 nodes and 3,997 edges; 2 shared cores, other work
running; every figure the median of at least 5 runs). Fitted in view, that graph is at 2 %
zoom: every node is a few pixels wide.

A frame was 40 ms (bare scene 32 ms). It was spent per item, not per pixel: stroking the
curves cosmetic or straight, or turning antialiasing off, changed nothing. Of the 14,000
items, the 2,000 nodes cost about 20 ms — one Python ``paint`` call each, though far away it
only drew a rectangle; the 4,000 ports about 8 ms and the 4,000 arrowheads about 5 ms, for
dots smaller than a pixel; the 4,000 curves about 10 ms. Caching nodes as pixmaps made it
worse (DeviceCoordinateCache 45 ms, ItemCoordinateCache 135 ms: a zoom redraws every cache).
Now, below ``DETAIL_THRESHOLD`` a node paints nothing and a plain rectangle item that Qt draws
without Python stands for it, and below ``MARK_THRESHOLD`` ports and arrowheads are not
drawn (they still take clicks); the scene switches items only when the zoom crosses a
threshold. A frame is 11.6 ms (bare 31.5 ms); at 30 % zoom and nearer the picture is
pixel for pixel what it was.

Opening (this script's "open": read the file, build, fit, first paint) was 1.25 s and is
1.07 s (bare 0.99 s). Reading the YAML file alone is 0.28–0.44 s of it. Building the scene
was about 260 ms: a Python ``itemChange`` on every edge ran 44,000 times (11 per edge, for
a selection colour; the scene now recolours on ``selectionChanged``), and the arrowhead
angle was measured on every curve although every curve ends level. It is about 200 ms now:
2,000 nodes ~70 ms, 3,997 edges with their arrowheads ~130 ms, the Python garbage collector
10–25 ms of that. Giving the view its scene costs ~60 ms (Qt sizes the scene from every
item) and the first paint ~110 ms against 14 ms for the next: the BSP index is built then
(~25 ms; NoIndex would make each click or hover scan every item, 1.7 ms a look-up instead of
0.05 ms, so the index stays) and the far boxes are made. The minimap is 4–5 ms: it draws a
dot per node into a pixmap once.

``studio screenshot --open`` of this graph minus a 1-node file went from 1.16 s to 0.92 s.
Beyond the canvas (~0.4 s), the file is read and validated twice on that path (once by the
command line's check, once by the window's open), and stored before it is shown.

Since (the file is read once now): building the scene was 150 ms and is 110 ms. Each edge
made two pens and a brush and built its arrowhead's triangle afresh (they are shared by the
colours, and the one triangle is placed at the curve's end), each new item was told the
level of detail it already had (12,000 calls), and every enum member looked up on the way
was a Python call (hoisted into constants). The first paint at 2 % zoom switches 2,000
nodes to their far boxes: 27 ms, 19 ms now (the box takes its outline and fill, not the
ports' look again). Giving the view its scene still costs ~48 ms (a bare scene of as many
items: 28 ms; the rest is Qt asking Studio's items, once each, whether Python overrides
their geometry, and the edges' wider click shape). This script's open: 0.81 s → 0.78 s;
a frame 10.7 ms either way (medians of 5 alternating processes). The pictures at 2 %, 30 %,
60 % and 100 % zoom, with a node and an edge selected, are pixel for pixel what they were.
"""

import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# Run as a script, this folder comes first on the path, and its queue.py would hide the
# standard library's queue module from everything imported below: put the folder last.
sys.path.sort(key=lambda entry: Path(entry or ".").resolve() == Path(__file__).resolve().parent)

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QPainterPath, QPen
from PySide6.QtWidgets import QApplication, QGraphicsScene, QGraphicsView

from studio.model import AgentDefinition, AgentRegistry, Workflow, load_workflow, write_workflow
from studio.model.layout import layout_positions
from studio.ui.canvas.editor import WorkflowEditor

SIZES = (100, 500, 2000)
ROW = "{:<12} {:>6} {:>9} {:>11} {:>14} {:>16}"
FRAMES = 30


@dataclass(frozen=True)
class CanvasFigures:
    """One graph opened and repainted in Studio's canvas and in the bare scene."""

    open_s: float
    frame_ms: float
    bare_open_s: float
    bare_frame_ms: float


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


def measure_graph(
    app: QApplication, agents: AgentRegistry, folder: Path, workflow: Workflow
) -> CanvasFigures:
    """Write the workflow to a file in ``folder``, open it into Studio's canvas and into the
    bare scene, and time both."""
    path = folder / f"{workflow.name}.yaml"
    write_workflow(workflow, path)
    seconds, editor = open_into_canvas(path, agents)
    frame = frame_times(editor.view)
    began = time.perf_counter()
    bare = bare_scene(load_workflow(path))
    bare.viewport().repaint()
    app.processEvents()
    bare_seconds = time.perf_counter() - began
    bare_frame = frame_times(bare)
    editor.close()
    bare.close()
    return CanvasFigures(seconds, frame, bare_seconds, bare_frame)


def echo_agents() -> AgentRegistry:
    agents = AgentRegistry()
    agents.add(AgentDefinition(id="echo", name="Echo", kind="echo"))
    return agents


def measure(size: int = 2000, build: Callable[[int], Workflow] = random_dag) -> CanvasFigures:
    """One graph of ``size`` nodes (a random DAG unless told), in a fresh temporary folder."""
    app = QApplication.instance() or QApplication([])
    assert isinstance(app, QApplication)
    with tempfile.TemporaryDirectory() as folder:
        return measure_graph(app, echo_agents(), Path(folder), build(size))


def main() -> None:
    app = QApplication.instance() or QApplication([])
    assert isinstance(app, QApplication)
    agents = echo_agents()
    print(
        ROW.format("graph", "nodes", "open (s)", "frame (ms)", "bare open (s)", "bare frame (ms)")
    )
    with tempfile.TemporaryDirectory() as folder:
        for size in SIZES:
            for name, build in (("chain", chain), ("random DAG", random_dag)):
                figures = measure_graph(app, agents, Path(folder), build(size))
                cells = (
                    f"{figures.open_s:.3f}",
                    f"{figures.frame_ms:.1f}",
                    f"{figures.bare_open_s:.3f}",
                    f"{figures.bare_frame_ms:.1f}",
                )
                print(ROW.format(name, size, *cells))


if __name__ == "__main__":
    main()

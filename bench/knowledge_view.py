"""The Knowledge view's speed on generated stores of 500, 2,000 and 5,000 artifacts with typed
items: families of requirements (two versions, the second superseding the first), stories,
design and a unit plan, each with fenced yaml items, produced by runs, in subjects of 60
families, landed with ``KnowledgeBase.ingest`` into a SQLite file. For each store:

- open: from building the main window in its Knowledge mode to the first paint of a canvas
  that has every node of the view asked for (the default view: artifacts and runs of every
  subject); and where that time goes, timed part by part outside the window (reading the
  history, cutting the view, laying it out, creating the canvas items in one go, the first
  paint);
- frame: the median time to repaint while zooming in and out and panning with everything in
  view, for the default view and for one subject with items and units (about 1,000 nodes);
- step: moving the timeline one moment back at a time (through the signal a drag sends), the
  time until the view of the new moment is drawn and painted once, median and longest of
  several steps;
- ingest: the longest the UI thread is blocked (a 2 ms timer on it, as in
  run_responsiveness.py) while 1,000 more artifacts land through the view's landing
  controller, and then while the grown graph is read and drawn.

Targets: open 5,000 artifacts in under 1.5 s, a 1,000-node view repaints in under 33 ms, a
timeline step redraws in under 100 ms, no UI block over 50 ms while ingesting. The stores are
generated once and kept in ``$STUDIO_BENCH_CACHE`` (default: a temporary folder) between runs;
each size is measured in a process of its own.
Prints; asserts nothing.

Figures on a 2-core machine, idle otherwise (several runs; the spread is wide, and in some
runs every part, the history read included, took 40 % longer):

| artifacts | open | frame: all / one subject | step: median (longest) | block: landing / redraw |
|---|---|---|---|---|
| 500 | 380 ms | 1.7–3.8 / 6–7 ms | 21–22 (33) ms | 20–28 / 15–25 ms |
| 2,000 | 570–870 ms | 6–10 / 4–10 ms | 34–49 (54–82) ms | 12–17 / 20–32 ms |
| 5,000 | 1,060–1,330 ms | 18–20 / 3–7 ms | 60–84 (89–116) ms | 24–38 / 32–41 ms |

At 5,000 the open was 3.8 s, a step 0.8 s and the redraw block 0.8 s before the view held the
garbage collector off while building (and froze the history out of its reach), made text only
for nodes seen up close, re-projected only the subjects a step changes, drew large graphs over
several turns, and drew the minimap as dots. Later: the subjects' projections are joined by
sharing their dicts rather than copying every node and edge; each subject's heads, projection,
gaps and suspect links are kept by how many of its versions a moment includes (a step costs a
bisection per subject); the scene no longer walks every item when the window is activated;
the insights are a model that costs nothing per entry until drawn. Then the last 50 ms went:
the worker works out each view's node sources and edge keys, so the scene finds what changed
by set differences (a step's UI share fell from 35–80 ms to 16–54 ms); a replaced history is
freed a container at a time 1.5 s after the new view, not while it is drawn (that had cost a
landing's redraw 20–30 ms); projections' networkx graphs keep no views that refer back to them,
so they are freed without a collection; each version's rows are read apart instead of sorted
all together (history read 350 → 270 ms); and suspect-link messages format dates without
strftime (14 ms per 1,000 through Qt's import hook).

    QT_QPA_PLATFORM=offscreen .venv/bin/python bench/knowledge_view.py [SIZE ...]
"""

import gc
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# Run as a script, this folder comes first on the path, and its queue.py would hide the
# standard library's queue module from everything imported below: put the folder last.
sys.path.sort(key=lambda entry: Path(entry or ".").resolve() == Path(__file__).resolve().parent)

from PySide6.QtCore import QEventLoop, QTimer, SignalInstance
from PySide6.QtWidgets import QApplication, QGraphicsView
from run_responsiveness import LateTicks  # bench/: the same 2 ms probe of the UI thread

from studio.knowledge.graph_layout import StableLayout
from studio.knowledge.graph_view import ViewQuery, view_of
from studio.knowledge.knowledge_base import KnowledgeBase
from studio.knowledge.knowledge_history import read_history
from studio.store import open_database
from studio.store.knowledge import KnowledgeRepository
from studio.ui.app import create_application
from studio.ui.knowledge.graph_canvas import KnowledgeCanvas
from studio.ui.knowledge.knowledge_mode import KnowledgeMode
from studio.ui.window.main_window import MainWindow
from studio.workspace import Workspace

SIZES = (500, 2000, 5000)
INCOMING = 1000
"""Artifacts landed in the background while the view is open."""
FAMILY = 5
"""Versions per family: requirements twice, stories, design, unit plan."""
FAMILIES_PER_SUBJECT = 60
STEPS = 6
FRAMES = 30
WAIT_S = 120.0
TARGETS = {"open": 1500.0, "frame": 33.0, "step": 100.0, "block": 50.0}
START = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
HEADER = (
    f"Knowledge view, generated stores (families of {FAMILY} versions, "
    f"{FAMILIES_PER_SUBJECT} families a subject); targets: open < "
    f"{TARGETS['open']:.0f} ms at 5,000, frame < {TARGETS['frame']:.0f} ms at ~1,000 "
    f"nodes, step < {TARGETS['step']:.0f} ms, block < {TARGETS['block']:.0f} ms"
)


# The generated corpus -----------------------------------------------------------------------


def family_files(prefix: str, family: int) -> list[tuple[str, str]]:
    """(file name, text) of one family's five versions, oldest first."""
    subject = f"{prefix}-{family // FAMILIES_PER_SUBJECT}"
    at = START + timedelta(hours=6 * family)
    intake, design = f"exec-{prefix}-{family}-intake", f"exec-{prefix}-{family}-design"

    def front(name: str, kind: str, title: str, run: str, hours: int, links: str = "") -> str:
        moment = (at + timedelta(hours=hours)).isoformat().replace("+00:00", "Z")
        return (
            f"---\nid: {name}-{family}\nkind: {kind}\nsubject: {subject}\n"
            f"title: {title} {family}\n"
            f"produced_by: {{capability: bench, workflow: pipeline-{family % 7}, "
            f"execution: {run}, node: {name}}}\n{links}created_at: {moment}\n---\n"
        )

    def requirements(revised: bool) -> str:
        count = 3 if revised else 2
        items = "".join(
            f"\n```yaml requirement\nid: REQ-{family}-{n}\ntitle: Requirement {n} of {family}\n"
            f"priority: must\ntext: The shopper {'can now' if revised else 'can'} do {n}.\n```\n"
            for n in range(1, count + 1)
        )
        title = "Requirements (revised)" if revised else "Requirements"
        run = design if revised else intake
        return front("requirements", "requirements", title, run, 3 if revised else 0) + (
            f"# Requirements\n\n## Scope\nWhat family {family} must do.\n{items}"
        )

    stories = front(
        "stories",
        "stories",
        "User stories",
        intake,
        1,
        f"links:\n  - {{type: DERIVED_FROM, target: requirements-{family}}}\n",
    ) + "".join(
        f"\n```yaml story\nid: ST-{family}-{n}\ntitle: Story {n} of {family}\n"
        f"covers: [REQ-{family}-{n}]\n```\n"
        for n in range(1, 4)
    )
    cites = f" and [[design-{family - 1}]]" if family % FAMILIES_PER_SUBJECT else ""
    design_text = front(
        "design",
        "design",
        "Design",
        design,
        4,
        f"links:\n  - {{type: DEPENDS_ON, target: stories-{family}}}\n",
    ) + (
        f"# Design\n\nAnswers [[stories-{family}]]{cites}.\n\n"
        f"```yaml component\nid: C-{family}\nname: Component of {family}\n```\n\n"
        f"```yaml decision\nid: D-{family}\ntitle: Decision of {family}\nstatus: accepted\n"
        f"covers: [REQ-{family}-2]\n```\n\n"
        f"```yaml contract\nid: K-{family}\ntitle: Contract of {family}\n"
        f"depends_on: [C-{family}]\n```\n"
    )
    plan = front(
        "unit-plan",
        "unit-plan",
        "Construction plan",
        design,
        5,
        f"links:\n  - {{type: DERIVED_FROM, target: design-{family}}}\n",
    ) + (
        f"# Units\n\n```yaml unit\nslug: store-{family}\ntitle: Store of {family}\n"
        f"implements: [ST-{family}-2]\nexposes: [K-{family}]\n```\n\n"
        f"```yaml unit\nslug: flow-{family}\ntitle: Flow of {family}\n"
        f"implements: [ST-{family}-1, ST-{family}-3]\ndepends_on: [store-{family}]\n```\n"
    )
    texts = [requirements(False), stories, requirements(True), design_text, plan]
    names = ["requirements", "stories", "requirements-revised", "design", "unit-plan"]
    return [(f"{family:05d}-{n}.md", text) for n, text in zip(names, texts, strict=True)]


def write_corpus(folder: Path, prefix: str, count: int) -> None:
    """``count`` artifact versions (a multiple of FAMILY) in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    for family in range(count // FAMILY):
        for name, text in family_files(prefix, family):
            (folder / name).write_text(text, encoding="utf-8")


def stored_corpus(cache: Path, size: int) -> tuple[Path, float]:
    """A database holding ``size`` generated artifacts, and the seconds its ingest took (0 when
    it was generated before)."""
    database = cache / f"knowledge-{size}.db"
    if database.exists():
        return database, 0.0
    folder = cache / f"corpus-{size}"
    write_corpus(folder, "subject", size)
    partial = cache / f"partial-{size}.db"
    partial.unlink(missing_ok=True)
    knowledge = KnowledgeBase(KnowledgeRepository(open_database(partial)))
    began = time.perf_counter()
    knowledge.ingest(folder)
    took = time.perf_counter() - began
    knowledge.repository.database.close()
    partial.rename(database)
    shutil.rmtree(folder)
    return database, took


# Waiting and probing ------------------------------------------------------------------------


def wait_until(condition: Callable[[], bool], *signals: SignalInstance) -> None:
    """Let the event loop run until ``condition`` holds, checking it each time one of the
    signals comes (no polling timer: waking the UI thread every millisecond would take the
    interpreter from the threads at work, and slow what is measured)."""
    loop = QEventLoop()

    def check(*_args: object) -> None:
        if condition():
            loop.quit()

    for signal in signals:
        signal.connect(check)
    QTimer.singleShot(int(WAIT_S * 1000), loop.quit)
    if not condition():
        loop.exec()
    for signal in signals:
        signal.disconnect(check)
    if not condition():
        raise TimeoutError("the view did not get there in time")


def drawn(mode: KnowledgeMode) -> bool:
    """Whether the view of the current choices is on the canvas."""
    current = mode.session.current
    return (
        current is not None
        and current.view.query == mode.session.query
        and not mode.canvas.is_drawing()
        and mode.canvas.node_ids() == set(current.view.projection.graph.nodes)
    )


class Views:
    """Counts the views a session sends, and those sent since it last read the history."""

    def __init__(self, mode: KnowledgeMode) -> None:
        self.mode = mode
        self.sent = 0
        self.since_history = -1
        mode.session.historyChanged.connect(self._history)
        mode.session.viewChanged.connect(self._view)

    def _history(self, _history: object) -> None:
        self.since_history = 0

    def _view(self, _drawn: object) -> None:
        self.sent += 1
        if self.since_history >= 0:
            self.since_history += 1

    def change(self, change: Callable[[], object]) -> None:
        """Make a change and wait until the view it asks for is drawn."""
        sent = self.sent
        change()
        wait_until(lambda: self.sent > sent and drawn(self.mode), *self.signals())

    def wait_for_history(self) -> None:
        """Wait until a view of a history read since ``since_history`` was last -1 is drawn."""
        wait_until(lambda: self.since_history > 0 and drawn(self.mode), *self.signals())

    def signals(self) -> tuple[SignalInstance, ...]:
        """What a drawn view is announced by (a view too small to be drawn over several
        turns is drawn before ``viewChanged`` reaches this, so both are watched)."""
        return self.mode.session.viewChanged, self.mode.canvas.graphDrawn


# Measures -----------------------------------------------------------------------------------


def open_view(database: Path, scratch: Path) -> tuple[float, MainWindow, Workspace, Views]:
    """Milliseconds from building the window in its Knowledge mode to a painted canvas."""
    workspace = Workspace(scratch / "data", (), str(database))
    began = time.perf_counter()
    window = MainWindow(workspace, "knowledge")
    views = Views(window.knowledge)
    window.resize(1600, 1000)
    window.show()
    views.wait_for_history()
    window.knowledge.canvas.view.viewport().repaint()
    return (time.perf_counter() - began) * 1000, window, workspace, views


def frame_time(view: QGraphicsView) -> float:
    """Median milliseconds per repaint while zooming in and out and panning, all in view."""
    times = []
    for frame in range(FRAMES):
        factor = 1.05 if frame % 10 < 5 else 1 / 1.05
        view.scale(factor, factor)
        bar = view.horizontalScrollBar()
        bar.setValue(bar.value() + (3 if frame % 2 else -3))
        began = time.perf_counter()
        view.viewport().grab()
        times.append(time.perf_counter() - began)
    return statistics.median(times) * 1000


def frames(mode: KnowledgeMode, views: Views) -> tuple[float, int, float, int]:
    """Frame times (ms) and node counts of the default view and of one subject with items and
    units."""
    mode.canvas.fit_all()
    whole = frame_time(mode.canvas.view)
    whole_nodes = len(mode.canvas.node_ids())
    subject = mode.session.history.subjects[0]
    views.change(lambda: mode.session.change(subject=subject, items=True, units=True))
    mode.canvas.fit_all()
    one = frame_time(mode.canvas.view)
    one_nodes = len(mode.canvas.node_ids())
    views.change(lambda: mode.session.change(subject=None, items=False, units=False))
    return whole, whole_nodes, one, one_nodes


def timeline_steps(mode: KnowledgeMode, views: Views) -> tuple[float, float]:
    """Median and longest milliseconds from a one-moment step back to the drawn view."""
    moments = [m.at for m in mode.session.history.moments]
    times = []
    for step in range(1, STEPS + 1):
        moment = moments[-1 - step]
        began = time.perf_counter()
        views.change(lambda: mode.timeline.positionChanged.emit(moment))  # noqa: B023
        QApplication.processEvents()  # the paint the drawn view asked for, if still to come
        times.append((time.perf_counter() - began) * 1000)
    views.change(lambda: mode.timeline.positionChanged.emit(None))
    return statistics.median(times), max(times)


def background_ingest(
    mode: KnowledgeMode, views: Views, scratch: Path
) -> tuple[float, float, float]:
    """Longest UI block while INCOMING artifacts land, and while the grown graph is drawn;
    the seconds the landing took."""
    folder = scratch / "incoming"
    write_corpus(folder, "incoming", INCOMING)
    probe = LateTicks()
    finished: list[bool] = []
    mode.landing.finished.connect(lambda: finished.append(True))
    views.since_history = -1
    probe.start()
    began = time.perf_counter()
    mode.landing.land_paths([folder])
    wait_until(lambda: bool(finished), mode.landing.finished)
    took = time.perf_counter() - began
    during = probe.stop()
    probe.start()
    views.wait_for_history()
    mode.canvas.view.viewport().repaint()
    after = probe.stop()
    return during, after, took


# Where the time goes ------------------------------------------------------------------------


def parts(database: Path) -> str:
    """Each step of opening the default view, timed on its own, in milliseconds."""
    knowledge = KnowledgeBase(KnowledgeRepository(open_database(database)))
    timed: dict[str, float] = {}

    def timing(name: str, work: Callable[[], object]) -> object:
        began = time.perf_counter()
        result = work()
        timed[name] = (time.perf_counter() - began) * 1000
        return result

    history = read_history(knowledge)
    history = timing("read history", lambda: read_history(knowledge))
    query = ViewQuery()
    layout = StableLayout()
    view = timing("view", lambda: view_of(history, query))
    positions = timing("lay out", lambda: layout.place(view.projection))
    canvas = KnowledgeCanvas()
    canvas.resize(1200, 900)
    canvas.show()
    QApplication.processEvents()

    def draw() -> None:
        canvas.show_graph(view.projection, positions)
        canvas.finish_drawing()

    timing("canvas items", draw)
    timing("first paint", lambda: canvas.view.viewport().repaint())
    canvas.close()
    canvas.deleteLater()
    knowledge.repository.database.close()
    return "  ".join(f"{name} {ms:5.0f}" for name, ms in timed.items())


@dataclass(frozen=True)
class KnowledgeViewFigures:
    """One store's figures, in milliseconds unless the name says otherwise."""

    size: int
    ingest_s: float
    """Seconds the store's ingest took (0 when it was generated before)."""
    parts: str
    open_ms: float
    nodes: int
    frame_all_ms: float
    frame_all_nodes: int
    frame_one_ms: float
    frame_one_nodes: int
    step_median_ms: float
    step_longest_ms: float
    block_landing_ms: float
    landing_s: float
    block_redraw_ms: float


def measure_store(
    app: QApplication, cache: Path, scratch_root: str, size: int
) -> KnowledgeViewFigures:
    """Open, repaint, step and grow the view of a store of ``size`` artifacts."""
    database, ingest_s = stored_corpus(cache, size)
    scratch = Path(tempfile.mkdtemp(dir=scratch_root))
    copy = scratch / "knowledge.db"
    shutil.copy(database, copy)
    timed_parts = parts(copy)
    app.processEvents()
    gc.collect()  # the garbage of the parts is not the window's to collect as it opens
    opened, window, workspace, views = open_view(copy, scratch)
    mode = window.knowledge
    nodes = len(mode.canvas.node_ids())
    frame_figures = frames(mode, views)
    median, longest = timeline_steps(mode, views)
    during, after, took = background_ingest(mode, views, scratch)
    window.close()
    workspace.close()
    app.processEvents()
    return KnowledgeViewFigures(
        size, ingest_s, timed_parts, opened, nodes, *frame_figures, median, longest, during,
        took, after,
    )  # fmt: skip


def measure(size: int) -> KnowledgeViewFigures:
    """One store of ``size`` artifacts (kept in ``$STUDIO_BENCH_CACHE`` if set)."""
    app = create_application()
    cache_root = os.environ.get("STUDIO_BENCH_CACHE")
    with tempfile.TemporaryDirectory() as scratch_root:
        cache = Path(cache_root or scratch_root)
        cache.mkdir(parents=True, exist_ok=True)
        return measure_store(app, cache, scratch_root, size)


def main(sizes: tuple[int, ...], header: bool = True) -> int:
    app = create_application()
    cache_root = os.environ.get("STUDIO_BENCH_CACHE")
    with tempfile.TemporaryDirectory() as scratch_root:
        cache = Path(cache_root or scratch_root)
        cache.mkdir(parents=True, exist_ok=True)
        if header:
            print(HEADER)
        for size in sizes:
            print_figures(measure_store(app, cache, scratch_root, size))
    return 0


def print_figures(figures: KnowledgeViewFigures) -> None:
    landed = f" (ingest {figures.ingest_s:.1f} s)" if figures.ingest_s else ""
    print(f"\n{figures.size} artifacts{landed}")
    print(f"  parts (ms): {figures.parts}")
    print(f"  open to drawn canvas:  {figures.open_ms:7.0f} ms  ({figures.nodes} nodes)")
    whole = f"{figures.frame_all_ms:5.1f} ms ({figures.frame_all_nodes} nodes)"
    one = f"{figures.frame_one_ms:5.1f} ms ({figures.frame_one_nodes} nodes)"
    print(f"  frame, default view:   {whole}")
    print(f"  frame, one subject:    {one}  (items and units)")
    median, longest = figures.step_median_ms, figures.step_longest_ms
    print(f"  timeline step:         {median:7.0f} ms median, {longest:.0f} ms longest")
    print(
        f"  ingest {INCOMING} more:      longest block {figures.block_landing_ms:5.1f} ms while "
        f"landing ({figures.landing_s:.1f} s), {figures.block_redraw_ms:5.1f} ms while the grown "
        f"graph is drawn"
    )


def each_in_a_process_of_its_own(sizes: tuple[int, ...]) -> int:
    """Measure each size in a fresh process: what one size leaves behind (its windows, its
    histories kept out of the collector's reach) would slow the next one down."""
    print(HEADER, flush=True)
    codes = [subprocess.call([sys.executable, __file__, "--one", str(size)]) for size in sizes]
    return max(codes)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--one"]:
        sys.exit(main((int(sys.argv[2]),), header=False))
    sys.exit(each_in_a_process_of_its_own(tuple(int(arg) for arg in sys.argv[1:]) or SIZES))

"""The knowledge view's state between the store and the widgets: the history read once, the
person's choices, and the view those choices give, with positions for every node.

Reading the history is store work (on the store thread); cutting the view and laying it out is
CPU work on a worker thread of its own, so neither holds the window up. A new choice made while
a view is being worked out wins: the older answer is dropped when it arrives. The views of the
last few queries are kept, so going back to one shows it at once; the garbage collector is held
off while the worker works (the history is a great many objects that a collection would walk
again and again).

    session = GraphSession(workspace, parent=self)
    session.viewChanged.connect(canvas_part.show)
    session.reload()                      # read the history, then draw
    session.change(items=True)            # a toggle: a new view, positions kept
"""

import logging
import sys
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from studio.knowledge.collection_pause import collection_paused
from studio.knowledge.graph_layout import StableLayout, neighbourhood_layout
from studio.knowledge.graph_view import GraphView, ViewQuery, view_of
from studio.knowledge.knowledge_history import KnowledgeHistory, read_history
from studio.ui.knowledge.graph_scene import Drawing
from studio.ui.store_calls import StoreCalls
from studio.workspace import Workspace

log = logging.getLogger("studio.ui.knowledge")
KEPT = 3
"""Views kept of the latest queries: stepping back and forth along the timeline, or turning a
layer off and on again, finds the view it goes back to."""
Positions = dict[str, tuple[float, float]]


LET_GO_AFTER_MS = 1500
"""How long after a new history's first view the old one is freed: freeing thousands of
versions costs the view's worker 30 ms or more, and while the new graph is still being drawn
that time is taken from the window."""


@dataclass(frozen=True, eq=False)
class DrawnView:
    """A view with a position for each of its nodes, and for the ghosts of removed ones."""

    view: GraphView
    positions: Positions
    drawing: Drawing
    """What the canvas compares with what it drew, worked out with the view."""


class GraphSession(QObject):
    """Holds the history and the query; works out views off the UI thread."""

    historyChanged = Signal(object)  # KnowledgeHistory
    viewChanged = Signal(object)  # DrawnView
    failed = Signal(str)  # what went wrong, for a person

    def __init__(self, workspace: Workspace, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.workspace = workspace
        self.store = StoreCalls(parent=self)
        self.history = KnowledgeHistory()
        self.query = ViewQuery()
        self.current: DrawnView | None = None
        self._worker = ThreadPoolExecutor(1, thread_name_prefix="studio-graph")
        self._layout = StableLayout()
        self._asked = 0
        self._kept: dict[ViewQuery, Future[DrawnView]] = {}
        """The views of the latest queries (worked out or being worked out), oldest first."""
        self._replaced: list[KnowledgeHistory] = []
        """Histories read before the current one, let go of a while after its first view."""
        self._let_go_later = QTimer(self, singleShot=True, interval=LET_GO_AFTER_MS)
        self._let_go_later.timeout.connect(self._let_go_of_replaced)
        self.destroyed.connect(lambda: self._worker.shutdown(wait=False, cancel_futures=True))

    def reload(self) -> Future[KnowledgeHistory]:
        """Read the history again (after a landing), then work out the view."""
        knowledge = self.workspace.knowledge
        return self.store.call(lambda: read_history(knowledge), self._got_history, self._failed)

    def change(self, **choices: Any) -> None:
        """Change some choices and work out the view they give."""
        self.set_query(replace(self.query, **choices))

    def set_query(self, query: ViewQuery) -> None:
        """Replace every choice at once."""
        if query.subject != self.query.subject:
            self._layout = StableLayout()  # node ids change with the subject: lay out afresh
            self._forget_views()
        self.query = query
        self._work_out()

    def relayout(self) -> None:
        """Lay the graph out afresh (the positions kept so far are forgotten)."""
        self._layout = StableLayout()
        self._forget_views()
        self._work_out()

    def _got_history(self, history: KnowledgeHistory) -> None:
        """A history read (the first, or again after a landing): nodes seen before keep their
        places, and what landed goes in beside its neighbours, so the picture does not jump."""
        subject = self.query.subject
        self._replaced.append(self.history)
        self.history = history
        if self.query.subject is None and len(history.subjects) == 1:
            self.query = replace(self.query, subject=history.subjects[0])
        elif self.query.subject not in (None, *history.subjects):
            self.query = replace(self.query, subject=None)
        if self.query.subject != subject:
            self._layout = StableLayout()  # node ids change with the subject
        self._forget_views()
        self.historyChanged.emit(history)
        self._work_out()

    def _work_out(self) -> None:
        self._asked += 1
        asked, query = self._asked, self.query
        future = self._kept.pop(query, None)
        if future is None or _went_wrong(future):
            history, layout = self.history, self._layout
            future = self._worker.submit(lambda: drawn_view(history, query, layout))
        self._kept[query] = future  # the latest last: a step back to it finds it
        while len(self._kept) > KEPT:
            self._kept.pop(next(iter(self._kept)))
        self.store.deliver(future, lambda drawn: self._got_view(asked, drawn), self._failed)

    def _forget_views(self) -> None:
        """Drop the views kept (the history or the layout changed)."""
        self._kept.clear()

    def _got_view(self, asked: int, drawn: DrawnView) -> None:
        if asked != self._asked:
            return  # a newer choice is on its way
        self.current = drawn
        self.viewChanged.emit(drawn)
        if self._replaced:  # every part has moved on to the new history by now
            self._let_go_later.start()  # again, when views come one after another

    def _let_go_of_replaced(self) -> None:
        replaced, self._replaced = self._replaced, []
        self._worker.submit(_let_go, replaced)

    def _failed(self, error: Exception) -> None:
        log.warning("knowledge view failed: %s", error)
        self.failed.emit(str(error))


def drawn_view(history: KnowledgeHistory, query: ViewQuery, layout: StableLayout) -> DrawnView:
    """The view for a query and positions for it (and for the ghosts of a comparison).

    The first view placed lays the layout out; every later one keeps the nodes placed before
    where they were and puts new ones in free slots near their neighbours, so moving through
    time or changing a filter never moves a node."""
    with collection_paused():
        return _drawn_view(history, query, layout)


def _drawn_view(history: KnowledgeHistory, query: ViewQuery, layout: StableLayout) -> DrawnView:
    view = view_of(history, query)
    if query.focus is not None and not view.lost_focus:
        positions = neighbourhood_layout(view.projection, query.focus, query.depth)
    else:
        positions = layout.place(view.projection)
    if view.changes is not None and view.compared is not None:
        remembered = layout.positions
        if any(removed["id"] not in remembered for removed in view.changes.nodes_removed):
            remembered = layout.positions | layout.place(view.compared)
        for removed in view.changes.nodes_removed:
            if removed["id"] in remembered:
                positions[removed["id"]] = remembered[removed["id"]]
    return DrawnView(view, positions, Drawing.of(view.projection, positions))


def _let_go(replaced: list[KnowledgeHistory]) -> None:
    """Free histories no longer shown, off the UI thread and a piece at a time; one still
    used elsewhere (a search begun before the new history came) is only let go of."""
    while replaced:
        history = replaced.pop()
        if sys.getrefcount(history) == 2:  # held by this name alone (and the call's argument)
            history.dismantle()
        del history


def _went_wrong(future: "Future[DrawnView]") -> bool:
    """Whether a view kept failed (it is worked out again when asked for again)."""
    return future.done() and future.exception() is not None

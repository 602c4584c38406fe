"""The Knowledge mode as a designer uses it on the sample corpus: land it, see artifacts and
their runs, turn on items and units, search for a requirement and jump to it, focus it, walk
its lineage down to its unit, drag the timeline back before the requirements were revised,
compare two moments, read an artifact, compare two versions of it."""

from dataclasses import replace
from datetime import UTC, datetime

import networkx
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QFileDialog

from studio.knowledge.graph_layout import layered_layout
from studio.ui.knowledge.graph_marks import DIMMED_NODE
from studio.ui.knowledge.timeline_strip import AXIS_Y
from tests.ui.knowledge.knowledge_window import (
    DESIGN,
    NEW_REQUIREMENTS,
    OLD_REQUIREMENTS,
    WAIT_MS,
    click_node,
    double_click_node,
    label_of,
    land_corpus,
    open_window,
    wait_drawn,
)
from tests.ui.knowledge.test_artifact_pane import click_link

CTRL, SHIFT, ALT = (
    Qt.KeyboardModifier.ControlModifier,
    Qt.KeyboardModifier.ShiftModifier,
    Qt.KeyboardModifier.AltModifier,
)
SEPT_2 = datetime(2026, 9, 2, 8, 0, tzinfo=UTC)
"""The personas landed; the requirements were not revised yet, nothing was designed."""


def tick(mode, index: int) -> QPoint:
    """Where a person aims at a landing moment on the timeline."""
    return QPoint(round(mode.timeline.strip.scale.x_of(index)), int(AXIS_Y - 6))


def test_an_empty_store_says_how_to_fill_it(qtbot, tmp_path) -> None:
    window = open_window(qtbot, tmp_path)
    page = window.knowledge.page

    assert page.is_empty_shown()
    assert page.empty.ingest.isVisible() and page.empty.land.isVisible()
    assert "Ingest a folder" in page.empty.ingest.text()
    assert "Land a file" in page.empty.land.text()


def test_landing_the_corpus_draws_artifacts_and_the_runs_that_made_them(qtbot, tmp_path) -> None:
    window = open_window(qtbot, tmp_path)
    mode = window.knowledge

    land_corpus(qtbot, window)

    assert not mode.page.is_empty_shown()
    assert mode.canvas.node_ids() == {
        "requirements",
        "personas",
        "stories",
        "design",
        "unit-plan",
        "run:exec-0001",
        "run:exec-0004",
        "run:exec-0007",
    }
    assert label_of(mode, "requirements") == "Checkout requirements (revised)"
    chip = mode.canvas.node_item("requirements").chip
    assert chip is not None and chip.count > 0


def test_a_designer_traces_a_requirement_from_search_to_its_unit(qtbot, tmp_path) -> None:
    window = open_window(qtbot, tmp_path)
    mode = window.knowledge
    land_corpus(qtbot, window)

    # Typed items from the Filters dock, units from the keyboard.
    items = mode.filters.items
    assert items.text() == "Typed items"
    qtbot.mouseClick(items, Qt.MouseButton.LeftButton, pos=QPoint(8, items.height() // 2))
    qtbot.waitUntil(lambda: "REQ-1" in mode.canvas.node_ids(), timeout=WAIT_MS)
    qtbot.keyClick(mode.page, Qt.Key.Key_U, CTRL | SHIFT)
    qtbot.waitUntil(lambda: "unit:guest-pay" in mode.canvas.node_ids(), timeout=WAIT_MS)
    assert window.actions_by_name["kg_units"].isChecked()

    # Search for the requirement and jump to it with Enter.
    qtbot.keyClick(mode.page, Qt.Key.Key_K, CTRL)
    assert mode.filters.search.hasFocus()
    qtbot.keyClicks(mode.filters.search, "REQ-1")
    qtbot.keyClick(mode.filters.search, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: mode.canvas.selected_node() == "REQ-1", timeout=WAIT_MS)
    qtbot.waitUntil(lambda: mode.pane.shown_ref() == NEW_REQUIREMENTS, timeout=WAIT_MS)

    # Focus it: its neighbourhood alone, then two steps out.
    double_click_node(qtbot, mode, "REQ-1")
    qtbot.waitUntil(lambda: mode.session.query.focus == "REQ-1", timeout=WAIT_MS)
    wait_drawn(qtbot, mode)
    assert mode.canvas.node_ids() == {"REQ-1", "requirements", "ST-1"}
    qtbot.keyClick(mode.page, Qt.Key.Key_2, ALT)
    qtbot.waitUntil(lambda: "unit:guest-pay" in mode.canvas.node_ids(), timeout=WAIT_MS)

    # The whole graph again, and the lineage downstream of the requirement.
    qtbot.keyClick(mode.page, Qt.Key.Key_Backspace, CTRL)
    qtbot.waitUntil(lambda: "P-LOYAL" in mode.canvas.node_ids(), timeout=WAIT_MS)
    click_node(qtbot, mode, "REQ-1")
    qtbot.keyClick(mode.page, Qt.Key.Key_BracketRight, CTRL)
    for on_the_path in ("REQ-1", "ST-1", "unit:guest-pay"):
        assert mode.canvas.node_item(on_the_path).opacity() == 1.0, on_the_path
    for off_the_path in ("P-LOYAL", "REQ-2", "personas"):
        assert mode.canvas.node_item(off_the_path).opacity() == DIMMED_NODE, off_the_path


def test_dragging_the_timeline_back_shows_the_graph_as_it_was(qtbot, tmp_path) -> None:
    window = open_window(qtbot, tmp_path)
    mode = window.knowledge
    land_corpus(qtbot, window)
    before = mode.canvas.node_item("requirements").scene_rect()
    strip = mode.timeline.strip

    qtbot.mousePress(strip, Qt.MouseButton.LeftButton, pos=tick(mode, 5))
    for index in (4, 3, 2, 1):
        qtbot.mouseMove(strip, tick(mode, index))
    qtbot.mouseRelease(strip, Qt.MouseButton.LeftButton, pos=tick(mode, 1))

    qtbot.waitUntil(lambda: mode.session.query.as_of == SEPT_2, timeout=WAIT_MS)
    wait_drawn(qtbot, mode)
    assert "design" not in mode.canvas.node_ids()  # designed later
    assert label_of(mode, "requirements") == "Checkout requirements"  # the older version
    assert mode.canvas.node_item("requirements").scene_rect() == before  # did not jump
    click_node(qtbot, mode, "requirements")
    qtbot.waitUntil(lambda: mode.pane.shown_ref() == OLD_REQUIREMENTS, timeout=WAIT_MS)


def test_comparing_two_moments_marks_the_revised_requirements_changed(qtbot, tmp_path) -> None:
    window = open_window(qtbot, tmp_path)
    mode = window.knowledge
    land_corpus(qtbot, window)

    qtbot.mouseClick(mode.timeline.compare_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(mode.timeline.strip, Qt.MouseButton.LeftButton, pos=tick(mode, 1))

    qtbot.waitUntil(lambda: mode.session.query.compare_to == SEPT_2, timeout=WAIT_MS)
    wait_drawn(qtbot, mode)
    assert "requirements" in mode.canvas.marks.changed
    assert {"stories", "design", "unit-plan"} <= mode.canvas.marks.added
    assert mode.changes_dock.isVisible()
    assert "Changed nodes (1)" in mode.changes.group_titles()


def test_reading_an_artifact_and_comparing_two_versions(qtbot, tmp_path) -> None:
    window = open_window(qtbot, tmp_path)
    mode = window.knowledge
    land_corpus(qtbot, window)

    click_node(qtbot, mode, "design")
    qtbot.waitUntil(lambda: mode.pane.shown_ref() == DESIGN, timeout=WAIT_MS)
    html = mode.pane.browser.toHtml()
    text = mode.pane.shown_text()
    assert "Components" in text and "Error handling" in text  # the headings
    assert "Cart service" in text and "C-CART" in text  # an item card with its fields
    assert html.count("color:#") > 3  # the fenced JSON, coloured
    assert "cart-expired" in text

    click_node(qtbot, mode, "requirements")
    qtbot.waitUntil(lambda: mode.pane.shown_ref() == NEW_REQUIREMENTS, timeout=WAIT_MS)
    history = mode.pane.history
    assert history.list.count() == 2
    qtbot.mouseClick(history.compare, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: mode.pane.comparison() is not None, timeout=WAIT_MS)
    shown = mode.pane.comparison().shown_text()
    assert OLD_REQUIREMENTS in shown and NEW_REQUIREMENTS in shown
    assert "(revised)" in shown


def test_clicking_hidden_neighbours_shows_them(qtbot, tmp_path) -> None:
    window = open_window(qtbot, tmp_path)
    mode = window.knowledge
    land_corpus(qtbot, window)
    chip = mode.canvas.node_item("requirements").chip
    assert chip is not None and chip.count == 6

    mode.canvas.center_on("requirements")
    spot = mode.canvas.view.mapFromScene(chip.sceneBoundingRect().center())
    qtbot.mouseClick(mode.canvas.view.viewport(), Qt.MouseButton.LeftButton, pos=spot)

    qtbot.waitUntil(lambda: {"REQ-1", "REQ-2", "REQ-3"} <= mode.canvas.node_ids(), timeout=WAIT_MS)
    assert "ST-1" not in mode.canvas.node_ids()  # only the requirements' own neighbours
    item = mode.canvas.node_item("requirements")
    assert item.chip is None or not item.chip.isVisible()


def test_export_writes_the_view_in_the_format_chosen(qtbot, tmp_path, monkeypatch) -> None:
    window = open_window(qtbot, tmp_path)
    mode = window.knowledge
    land_corpus(qtbot, window)
    target = tmp_path / "graph.graphml"
    monkeypatch.setattr(
        QFileDialog,
        "getSaveFileName",
        lambda *_args, **_kwargs: (str(target), "GraphML (*.graphml)"),
    )

    window.actions_by_name["kg_export"].trigger()

    graph = networkx.read_graphml(target)
    assert set(graph.nodes) == mode.canvas.node_ids()
    assert graph.number_of_edges() == len(mode.canvas.scene.edges)


def test_picking_a_coverage_gap_goes_to_its_node(qtbot, tmp_path) -> None:
    window = open_window(qtbot, tmp_path)
    mode = window.knowledge
    land_corpus(qtbot, window)
    mode.show_query(replace(mode.session.query, as_of=datetime(2026, 9, 9, 12, tzinfo=UTC)))
    wait_drawn(qtbot, mode)  # stories written, no unit plan yet: no story is implemented
    mode.show_query(replace(mode.session.query, items=True))
    wait_drawn(qtbot, mode)
    assert set(mode.canvas.marks.gaps) == {"ST-1", "ST-2", "ST-3"}

    tree = mode.insights.tree
    gaps = tree.model().index(0, 0)
    assert gaps.data().startswith("Coverage gaps (3)")
    entry = tree.model().index(1, 0, gaps)
    tree.setCurrentIndex(entry)
    qtbot.mouseClick(
        tree.viewport(), Qt.MouseButton.LeftButton, pos=tree.visualRect(entry).center()
    )

    qtbot.waitUntil(lambda: mode.canvas.selected_node() == "ST-2", timeout=WAIT_MS)


def test_lay_out_afresh_puts_every_node_back_in_the_lineage_columns(qtbot, tmp_path) -> None:
    window = open_window(qtbot, tmp_path)
    mode = window.knowledge
    land_corpus(qtbot, window)
    mode.show_query(replace(mode.session.query, items=True))  # items placed in free slots
    wait_drawn(qtbot, mode)
    before = mode.session.current
    assert before.positions != layered_layout(before.view.projection)  # kept, not laid out

    window.actions_by_name["kg_relayout"].trigger()

    qtbot.waitUntil(lambda: mode.session.current is not before, timeout=WAIT_MS)
    wait_drawn(qtbot, mode)
    drawn = mode.session.current
    assert drawn.positions == layered_layout(drawn.view.projection)


def test_a_link_in_the_artifact_moves_the_graph_to_what_it_names(qtbot, tmp_path) -> None:
    window = open_window(qtbot, tmp_path)
    mode = window.knowledge
    land_corpus(qtbot, window)
    click_node(qtbot, mode, "design")
    qtbot.waitUntil(lambda: mode.pane.shown_ref() == DESIGN, timeout=WAIT_MS)

    click_link(qtbot, mode.pane.browser, "C-PAY")  # an item card's id: not drawn yet

    qtbot.waitUntil(lambda: mode.canvas.selected_node() == "C-PAY", timeout=WAIT_MS)
    assert "C-PAY" in mode.canvas.node_ids()  # shown, though typed items are off
    assert not mode.session.query.items

"""The list of changes between two moments, from a real difference of the sample corpus."""

from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QTreeWidgetItem

from studio.knowledge.projection import GraphDiff, ViewOptions
from studio.ui.knowledge.changes_list import EMPTY_TEXT, ChangesList
from studio.ui.knowledge.node_look import ADDED, CHANGED, REMOVED
from studio.ui.theme import apply_theme
from studio.workspace import Workspace
from tests.ui.pixels import assert_ink, picture, place_in_view

FIXTURE = Path(__file__).resolve().parents[2] / "knowledge" / "fixtures" / "checkout-redesign"
SUBJECT = "checkout-redesign"
BEFORE_REVISION = datetime(2026, 9, 5, tzinfo=UTC)

_shown: list[ChangesList] = []


@pytest.fixture(autouse=True)
def _release_shown():
    yield
    _shown.clear()


@pytest.fixture(scope="module")
def since_the_fifth(tmp_path_factory: pytest.TempPathFactory) -> GraphDiff:
    """What changed in the sample corpus (items shown) from 5 September 2026 to now."""
    folder = tmp_path_factory.mktemp("changes")
    workspace = Workspace(data_dir=folder, database=str(folder / "knowledge.db"))
    try:
        workspace.knowledge.ingest(FIXTURE)
        now = datetime.now(UTC)
        return workspace.knowledge.diff(BEFORE_REVISION, now, ViewOptions(items=True))
    finally:
        workspace.close()


def open_list(qtbot, diff: GraphDiff | None) -> ChangesList:
    changes = ChangesList()
    if diff is not None:
        changes.show_diff(diff)
    qtbot.addWidget(changes)
    _shown.append(changes)
    changes.resize(420, 640)
    changes.show()
    qtbot.waitExposed(changes)
    return changes


def entry(changes: ChangesList, group_title: str, text: str) -> QTreeWidgetItem:
    tree = changes.tree
    for g in range(tree.topLevelItemCount()):
        group = tree.topLevelItem(g)
        if group.text(0).startswith(group_title):
            for c in range(group.childCount()):
                if group.child(c).text(0).startswith(text):
                    return group.child(c)
    raise AssertionError(f"no {text!r} under {group_title!r}")


def click(qtbot, changes: ChangesList, item: QTreeWidgetItem) -> None:
    changes.tree.scrollToItem(item)
    rect = changes.tree.visualItemRect(item)
    qtbot.mouseClick(changes.tree.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())


def test_the_groups_count_what_was_added_changed_and_removed(qtbot, since_the_fifth) -> None:
    changes = open_list(qtbot, since_the_fifth)
    diff = since_the_fifth
    assert changes.group_titles() == [
        f"Added nodes ({len(diff.nodes_added)})",
        f"Changed nodes ({len(diff.nodes_changed)})",
        f"Added links ({len(diff.edges_added)})",
        f"Removed links ({len(diff.edges_removed)})",
    ]
    assert changes.stack.currentWidget() is changes.tree
    assert changes.summary.text().endswith("differ")
    revised = entry(changes, "Changed nodes", "requirements")
    assert revised.text(0) == (
        "requirements  Checkout requirements (revised) (artifact): title, version, fields changed"
    )
    assert "version: checkout-redesign/requirements/2026-09-01" in revised.toolTip(0)
    assert entry(changes, "Added nodes", "REQ-3").text(0) == "REQ-3  Wallet payments (requirement)"
    assert entry(changes, "Added links", "ST-3 COVERS REQ-3")


def test_clicking_a_changed_artifact_asks_to_go_to_it(qtbot, since_the_fifth) -> None:
    changes = open_list(qtbot, since_the_fifth)
    revised = entry(changes, "Changed nodes", "requirements")
    with qtbot.waitSignal(changes.nodeRequested) as asked:
        click(qtbot, changes, revised)
    assert asked.args == [f"{SUBJECT}/requirements"]


def test_clicking_a_link_asks_for_the_link_and_its_source(qtbot, since_the_fifth) -> None:
    changes = open_list(qtbot, since_the_fifth)
    link = entry(changes, "Added links", "ST-3 COVERS REQ-3")
    edges, nodes = [], []
    changes.edgeRequested.connect(edges.append)
    changes.nodeRequested.connect(nodes.append)
    click(qtbot, changes, link)
    assert edges == [(f"{SUBJECT}/ST-3", "COVERS", f"{SUBJECT}/REQ-3")]
    assert nodes == [f"{SUBJECT}/ST-3"]


def test_no_difference_shows_the_empty_state(qtbot, since_the_fifth) -> None:
    changes = open_list(qtbot, since_the_fifth)
    changes.show_diff(GraphDiff())
    assert changes.stack.currentWidget() is changes.empty
    assert changes.empty.isVisible() and changes.empty.text() == EMPTY_TEXT
    assert changes.group_titles() == []
    changes.show_diff(since_the_fifth)
    changes.clear()
    assert changes.empty.isVisible()


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_each_group_wears_the_canvas_compare_colour(qtbot, since_the_fifth, theme) -> None:
    apply_theme(theme)
    try:
        gone = {"id": f"{SUBJECT}/D-9", "type": "decision", "label": "Old"}
        changes = open_list(qtbot, replace(since_the_fifth, nodes_removed=(gone,)))
        tree = changes.tree
        image = picture(changes)
        groups = [tree.topLevelItem(i) for i in range(tree.topLevelItemCount())]
        for title, colour in (("Added", ADDED), ("Changed", CHANGED), ("Removed", REMOVED)):
            group = next(g for g in groups if g.text(0).startswith(title))
            cell = place_in_view(tree, tree.indexFromItem(group), changes)
            cell.setWidth(cell.height() + 24)  # the badge, at the start of the row
            assert_ink(image, cell, colour, f"the {title} badge")
    finally:
        apply_theme("system")

"""Seeing the data a step gave: a table for records (sortable, large), a tree for nested JSON,
raw JSON on a toggle, copied as JSON or CSV, pinned as sample data."""

import json
import time

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication, QTableView

from studio.ui.run.data_shape import NOT_TABULAR
from studio.ui.run.data_view import DataView
from studio.ui.run.json_view import pretty_json

CUSTOMERS = [
    {"id": 3, "name": "Cleo", "city": "Oslo"},
    {"id": 1, "name": "ada", "tags": ["vip", "new"]},
    {"id": 2, "name": "Bo", "city": "Lima", "address": {"zip": "150"}},
]


@pytest.fixture
def view(qtbot) -> DataView:
    view = DataView()
    qtbot.addWidget(view)
    view.resize(700, 360)
    view.show()
    qtbot.waitExposed(view)
    return view


def headers(table: QTableView) -> list[str]:
    model = table.model()
    return [model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())]


def rows(table: QTableView) -> list[list[str]]:
    """Every cell's text as the table shows it, row by row."""
    model = table.model()
    return [
        [model.index(r, c).data() for c in range(model.columnCount())]
        for r in range(model.rowCount())
    ]


def click_header(qtbot, table: QTableView, column: int) -> None:
    header = table.horizontalHeader()
    middle = header.sectionViewportPosition(column) + header.sectionSize(column) // 2
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(middle, 5))


def test_a_list_of_records_shows_as_a_table_with_every_key_as_a_column(view) -> None:
    view.show_value(CUSTOMERS)
    assert view.mode() == "table"
    assert view.table.isVisible()
    assert headers(view.table) == ["id", "name", "city", "tags", "address"]
    assert rows(view.table) == [
        ["3", "Cleo", "Oslo", "", ""],
        ["1", "ada", "", '["vip","new"]', ""],
        ["2", "Bo", "Lima", "", '{"zip":"150"}'],
    ]
    assert view.summary.text() == "3 rows · 5 columns"


def test_clicking_a_header_sorts_by_that_column_and_again_reverses(qtbot, view) -> None:
    view.show_value(CUSTOMERS)
    click_header(qtbot, view.table, 1)
    assert [row[1] for row in rows(view.table)] == ["ada", "Bo", "Cleo"]  # case ignored
    click_header(qtbot, view.table, 1)
    assert [row[1] for row in rows(view.table)] == ["Cleo", "Bo", "ada"]
    click_header(qtbot, view.table, 2)
    assert [row[2] for row in rows(view.table)] == ["Lima", "Oslo", ""]  # missing stays last
    click_header(qtbot, view.table, 0)
    assert [row[0] for row in rows(view.table)] == ["1", "2", "3"]  # numbers as numbers


def test_ten_thousand_records_load_and_show_their_first_rows(qtbot, view) -> None:
    records = [
        {"n": i, "name": f"customer {i}", "score": i * 1.5, "tags": ["a"] if i % 3 else None}
        for i in range(10_000)
    ]
    started = time.perf_counter()
    view.show_value(records)
    qtbot.waitUntil(lambda: view.table.indexAt(QPoint(2, 2)).isValid())
    took = time.perf_counter() - started
    assert took < 2.0, f"{took:.2f} s to show the first rows"  # a wide margin: it takes ms
    first = view.table.indexAt(QPoint(2, 2))
    assert (first.row(), first.data()) == (0, "0")
    assert view.table.model().rowCount() == 10_000
    assert view.summary.text() == "10000 rows · 4 columns"
    click_header(qtbot, view.table, 0)
    click_header(qtbot, view.table, 0)
    assert view.table.model().index(0, 0).data() == "9999"


def test_a_nested_object_shows_as_a_tree_you_can_expand(qtbot, view) -> None:
    value = {"status": 200, "body": {"items": [{"sku": "A-1"}, {"sku": "B-2"}], "next": None}}
    view.show_value(value)
    assert view.mode() == "tree"
    assert not view.table_button.isEnabled()
    tree = view.tree
    top = [tree.topLevelItem(i) for i in range(tree.topLevelItemCount())]
    assert [(item.text(0), item.text(1)) for item in top] == [
        ("status", "200"),
        ("body", "{2 keys}"),
    ]
    body = top[1]
    assert body.isExpanded()  # a small value opens one level
    items = body.child(0)
    assert (items.text(0), items.text(1)) == ("items", "[2 items]")
    assert not items.isExpanded()
    tree.setCurrentItem(items)
    tree.setFocus()
    qtbot.keyClick(tree, Qt.Key.Key_Right)  # expand, as a person does with the keyboard
    assert items.isExpanded()
    first = items.child(0)
    assert (first.text(0), first.text(1)) == ("[0]", "{1 key}")
    tree.expandItem(first)
    assert (first.child(0).text(0), first.child(0).text(1)) == ("sku", "A-1")


def test_the_raw_toggle_shows_the_json_text(qtbot, view) -> None:
    view.show_value(CUSTOMERS)
    qtbot.mouseClick(view.raw_button, Qt.MouseButton.LeftButton)
    assert view.mode() == "raw"
    assert view.raw.isVisible()
    assert view.raw.toPlainText() == pretty_json(CUSTOMERS)
    view.show_value({"other": True})  # the chosen way is kept for the next value
    assert view.raw.toPlainText() == pretty_json({"other": True})
    qtbot.mouseClick(view.table_button, Qt.MouseButton.LeftButton)  # disabled: nothing changes
    assert view.mode() == "raw"
    qtbot.mouseClick(view.tree_button, Qt.MouseButton.LeftButton)
    assert view.mode() == "tree"


def test_copy_as_csv_puts_a_header_row_and_the_records_on_the_clipboard(qtbot, view) -> None:
    view.show_value([*CUSTOMERS, {"id": 4, "name": 'Dee "D", Jr', "city": None}])
    click_header(qtbot, view.table, 0)  # the order the table shows is the order copied
    qtbot.mouseClick(view.copy_csv_button, Qt.MouseButton.LeftButton)
    assert QApplication.clipboard().text() == (
        "id,name,city,tags,address\n"
        '1,ada,,"[""vip"",""new""]",\n'
        '2,Bo,Lima,,"{""zip"":""150""}"\n'
        "3,Cleo,Oslo,,\n"
        '4,"Dee ""D"", Jr",,,\n'
    )
    assert "copied as CSV" in view.summary.text()


def test_copy_as_json_puts_the_value_on_the_clipboard(qtbot, view) -> None:
    view.show_value(CUSTOMERS)
    qtbot.mouseClick(view.copy_json_button, Qt.MouseButton.LeftButton)
    assert json.loads(QApplication.clipboard().text()) == CUSTOMERS


def test_csv_is_not_offered_for_data_that_is_not_a_table_and_says_why(qtbot, view) -> None:
    QApplication.clipboard().setText("before")
    for value in ({"a": 1}, [1, 2, 3], [], "text", [{"a": 1}, 2]):
        view.show_value(value)
        assert not view.copy_csv_button.isEnabled(), value
        assert view.copy_csv_button.toolTip() == NOT_TABULAR
        qtbot.mouseClick(view.copy_csv_button, Qt.MouseButton.LeftButton)
    assert QApplication.clipboard().text() == "before"
    view.show_value([{"a": 1}])
    assert view.copy_csv_button.isEnabled()


def test_nothing_to_show_says_why_and_offers_no_action(view) -> None:
    view.show_value(CUSTOMERS)
    view.show_nothing("No output")
    assert view.reason() == "No output"
    assert view.placeholder.isVisible()
    assert view.json_text() == ""
    buttons = (view.table_button, view.tree_button, view.raw_button, view.copy_json_button)
    assert not any(button.isEnabled() for button in buttons)


def test_pin_offers_the_value_shown_once(qtbot, view) -> None:
    assert not view.pin_button.isVisible()
    view.set_pinnable(True)
    view.show_value(CUSTOMERS)
    qtbot.waitUntil(view.pin_button.isVisible)  # the toolbar lays it out when it comes
    with qtbot.waitSignal(view.pinRequested) as pinned:
        qtbot.mouseClick(view.pin_button, Qt.MouseButton.LeftButton)
    assert pinned.args == [CUSTOMERS]
    assert view.pin_button.text() == "Pinned" and not view.pin_button.isEnabled()
    view.show_value([{"x": 1}])
    assert view.pin_button.isEnabled()


def test_every_control_has_text_a_tooltip_and_an_accessible_name(view) -> None:
    view.show_value(CUSTOMERS)
    for button in view.findChildren(type(view.raw_button)):
        assert button.text() or not button.icon().isNull(), button
        assert button.toolTip() and button.accessibleName(), button

"""Issue acceptance: from an empty window, a designer makes an HTTP agent against a local
server (Try it shows the response) and a Transform agent in the agent editor, adds the Echo
agent from the palette, connects the three, publishes and runs the workflow on the engine,
then selects the HTTP node and sees the response as a table and copies it as CSV; no text
editor is involved."""

import json

import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QApplication

from studio.workspace import Workspace
from tests.ui.agent_editor.acting import add_pair, choose_kind
from tests.ui.agent_editor.conftest import ORDERS
from tests.ui.answers import answer_on
from tests.ui.run.run_loop import act, run_loop, until  # noqa: F401
from tests.ui.run.window_runs import open_window, run_from_canvas


@pytest.fixture
def window(qtbot, run_loop, tmp_path):  # noqa: F811
    window = open_window(qtbot, Workspace(data_dir=tmp_path / "data"))
    yield window
    window.workflows.runs.shutdown()


def press(qtbot, run_loop, button) -> None:  # noqa: F811
    assert button.isEnabled(), button.toolTip()
    act(run_loop, qtbot.mouseClick, button, Qt.MouseButton.LeftButton)


def test_make_two_agents_add_echo_connect_publish_and_run(
    qtbot,
    window,
    run_loop,  # noqa: F811
    orders_server,
) -> None:
    tab = answer_on(run_loop, window.workflows.files.new_workflow())
    editor = tab.editor
    assert editor.document.nodes == []

    http = choose_kind(qtbot, editor, "HTTP request", QPointF(0, 0))
    qtbot.keyClicks(http.name_edit, "Fetch orders")
    qtbot.keyClicks(http.settings_form.editors["url"].edit, f"{orders_server.url}/orders/list")
    press(qtbot, run_loop, http.try_box.try_button)
    until(run_loop, lambda: http.try_box.output.toPlainText())
    assert json.loads(http.try_box.output.toPlainText()) == ORDERS["orders"]
    press(qtbot, run_loop, http.save_button)

    transform = choose_kind(qtbot, editor, "Transform", QPointF(300, 0))
    qtbot.keyClicks(transform.name_edit, "First order")
    add_pair(qtbot, transform, "output", "message", "First: ${input[0].item}")
    add_pair(qtbot, transform, "output", "then", "${input[1].item}")
    press(qtbot, run_loop, transform.save_button)

    palette = editor.open_palette(QPointF(600, 0))
    qtbot.keyClicks(palette.search, "echo")
    qtbot.keyClick(palette.search, Qt.Key.Key_Return)

    by_agent = {node.agent_id: node.id for node in editor.document.nodes}
    assert set(by_agent) == {"fetch-orders", "first-order", "demo-echo-agent"}
    assert editor.connect_nodes(by_agent["fetch-orders"], by_agent["first-order"])
    assert editor.connect_nodes(by_agent["first-order"], by_agent["demo-echo-agent"])

    assert answer_on(run_loop, window.workflows.files.publish_current())
    window.activateWindow()  # the person clicks back into the window the dialogs came from
    until(run_loop, window.isActiveWindow)
    run_from_canvas(qtbot, window, run_loop, "{}")
    until(run_loop, lambda: "Completed" in window.workflows.live_runs.progress.label.text())
    (record,) = window.workspace.executions.find(workflow_id=tab.workflow_id)
    assert record.status == "completed"
    assert record.output == {"message": "First: tea", "then": "cake"}
    assert orders_server.paths == ["/orders/list", "/orders/list"]  # the try, then the run

    history = window.workflows.run_docks.history
    until(run_loop, lambda: history.tree.run_count() == 1)
    history.select_execution(record.execution_id)
    until(run_loop, lambda: not history.is_loading())
    node = editor.scene.node_items[by_agent["fetch-orders"]]
    point = editor.view.mapFromScene(node.sceneBoundingRect().center())
    act(run_loop, qtbot.mouseClick, editor.view.viewport(), Qt.MouseButton.LeftButton, pos=point)
    output = history.detail.inspector.output_view
    until(run_loop, lambda: output.mode() == "table")
    act(run_loop, qtbot.mouseClick, output.copy_csv_button, Qt.MouseButton.LeftButton)
    assert QApplication.clipboard().text() == "id,item,price\n1,tea,3.5\n2,cake,4\n"

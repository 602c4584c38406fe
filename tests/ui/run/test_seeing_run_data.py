"""Issue acceptance (see the data): after a run on the real engine, clicking a node or an edge
shows what passed as a table, copied as CSV, and pinned as the node's sample data, which the
drawer uses to preview the node's templates and which is saved with the workflow."""

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from studio.model import AgentDefinition, Node, export_text, import_text
from studio.ui.panels.node_drawer import NodeDrawer
from studio.ui.panels.node_sample_section import NO_SAMPLE, NO_TEMPLATES
from studio.workspace import Workspace
from tests.ui.answers import answer_on
from tests.ui.panels.conftest import click_check_box, show, tab_away, type_into
from tests.ui.run.run_loop import act, run_loop, until  # noqa: F401
from tests.ui.run.window_runs import open_window, run_from_canvas

ECHO_DEMO = Path(__file__).resolve().parents[3] / "blueprints" / "echo-demo-workflow.yaml"
PEOPLE = '[{"name": "Ada", "age": 36}, {"name": "Bo", "city": "Lima"}, {"name": "Cy", "age": 7}]'


@pytest.fixture
def window(qtbot, run_loop):  # noqa: F811
    window = open_window(qtbot, Workspace())
    yield window
    window.workflows.runs.shutdown()


def click_item(qtbot, view, item) -> None:
    """Click a node or an edge on the canvas where a person would."""
    point = view.mapFromScene(item.sceneBoundingRect().center())
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=point)


def table_rows(data_view) -> list[list[str]]:
    model = data_view.table.model()
    cells = range(model.columnCount())
    return [[model.index(r, c).data() for c in cells] for r in range(model.rowCount())]


def test_a_nodes_output_shows_as_a_table_copies_as_csv_and_pins_as_sample_data(
    qtbot,
    window,
    run_loop,  # noqa: F811
) -> None:
    workflow = window.workspace.import_and_publish(ECHO_DEMO)
    tab = answer_on(run_loop, window.workflows.tabs.open(workflow.id))
    run_from_canvas(qtbot, window, run_loop, PEOPLE)
    until(run_loop, lambda: "Completed" in window.workflows.live_runs.progress.label.text())
    history = window.workflows.run_docks.history
    until(run_loop, lambda: history.tree.run_count() == 1)
    history.select_execution(
        window.workspace.executions.find(workflow_id=workflow.id)[0].execution_id
    )
    until(run_loop, lambda: not history.is_loading())
    inspector = history.detail.inspector

    # Clicking the node shows its output as a table of the records.
    scene, view = tab.editor.scene, tab.editor.view
    act(run_loop, click_item, qtbot, view, scene.node_items["say-hello"])
    assert scene.selected_node_ids() == ["say-hello"]
    assert "Say hello" in inspector.title.text()
    output = inspector.output_view
    assert inspector.tabs.currentWidget() is output
    assert output.mode() == "table"
    assert [output.model.headerData(c, Qt.Orientation.Horizontal) for c in range(3)] == [
        "name",
        "age",
        "city",
    ]
    assert table_rows(output) == [["Ada", "36", ""], ["Bo", "", "Lima"], ["Cy", "7", ""]]

    act(run_loop, qtbot.mouseClick, output.copy_csv_button, Qt.MouseButton.LeftButton)
    assert QApplication.clipboard().text() == "name,age,city\nAda,36,\nBo,,Lima\nCy,7,\n"

    # Pinning keeps the output on the node: one undoable edit, saved with the workflow.
    act(run_loop, qtbot.mouseClick, output.pin_button, Qt.MouseButton.LeftButton)
    document = tab.editor.document
    node = document.node("say-hello")
    assert node is not None and node.sample_data == [
        {"name": "Ada", "age": 36},
        {"name": "Bo", "city": "Lima"},
        {"name": "Cy", "age": 7},
    ]
    assert tab.editor.undo_stack.undoText() == "Pin sample data of Say hello"
    assert "sampleData:" in export_text(document.snapshot(), "yaml")
    drawer = window.workflows.panels.node_drawer
    assert '"name": "Ada"' in drawer.sample.sample_label.text()
    assert drawer.sample.preview_label.text() == NO_TEMPLATES  # no compensation to preview

    # Clicking the edge shows what flowed along it: the first node's output.
    act(run_loop, click_item, qtbot, view, scene.node_items["echo-back"])
    assert "Echo back" in inspector.title.text()
    (edge,) = scene.edge_items.values()
    act(run_loop, click_item, qtbot, view, edge)
    assert scene.selected_edge_ids() == [edge.edge_id]
    assert "Say hello" in inspector.title.text()
    assert table_rows(output)[0] == ["Ada", "36", ""]


def test_the_drawer_previews_compensation_templates_with_the_sample(qtbot) -> None:
    tool = AgentDefinition(id="pay", name="Refund", kind="shell", settings={"argv": ["true"]})
    node = Node(id="refund", agent_id="pay", sample_data={"id": 42, "who": "Bo"})
    drawer = NodeDrawer()
    drawer.show_node(node, [tool])
    show(qtbot, drawer, (480, 1400))
    assert drawer.sample.preview_label.text() == NO_TEMPLATES
    section = drawer.compensation
    click_check_box(qtbot, section.enable_check)
    type_into(qtbot, section.args_editor.text_edit, "order: ${output.id}\nnote: for ${output.who}")
    with qtbot.waitSignal(drawer.nodeEdited) as edited:
        tab_away(qtbot, section.args_editor.text_edit)
    assert edited.args[0].sample_data == {"id": 42, "who": "Bo"}  # kept through the edit
    assert drawer.sample.preview_label.text() == '{\n  "order": 42,\n  "note": "for Bo"\n}'

    drawer.show_node(edited.args[0].model_copy(update={"sample_data": {"id": 1}}), [tool])
    assert drawer.sample.preview_label.text().startswith(
        "Cannot fill in: template 'for ${output.who}'"
    )
    with qtbot.waitSignal(drawer.nodeEdited) as edited:
        qtbot.mouseClick(drawer.sample.clear_button, Qt.MouseButton.LeftButton)
    assert edited.args[0].sample_data is None
    assert drawer.sample.sample_label.text() == NO_SAMPLE
    assert not drawer.sample.clear_button.isVisible()


def test_sample_data_survives_export_and_import_and_is_left_out_when_there_is_none() -> None:
    workflow = import_text(
        "name: W\nnodes:\n- id: a\n  agentId: x\n  sampleData: [{n: 1}, {n: 2}]\n", "yaml"
    )
    assert workflow.nodes[0].sample_data == [{"n": 1}, {"n": 2}]
    again = import_text(export_text(workflow, "json"), "json")
    assert again.nodes[0].sample_data == [{"n": 1}, {"n": 2}]
    bare = import_text("name: W\nnodes:\n- id: a\n  agentId: x\n", "yaml")
    assert "sampleData" not in export_text(bare, "yaml")

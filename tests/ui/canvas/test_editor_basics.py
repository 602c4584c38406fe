"""Draw a workflow as a person would, then undo and redo every step."""

from PySide6.QtCore import QPointF, Qt

from studio.model import Workflow
from studio.model.identifiers import MAX_ID_CHARS, is_identifier
from studio.ui.canvas.editor import WorkflowEditor
from studio.workspace import Workspace
from tests.ui.canvas.gestures import drag


def make_editor(qtbot, workflow: Workflow | None = None) -> WorkflowEditor:
    editor = WorkflowEditor(workflow or Workflow(name="drawn"), Workspace().agents)
    qtbot.addWidget(editor)
    editor.resize(1000, 700)
    editor.show()
    qtbot.waitExposed(editor)
    return editor


def add_from_palette(qtbot, editor: WorkflowEditor, typed: str, where: QPointF) -> str:
    palette = editor.open_palette(where)
    qtbot.keyClicks(palette.search, typed)
    before = {node.id for node in editor.document.nodes}
    qtbot.keyClick(palette.search, Qt.Key.Key_Return)
    (added,) = {node.id for node in editor.document.nodes} - before
    return added


def centre_of(editor: WorkflowEditor, node_id: str) -> QPointF:
    return editor.scene.node_items[node_id].sceneBoundingRect().center()


def output_port(editor: WorkflowEditor, node_id: str) -> QPointF:
    return editor.scene.node_items[node_id].output_point()


def test_draw_three_nodes_connect_move_delete_then_undo_and_redo_everything(qtbot) -> None:
    editor = make_editor(qtbot)
    snapshots = [editor.document.snapshot()]
    first = add_from_palette(qtbot, editor, "echo", QPointF(0, 0))
    snapshots.append(editor.document.snapshot())
    second = add_from_palette(qtbot, editor, "echo", QPointF(320, 0))
    snapshots.append(editor.document.snapshot())
    third = add_from_palette(qtbot, editor, "approval", QPointF(640, 0))
    snapshots.append(editor.document.snapshot())
    assert [n.agent_id for n in editor.document.nodes] == [
        "demo-echo-agent",
        "demo-echo-agent",
        "human-approval",
    ]

    editor.view.fit_all()
    drag(editor.view, output_port(editor, first), centre_of(editor, second))
    snapshots.append(editor.document.snapshot())
    drag(editor.view, output_port(editor, second), centre_of(editor, third))
    snapshots.append(editor.document.snapshot())
    assert [(e.source, e.target) for e in editor.document.edges] == [
        (first, second),
        (second, third),
    ]

    start = centre_of(editor, third)
    drag(editor.view, start, start + QPointF(0, 160))
    snapshots.append(editor.document.snapshot())
    assert editor.document.node(third).position.y > 100

    editor.scene.select_only([second])
    qtbot.keyClick(editor.view, Qt.Key.Key_Delete)
    snapshots.append(editor.document.snapshot())
    assert editor.document.node(second) is None and editor.document.edges == []

    for expected in reversed(snapshots[:-1]):
        editor.undo_stack.undo()
        assert editor.document.snapshot() == expected
    assert editor.document.nodes == [] and len(editor.scene.node_items) == 0
    for expected in snapshots[1:]:
        editor.undo_stack.redo()
        assert editor.document.snapshot() == expected
    assert set(editor.scene.node_items) == {first, third}


def test_a_link_that_would_close_a_cycle_is_refused(qtbot) -> None:
    editor = make_editor(qtbot)
    a = editor.add_node("demo-echo-agent", QPointF(0, 0))
    b = editor.add_node("demo-echo-agent", QPointF(320, 0))
    assert editor.connect_nodes(a, b)
    messages: list[str] = []
    editor.message.connect(messages.append)
    editor.view.fit_all()
    drag(editor.view, output_port(editor, b), centre_of(editor, a))
    assert len(editor.document.edges) == 1
    assert "cycle" in messages[0]


def test_pasting_a_node_with_the_longest_id_gives_a_copy_with_a_valid_id(qtbot) -> None:
    longest = "n" * MAX_ID_CHARS
    editor = make_editor(qtbot, Workflow(nodes=[{"id": longest, "agentId": "demo-echo-agent"}]))
    editor.scene.select_only([longest])
    assert editor.copy_selection()
    editor.paste()
    editor.paste()
    ids = [node.id for node in editor.document.nodes]
    assert len(set(ids)) == 3
    assert all(is_identifier(node_id) for node_id in ids), ids

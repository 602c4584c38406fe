"""Cut, duplicate, node and edge edits and replacing the whole workflow, each undone and redone:
the document, the canvas items and the clipboard agree at every step."""

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QGuiApplication

from studio.model import Edge, Node, Workflow, import_text
from studio.model.identifiers import is_identifier
from studio.ui.canvas.clipboard import PASTE_OFFSET
from studio.ui.canvas.editor import WorkflowEditor
from studio.workspace import Workspace
from tests.ui.canvas.gestures import click

ECHO = "demo-echo-agent"
CHAIN = {
    "name": "chain",
    "nodes": [
        {"id": node_id, "agentId": ECHO, "name": f"Step {node_id}", "position": {"x": x, "y": 0}}
        for node_id, x in (("a", 0.0), ("b", 300.0), ("c", 600.0), ("d", 900.0))
    ],
    "edges": [
        {"source": "a", "target": "b"},
        {
            "source": "b",
            "target": "c",
            "condition": {"field": "ok", "operator": "equals", "value": True},
        },
        {"source": "c", "target": "d"},
    ],
}


def make_editor(qtbot, data: dict | None = None) -> WorkflowEditor:
    """An editor on the chain a → b → c → d, shown with every node in view."""
    workflow = Workflow.model_validate(data or CHAIN)
    editor = WorkflowEditor(workflow, Workspace().agents)
    qtbot.addWidget(editor)
    editor.resize(1000, 600)
    editor.show()
    qtbot.waitExposed(editor)
    editor.view.fit_all()
    return editor


def centre_of(editor: WorkflowEditor, node_id: str) -> QPointF:
    return editor.scene.node_items[node_id].sceneBoundingRect().center()


def select_by_clicking(editor: WorkflowEditor, *node_ids: str) -> None:
    """Click the first node, Ctrl-click the others."""
    first, *others = node_ids
    click(editor.view, centre_of(editor, first))
    for node_id in others:
        click(editor.view, centre_of(editor, node_id), Qt.KeyboardModifier.ControlModifier)
    assert sorted(editor.scene.selected_node_ids()) == sorted(node_ids)


def drawn(editor: WorkflowEditor) -> tuple[set[str], set[str]]:
    """The ids of the node and edge items on the canvas."""
    return set(editor.scene.node_items), set(editor.scene.edge_items)


def ids_of(workflow: Workflow) -> tuple[set[str], set[str]]:
    return {node.id for node in workflow.nodes}, {edge.id for edge in workflow.edges}


def choose_from_context_menu(editor: WorkflowEditor, node_id: str, text: str) -> None:
    """Pick ``text`` from the menu a right-click on the node offers."""
    menu = editor.context_menu(centre_of(editor, node_id), node_id)
    (action,) = [action for action in menu.actions() if action.text() == text]
    action.trigger()


# Cut ---------------------------------------------------------------------------------------


def test_cut_removes_the_nodes_puts_them_on_the_clipboard_and_undo_brings_back_their_edges(
    qtbot,
) -> None:
    editor = make_editor(qtbot)
    original = editor.document.snapshot()
    select_by_clicking(editor, "a", "b")

    editor.cut_selection()

    assert [node.id for node in editor.document.nodes] == ["c", "d"]
    assert [edge.id for edge in editor.document.edges] == ["c->d"]
    assert drawn(editor) == ({"c", "d"}, {"c->d"})
    held = import_text(QGuiApplication.clipboard().text(), "yaml", "clipboard")
    assert [(node.id, node.name) for node in held.nodes] == [("a", "Step a"), ("b", "Step b")]
    assert [edge.id for edge in held.edges] == ["a->b"]  # only the edges between the cut nodes
    assert editor.undo_stack.count() == 1

    editor.undo_stack.undo()
    assert editor.document.snapshot() == original  # the conditional edge b → c is back too
    assert drawn(editor) == ids_of(original)
    assert editor.scene.edge_items["b->c"].label != ""

    editor.undo_stack.redo()
    assert ids_of(editor.document.snapshot()) == ({"c", "d"}, {"c->d"})
    assert drawn(editor) == ({"c", "d"}, {"c->d"})


def test_cut_with_nothing_selected_changes_nothing(qtbot) -> None:
    editor = make_editor(qtbot)
    QGuiApplication.clipboard().setText("kept")
    editor.cut_selection()
    assert QGuiApplication.clipboard().text() == "kept"
    assert editor.undo_stack.count() == 0
    assert len(editor.document.nodes) == 4


def test_what_was_cut_pastes_back_with_its_own_ids(qtbot) -> None:
    editor = make_editor(qtbot)
    select_by_clicking(editor, "a", "b")
    editor.cut_selection()
    editor.paste()
    assert [node.id for node in editor.document.nodes] == ["c", "d", "a", "b"]
    assert {edge.id for edge in editor.document.edges} == {"c->d", "a->b"}
    assert sorted(editor.scene.selected_node_ids()) == ["a", "b"]


# Duplicate ---------------------------------------------------------------------------------


def test_duplicate_adds_offset_copies_with_new_ids_and_undo_removes_them(qtbot) -> None:
    editor = make_editor(qtbot)
    original = editor.document.snapshot()
    select_by_clicking(editor, "b", "c")

    choose_from_context_menu(editor, "b", "Duplicate")

    nodes = editor.document.nodes
    assert [node.id for node in nodes[:4]] == ["a", "b", "c", "d"]
    copies = nodes[4:]
    assert len(copies) == 2
    new_ids = [node.id for node in copies]
    assert all(is_identifier(node_id) for node_id in new_ids), new_ids
    assert not set(new_ids) & {"a", "b", "c", "d"}
    for copy, source in zip(copies, (original.nodes[1], original.nodes[2]), strict=True):
        assert (copy.agent_id, copy.name) == (source.agent_id, source.name)
        assert copy.position.x == source.position.x + PASTE_OFFSET
        assert copy.position.y == source.position.y + PASTE_OFFSET
    (copied_edge,) = [edge for edge in editor.document.edges if edge.source in new_ids]
    assert (copied_edge.source, copied_edge.target) == tuple(new_ids)
    assert copied_edge.condition == original.edges[1].condition
    assert sorted(editor.scene.selected_node_ids()) == sorted(new_ids)  # the copies, to drag
    assert set(new_ids) <= set(editor.scene.node_items)
    assert editor.undo_stack.count() == 1

    editor.undo_stack.undo()
    assert editor.document.snapshot() == original
    assert drawn(editor) == ids_of(original)

    editor.undo_stack.redo()
    assert [node.id for node in editor.document.nodes[4:]] == new_ids


def test_duplicating_twice_never_reuses_an_id(qtbot) -> None:
    editor = make_editor(qtbot)
    select_by_clicking(editor, "a")
    editor.duplicate_selection()
    editor.duplicate_selection()  # the first copy is selected now: a copy of the copy
    ids = [node.id for node in editor.document.nodes]
    assert len(ids) == len(set(ids)) == 6
    assert all(is_identifier(node_id) for node_id in ids)
    first, second = editor.document.nodes[4:]
    assert second.position.x == first.position.x + PASTE_OFFSET


# Editing a node and an edge ---------------------------------------------------------------


def test_editing_a_node_changes_its_name_and_configuration_and_undo_redo_follow(qtbot) -> None:
    editor = make_editor(qtbot)
    before = editor.document.node("b")
    assert before is not None
    after = before.model_copy(
        update={
            "name": "Check stock",
            "configuration": before.configuration.model_copy(
                update={"parameters": {"limit": 3}, "model_override": "claude-3-haiku"}
            ),
        }
    )

    editor.edit_node(after)

    assert editor.document.node("b") == after
    assert editor.scene.node_items["b"].title == "Check stock"
    assert editor.undo_stack.undoText() == "Edit Check stock"
    editor.undo_stack.undo()
    assert editor.document.node("b") == before
    assert editor.scene.node_items["b"].title == "Step b"
    editor.undo_stack.redo()
    assert editor.document.node("b") == after
    assert editor.scene.node_items["b"].title == "Check stock"


def test_an_edit_that_changes_nothing_is_not_an_undo_step(qtbot) -> None:
    editor = make_editor(qtbot)
    node, edge = editor.document.node("a"), editor.document.edge("a->b")
    assert node is not None and edge is not None
    editor.edit_node(node.model_copy())
    editor.edit_edge(edge.model_copy())
    editor.edit_node(Node(id="ghost", agent_id=ECHO))  # a node no longer in the workflow
    assert editor.undo_stack.count() == 0


def test_editing_an_edge_condition_relabels_it_and_undo_redo_follow(qtbot) -> None:
    editor = make_editor(qtbot)
    before = editor.document.edge("a->b")
    assert before is not None and before.condition is None
    after = Edge.model_validate(
        {
            "id": "a->b",
            "source": "a",
            "target": "b",
            "condition": {"field": "total", "operator": "greaterThan", "value": 100},
        }
    )
    item = editor.scene.edge_items["a->b"]
    assert item.label == ""

    editor.edit_edge(after)

    assert editor.document.edge("a->b") == after
    assert "total" in item.label and "100" in item.label
    assert editor.undo_stack.undoText() == "Edit condition"
    editor.undo_stack.undo()
    assert editor.document.edge("a->b") == before
    assert editor.scene.edge_items["a->b"].label == ""
    editor.undo_stack.redo()
    assert editor.document.edge("a->b") == after
    assert "total" in editor.scene.edge_items["a->b"].label


def test_removing_a_condition_is_an_edit_too(qtbot) -> None:
    editor = make_editor(qtbot)
    before = editor.document.edge("b->c")
    assert before is not None and before.condition is not None
    editor.edit_edge(before.model_copy(update={"condition": None}))
    assert editor.scene.edge_items["b->c"].label == ""
    editor.undo_stack.undo()
    assert editor.document.edge("b->c") == before
    assert editor.scene.edge_items["b->c"].label != ""


# Replacing the whole workflow ---------------------------------------------------------------

OTHER = {
    "name": "other",
    "description": "loaded from a file",
    "nodes": [
        {"id": "x", "agentId": ECHO, "name": "First", "position": {"x": 0, "y": 0}},
        {
            "id": "y",
            "agentId": "human-approval",
            "name": "Sign off",
            "position": {"x": 300, "y": 0},
        },
    ],
    "edges": [{"source": "x", "target": "y"}],
}


def test_replacing_the_workflow_is_one_undo_step_and_keeps_the_stored_identity(qtbot) -> None:
    stored = {**CHAIN, "id": "wf-1", "status": "PUBLISHED", "version": 3}
    editor = make_editor(qtbot, stored)
    original = editor.document.snapshot()
    editor.edit_node(original.nodes[0].model_copy(update={"name": "Renamed first"}))
    edited = editor.document.snapshot()

    editor.replace_workflow(Workflow.model_validate(OTHER), "Load other.yaml")

    loaded = editor.document.snapshot()
    assert ids_of(loaded) == ({"x", "y"}, {"x->y"})
    assert (loaded.name, loaded.description) == ("other", "loaded from a file")
    assert (loaded.id, loaded.status, loaded.version) == ("wf-1", "PUBLISHED", 3)
    assert drawn(editor) == ({"x", "y"}, {"x->y"})
    assert editor.scene.node_items["y"].title == "Sign off"
    assert editor.undo_stack.count() == 2 and editor.undo_stack.undoText() == "Load other.yaml"

    editor.undo_stack.undo()  # one step back: the edited chain, exactly
    assert editor.document.snapshot() == edited
    assert drawn(editor) == ids_of(edited)
    assert editor.scene.node_items["a"].title == "Renamed first"

    editor.undo_stack.redo()
    assert editor.document.snapshot() == loaded
    assert drawn(editor) == ({"x", "y"}, {"x->y"})


def test_clearing_is_undoable_as_one_step(qtbot) -> None:
    editor = make_editor(qtbot)
    original = editor.document.snapshot()
    editor.clear()
    assert editor.document.nodes == [] and editor.document.edges == []
    assert drawn(editor) == (set(), set())
    assert editor.document.properties.name == "chain"
    editor.undo_stack.undo()
    assert editor.document.snapshot() == original
    assert drawn(editor) == ids_of(original)

"""Issue acceptance, linked blueprints: a blueprint gets a new version that changes one node's
settings and adds an edge while the copy imported from it has a local edit elsewhere; the badge
appears, the review lists both changes, applying keeps the local edit, and one Undo restores
the workflow as it was before the merge."""

from collections.abc import Callable

from PySide6.QtCore import Qt

from studio.model import Edge, Node, Workflow
from studio.model.configuration import NodeConfiguration
from studio.ui.catalog.update_review import BLUEPRINT_COLUMN, LOCAL_COLUMN, UpdateReviewDialog
from studio.ui.window.main_window import MainWindow
from studio.workspace import Workspace
from tests.ui.answers import answer
from tests.ui.modal import when_modal_opens

ECHO = "demo-echo-agent"


def triage() -> Workflow:
    """A small blueprint: take a request, classify it, answer it."""
    nodes = [
        Node(id="take", agent_id=ECHO, name="Take request", position={"x": 0, "y": 0}),
        Node(id="classify", agent_id=ECHO, name="Classify", position={"x": 260, "y": 0}),
        Node(id="answer", agent_id=ECHO, name="Answer", position={"x": 520, "y": 0}),
    ]
    edges = [
        Edge(id="e1", source="take", target="classify"),
        Edge(id="e0", source="take", target="answer"),
    ]
    return Workflow(name="Support triage", category="routing", nodes=nodes, edges=edges)


def next_version(blueprint: Workflow) -> Workflow:
    """The classifier's model changes and classify → answer is added."""
    nodes = [
        node.model_copy(update={"configuration": NodeConfiguration(model_override="gpt-4.1")})
        if node.id == "classify"
        else node
        for node in blueprint.nodes
    ]
    edges = [*blueprint.edges, Edge(id="e2", source="classify", target="answer")]
    return blueprint.model_copy(update={"nodes": nodes, "edges": edges})


def when_review_opens(act: Callable[[UpdateReviewDialog], None]) -> list[str]:
    """Act on the UpdateReviewDialog once it is up; what went wrong inside."""
    return when_modal_opens(UpdateReviewDialog, act)


def test_a_new_blueprint_version_is_reviewed_merged_and_undone(qtbot, studio_data_dir) -> None:
    workspace = Workspace(data_dir=studio_data_dir)
    blueprint, problems = workspace.workflows.save_blueprint(triage(), workspace.agents)
    assert problems == [] and blueprint.status == "PUBLISHED"
    app = workspace.apps.create("Help desk")
    copy = workspace.apps.import_blueprint(blueprint, app.id, {})
    window = MainWindow(workspace)
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    tab = answer(qtbot, window.workflows.tabs.open(copy.id))
    updates = window.workflows.blueprint_updates
    assert answer(qtbot, updates.check()) == blueprint.version
    assert not updates.badge.isVisible()  # nothing newer yet

    take = tab.editor.document.node("take")
    tab.editor.edit_node(take.model_copy(update={"name": "Take ticket"}))  # the local edit
    before_merge = tab.editor.document.snapshot()
    newer, _ = workspace.workflows.save_blueprint(next_version(blueprint), workspace.agents)
    assert newer.id == blueprint.id and newer.version == blueprint.version + 1

    assert answer(qtbot, updates.check()) == newer.version
    qtbot.waitUntil(updates.badge.isVisible)
    assert f"version {newer.version}" in updates.badge.text()

    seen: dict[int, list[str]] = {}

    def look_and_apply(dialog: UpdateReviewDialog) -> None:
        seen[BLUEPRINT_COLUMN] = dialog.shown_lines(BLUEPRINT_COLUMN)
        seen[LOCAL_COLUMN] = dialog.shown_lines(LOCAL_COLUMN)
        qtbot.mouseClick(dialog.apply_button, Qt.MouseButton.LeftButton)

    failures = when_review_opens(look_and_apply)
    qtbot.mouseClick(updates.badge, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(failures) or tab.editor.document.edge("e2") is not None)
    assert failures == []
    blueprint_lines = " | ".join(seen[BLUEPRINT_COLUMN])
    assert "gpt-4.1" in blueprint_lines and "added" in blueprint_lines
    assert any("Take ticket" in line for line in seen[LOCAL_COLUMN])

    merged = tab.editor.document.snapshot()
    assert merged.blueprint_version == newer.version
    assert tab.editor.document.node("classify").configuration.model_override == "gpt-4.1"
    assert tab.editor.document.node("take").name == "Take ticket"  # the local edit is kept
    qtbot.waitUntil(lambda: not updates.badge.isVisible())

    tab.editor.undo_stack.undo()  # one Undo
    assert tab.editor.document.snapshot() == before_merge
    qtbot.waitUntil(updates.badge.isVisible)
    window.close()
    workspace.close()

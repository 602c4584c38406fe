"""The main window as a person uses it: blueprints, files, tabs, export/import, clipboard,
publishing, and two windows saving the same workflow."""

from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox

from studio.model import load_workflow
from studio.ui.autosave import ConflictChoice
from studio.ui.window.main_window import MainWindow
from studio.ui.workflow_tab import WorkflowTab
from studio.workspace import Workspace
from tests.cli_runner import REPO_ROOT
from tests.ui.answers import answer

ECHO_DEMO = REPO_ROOT / "blueprints" / "echo-demo-workflow.yaml"


def make_window(qtbot, workspace: Workspace | None = None) -> MainWindow:
    window = MainWindow(workspace or Workspace())
    qtbot.addWidget(window)
    window.show()
    return window


@pytest.fixture(autouse=True)
def answer_yes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Confirmation dialogs are answered Yes, as a person who means it would."""
    monkeypatch.setattr(
        QMessageBox, "question", lambda *args, **kwargs: QMessageBox.StandardButton.Yes
    )


def test_the_catalog_lists_the_five_seed_blueprints(qtbot) -> None:
    window = make_window(qtbot)
    listing = window.workflows.lists.panel.blueprints
    qtbot.waitUntil(lambda: listing.count() == 5)  # read off the UI thread
    names = [listing.item(row).text().split("\n")[0] for row in range(listing.count())]
    assert "Echo Demo Workflow" in names


def test_using_a_blueprint_opens_an_editable_copy_and_leaves_the_blueprint(qtbot) -> None:
    window = make_window(qtbot)
    tab = answer(qtbot, window.workflows.catalog.use_blueprint("parallel-fan-out"))
    assert tab.editor.document.properties.name == "Parallel Fan-Out (Copy)"
    stored = window.workspace.workflows.get(tab.workflow_id)
    assert stored.status == "DRAFT" and not stored.is_blueprint
    assert len(tab.editor.scene.node_items) == 5
    assert (
        load_workflow(REPO_ROOT / "blueprints" / "parallel-fan-out.yaml").name == "Parallel Fan-Out"
    )


def test_a_broken_file_is_refused_with_a_message_and_stores_nothing(
    qtbot, tmp_path: Path, monkeypatch
) -> None:
    window = make_window(qtbot)
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda parent, title, text: shown.append(text))
    broken = tmp_path / "broken.yaml"
    broken.write_text("nodes: [\n")
    assert answer(qtbot, window.workflows.files.open_workflow_file(str(broken))) is None
    assert "broken.yaml" in shown[0] and "invalid YAML" in shown[0]
    assert window.workspace.workflows.find() == []


def test_export_then_clear_then_import_gives_back_the_same_workflow(
    qtbot, tmp_path: Path, monkeypatch
) -> None:
    window = make_window(qtbot)
    tab = answer(qtbot, window.workflows.files.open_workflow_file(str(ECHO_DEMO)))
    original = tab.editor.document.snapshot()
    target = tmp_path / "exported.json"
    monkeypatch.setattr(
        "studio.ui.window.workflow_actions.QFileDialog.getSaveFileName",
        lambda *args, **kwargs: (str(target), ""),
    )
    window.workflows.files.export_file()
    window.workflows.files.clear_current()
    assert tab.editor.document.nodes == []
    imported = answer(qtbot, window.workflows.files.open_workflow_file(str(target)))
    again = imported.editor.document.snapshot()
    assert again.nodes == original.nodes and again.edges == original.edges
    assert again.name == original.name and again.configuration == original.configuration


def test_copy_and_paste_between_two_open_workflows(qtbot) -> None:
    window = make_window(qtbot)
    source = answer(qtbot, window.workflows.catalog.use_blueprint("sequential-agent-pipeline"))
    target = answer(qtbot, window.workflows.files.new_workflow())
    window.workflows.tabs.tab_widget.setCurrentWidget(source)
    source.editor.scene.select_only(["research", "write"])
    assert source.editor.copy_selection()
    window.workflows.tabs.tab_widget.setCurrentWidget(target)
    target.editor.paste()
    pasted = target.editor.document
    assert [node.agent_id for node in pasted.nodes] == [
        "placeholder-researcher",
        "placeholder-writer",
    ]
    assert [(e.source, e.target) for e in pasted.edges] == [("research", "write")]
    target.editor.paste()  # pasting again gives fresh ids
    assert len({node.id for node in pasted.nodes}) == 4
    target.editor.undo_stack.undo()
    assert len(pasted.nodes) == 2


def test_publishing_shows_problems_or_publishes(qtbot) -> None:
    window = make_window(qtbot)
    answer(qtbot, window.workflows.catalog.use_blueprint("conditional-router"))
    assert not answer(qtbot, window.workflows.files.publish_current())
    assert (
        window.workflows.panels.problems.table.rowCount() == 3
        if hasattr(window.workflows.panels.problems, "table")
        else True
    )
    tab = answer(qtbot, window.workflows.files.open_workflow_file(str(ECHO_DEMO)))
    assert answer(qtbot, window.workflows.files.publish_current())
    assert window.workspace.workflows.get(tab.workflow_id).status == "PUBLISHED"


def test_deleting_a_published_workflow_is_refused_with_the_reason(qtbot, monkeypatch) -> None:
    window = make_window(qtbot)
    tab = answer(qtbot, window.workflows.files.open_workflow_file(str(ECHO_DEMO)))
    assert answer(qtbot, window.workflows.files.publish_current())
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda parent, title, text: shown.append(text))
    answer(qtbot, window.workflows.files.delete_workflow(tab.workflow_id))
    assert shown == ["Cannot delete a published workflow. Unpublish it first."]
    assert window.workspace.workflows.get(tab.workflow_id)


def two_windows_on_one_workflow(qtbot, tmp_path: Path) -> tuple[WorkflowTab, WorkflowTab]:
    database = str(tmp_path / "shared.db")
    first = make_window(qtbot, Workspace(database=database))
    tab_one = answer(qtbot, first.workflows.files.open_workflow_file(str(ECHO_DEMO)))
    second = make_window(qtbot, Workspace(database=database))
    tab_two = answer(qtbot, second.workflows.tabs.open(tab_one.workflow_id))
    tab_one.editor.edit_properties({"name": "Theirs"})
    assert tab_one.autosaver.save_now()
    tab_two.editor.edit_properties({"description": "mine"})
    return tab_one, tab_two


@pytest.mark.parametrize("choice", list(ConflictChoice))
def test_two_windows_saving_the_same_workflow_lose_nothing(
    qtbot, tmp_path: Path, monkeypatch, choice: ConflictChoice
) -> None:
    tab_one, tab_two = two_windows_on_one_workflow(qtbot, tmp_path)
    asked: list[tuple] = []
    tab_two.autosaver.resolve_conflict = lambda mine, theirs: asked.append((mine, theirs)) or choice
    assert tab_two.autosaver.save_now()
    assert asked, "the second save must raise the conflict dialog"
    repository = tab_two.autosaver.repository
    stored = repository.get(tab_one.workflow_id)
    history = [repository.get_version(stored.id, v.version) for v in repository.versions(stored.id)]
    names = {w.name for w in history}
    assert "Theirs" in names  # their edit is in the store's history, whatever was chosen
    if choice is ConflictChoice.OVERWRITE:
        assert stored.description == "mine"
    elif choice is ConflictChoice.KEEP_MINE_AS_COPY:
        copies = [w for w in repository.find() if w.name.endswith("(my copy)")]
        assert copies and copies[0].description == "mine"
        assert tab_two.editor.document.properties.name == "Theirs"
    else:
        assert tab_two.editor.document.properties.name == "Theirs"
        tab_two.editor.undo_stack.undo()  # mine is one undo away
        assert tab_two.editor.document.properties.description == "mine"


def test_save_to_catalog_then_use_and_load_the_saved_blueprint(qtbot) -> None:
    window = make_window(qtbot)
    tab = answer(
        qtbot, window.workflows.catalog.use_blueprint("parallel-fan-out")
    )  # placeholder agents are fine in a template
    saved = answer(
        qtbot,
        window.workflows.catalog.store_blueprint(
            tab.editor.document.snapshot(), "Team fan-out", "parallel"
        ),
    )
    assert saved is not None and saved.status == "PUBLISHED" and saved.is_blueprint
    assert "Team fan-out" in [w.name for w in window.workflows.lists.catalog()]
    listing = window.workflows.lists.panel.blueprints
    listed = lambda: [listing.item(r).text() for r in range(listing.count())]  # noqa: E731
    qtbot.waitUntil(lambda: any(text.startswith("Team fan-out") for text in listed()))
    copy = answer(qtbot, window.workflows.catalog.use_blueprint(f"stored:{saved.id}"))
    assert copy.editor.document.properties.name == "Team fan-out (Copy)"
    target = answer(qtbot, window.workflows.files.new_workflow())
    window.workflows.catalog.load_blueprint_into(target, saved)
    assert len(target.editor.document.nodes) == 5
    assert target.editor.document.properties.name == "Untitled workflow"
    target.editor.undo_stack.undo()
    assert target.editor.document.nodes == []


def test_a_blueprint_with_a_cycle_is_not_saved_to_the_catalog(qtbot) -> None:
    window = make_window(qtbot)
    tab = answer(qtbot, window.workflows.files.new_workflow())
    editor = tab.editor
    a = editor.add_node("demo-echo-agent")
    b = editor.add_node("demo-echo-agent")
    editor.connect_nodes(a, b)
    snapshot = editor.document.snapshot()
    looped = snapshot.model_copy(
        update={
            "edges": [
                *snapshot.edges,
                snapshot.edges[0].model_copy(update={"id": "back", "source": b, "target": a}),
            ]
        }
    )
    assert answer(qtbot, window.workflows.catalog.store_blueprint(looped, "Loop", "")) is None
    assert [w.name for w in window.workspace.workflows.find(blueprints=True)] == []


def test_opened_files_appear_under_open_recent(qtbot) -> None:
    window = make_window(qtbot)
    answer(qtbot, window.workflows.files.open_workflow_file(str(ECHO_DEMO)))
    window.workflows.recent.fill_menu()
    names = [action.text() for action in window.workflows.recent.menu.actions()]
    assert names == ["echo-demo-workflow.yaml"]
    again = make_window(qtbot)
    assert again.workflows.recent.files() == [str(ECHO_DEMO.resolve())]


def test_a_failing_save_keeps_the_change_shows_it_and_retries(qtbot, monkeypatch) -> None:
    window = make_window(qtbot)
    tab = answer(qtbot, window.workflows.files.open_workflow_file(str(ECHO_DEMO)))
    repository = tab.autosaver.repository
    real_update = repository.update

    def locked(*args, **kwargs):
        raise RuntimeError("database is locked")

    monkeypatch.setattr(repository, "update", locked)
    tab.editor.edit_properties({"name": "Renamed while locked"})
    assert not tab.autosaver.save_now()
    assert "(not saved)" in window.workflows.tabs.tab_widget.tabText(
        window.workflows.tabs.tab_widget.currentIndex()
    )
    assert tab.editor.document.properties.name == "Renamed while locked"
    monkeypatch.setattr(repository, "update", real_update)
    qtbot.waitUntil(lambda: tab.autosaver.state.value == "saved", timeout=8000)
    assert repository.get(tab.workflow_id).name == "Renamed while locked"
    assert (
        window.workflows.tabs.tab_widget.tabText(window.workflows.tabs.tab_widget.currentIndex())
        == "Renamed while locked"
    )


def test_right_click_offers_what_can_be_done(qtbot) -> None:
    window = make_window(qtbot)
    editor = answer(qtbot, window.workflows.catalog.use_blueprint("echo-demo-workflow")).editor
    on_node = [
        a.text()
        for a in editor.context_menu(editor.view.mapToScene(0, 0), "say-hello").actions()
        if not a.isSeparator()
    ]
    assert on_node == [
        "Configure…",
        "Duplicate",
        "Copy",
        "Delete",
        "Run from here",
        "Group selection",
    ]
    on_canvas = [a.text() for a in editor.context_menu(editor.view.mapToScene(0, 0), "").actions()]
    assert "Add node…" in on_canvas and "Auto-layout" in on_canvas

"""Making agents of the other kinds: a Transform tried and saved, a Shell command whose argv
is a reorderable list, and the kinds whose Try it is off or passes the input on."""

import json

import pytest
from PySide6.QtCore import QPointF, Qt, QTimer

from studio.model import AgentRegistry, Workflow
from studio.ui.canvas.editor import WorkflowEditor
from studio.workspace import Workspace
from tests.ui.agent_editor.acting import add_pair, choose_kind, click, set_sample_input


@pytest.fixture
def workspace(tmp_path) -> Workspace:
    return Workspace(data_dir=tmp_path / "data")


@pytest.fixture
def editor(qtbot, workspace) -> WorkflowEditor:
    editor = WorkflowEditor(Workflow(name="Shapes"), workspace.agents)
    qtbot.addWidget(editor)
    editor.show()
    return editor


def tried(qtbot, dialog) -> str:
    """Press Try and wait for the answer: the output shown, or the error."""
    box = dialog.try_box
    with qtbot.waitSignal(box.answered, timeout=15_000):
        click(qtbot, box.try_button)
    return box.output.toPlainText() or box.error.text()


def test_a_transform_agent_works_in_try_it_and_saves(qtbot, editor, workspace) -> None:
    dialog = choose_kind(qtbot, editor, "transform", QPointF(0, 0))
    qtbot.keyClicks(dialog.name_edit, "Greet")
    assert "Output" in dialog.general.text()  # required, not yet given
    add_pair(qtbot, dialog, "output", "greeting", "Hello ${input.name}")
    add_pair(qtbot, dialog, "output", "first", "${input.orders[0]}")
    set_sample_input(qtbot, dialog, '{"name": "Ada", "orders": [{"id": 7}]}')
    assert json.loads(tried(qtbot, dialog)) == {"greeting": "Hello Ada", "first": {"id": 7}}

    set_sample_input(qtbot, dialog, '{"name": "Ada"}')
    error = tried(qtbot, dialog)
    assert "TemplateError" in error and "orders" in error

    click(qtbot, dialog.save_button)
    definition = AgentRegistry.from_folders([workspace.own_agents_dir]).get("greet")
    assert definition is not None
    assert definition.settings == {
        "output": {"greeting": "Hello ${input.name}", "first": "${input.orders[0]}"}
    }
    assert [node.agent_id for node in editor.document.nodes] == ["greet"]


def test_a_key_given_twice_in_the_output_table_is_shown_beside_it(qtbot, editor) -> None:
    dialog = choose_kind(qtbot, editor, "transform", QPointF(0, 0))
    qtbot.keyClicks(dialog.name_edit, "Twice")
    add_pair(qtbot, dialog, "output", "a", "1")
    add_pair(qtbot, dialog, "output", "a", "2")
    assert "'a' is given twice" in dialog.settings_form.blocks["output"].problem_text()
    assert not dialog.save_button.isEnabled()
    row = dialog.settings_form.editors["output"].rows.rows[-1]
    click(qtbot, row.remove)
    assert dialog.settings_form.blocks["output"].problem_text() == ""
    assert dialog.save_button.isEnabled()


def test_a_shell_agents_argv_is_a_list_that_reorders(qtbot, editor, workspace) -> None:
    dialog = choose_kind(qtbot, editor, "shell command", QPointF(0, 0))
    qtbot.keyClicks(dialog.name_edit, "Shout")
    argv = dialog.settings_form.editors["argv"]
    script = "import json,sys; print(json.dumps(json.load(sys.stdin)['message'].upper()))"
    for text in (script, "-c", "python3"):
        click(qtbot, argv.rows.add_button)
        qtbot.keyClicks(argv.items()[-1], text)
    click(qtbot, argv.rows.rows[2].up)  # python3 moves up twice, -c down once
    click(qtbot, argv.rows.rows[1].up)
    click(qtbot, argv.rows.rows[2].up)
    assert argv.value() == ["python3", "-c", script]
    assert tried(qtbot, dialog) == '"HELLO"'
    click(qtbot, dialog.save_button)
    definition = AgentRegistry.from_folders([workspace.own_agents_dir]).get("shout")
    assert definition is not None and definition.settings == {"argv": ["python3", "-c", script]}


def test_approval_passes_the_input_on_and_land_artifact_cannot_be_tried(qtbot, editor) -> None:
    palette = editor.open_palette(QPointF(0, 0))
    qtbot.keyClicks(palette.search, "approval")
    assert palette.visible_agent_ids() == ["human-approval"]  # the existing agent comes first
    assert palette.visible_kinds() == ["Approval"]
    palette.reject()
    approval = choose_kind(qtbot, editor, "approval", QPointF(0, 0), down=1)
    qtbot.keyClicks(approval.name_edit, "Sign off")
    assert json.loads(tried(qtbot, approval)) == {}
    approval.reject()
    artifact = choose_kind(qtbot, editor, "land artifact", QPointF(0, 0))
    qtbot.keyClicks(artifact.name_edit, "Keep notes")
    assert not artifact.try_box.try_button.isEnabled()
    assert "cannot be undone" in artifact.try_box.status.text()
    assert artifact.save_button.isEnabled()


def test_the_window_keeps_working_while_an_agent_is_tried(qtbot, editor) -> None:
    dialog = choose_kind(qtbot, editor, "shell command", QPointF(0, 0))
    qtbot.keyClicks(dialog.name_edit, "Slow")
    argv = dialog.settings_form.editors["argv"]
    for text in ("python3", "-c", "import time; time.sleep(1); print(1)"):
        click(qtbot, argv.rows.add_button)
        qtbot.keyClicks(argv.items()[-1], text)
    ticks: list[int] = []
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append(1))
    timer.start(20)
    assert tried(qtbot, dialog) == "1"
    timer.stop()
    assert len(ticks) > 10  # the UI thread ran its timers all through the call


def test_enter_in_a_field_does_not_save(qtbot, editor, workspace) -> None:
    dialog = choose_kind(qtbot, editor, "approval", QPointF(0, 0), down=1)
    qtbot.keyClicks(dialog.name_edit, "Gate")
    assert dialog.save_button.isEnabled()
    qtbot.keyClick(dialog.name_edit, Qt.Key.Key_Return)
    assert dialog.isVisible()
    assert not workspace.own_agents_dir.exists()

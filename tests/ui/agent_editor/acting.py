"""What a person does in the agent editor, step by step: choose a kind in the palette, type in
fields, add table rows, press Try and Save."""

from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QLineEdit

from studio.ui.agent_editor.dialog import AgentEditorDialog
from studio.ui.canvas.editor import WorkflowEditor


def choose_kind(
    qtbot, editor: WorkflowEditor, typed: str, where: QPointF, down: int = 0
) -> AgentEditorDialog:
    """Open the palette at ``where``, type, press Down ``down`` times and Enter: the agent
    editor that opens."""
    palette = editor.open_palette(where)
    qtbot.keyClicks(palette.search, typed)
    for _ in range(down):
        qtbot.keyClick(palette.search, Qt.Key.Key_Down)
    qtbot.keyClick(palette.search, Qt.Key.Key_Return)
    dialog = editor.agent_editor
    assert dialog is not None and dialog.isVisible()
    return dialog


def retype(qtbot, edit: QLineEdit, text: str) -> None:
    """Select what the field holds and type ``text`` over it."""
    edit.selectAll()
    qtbot.keyClick(edit, Qt.Key.Key_Delete)
    qtbot.keyClicks(edit, text)


def add_pair(qtbot, dialog: AgentEditorDialog, setting: str, name: str, value: str) -> None:
    """Click the table's Add button and type a name and a value in the new row."""
    table = dialog.settings_form.editors[setting]
    qtbot.mouseClick(table.rows.add_button, Qt.MouseButton.LeftButton)
    name_edit, value_edit = table.rows.rows[-1].cells
    assert isinstance(name_edit, QLineEdit) and isinstance(value_edit, QLineEdit)
    qtbot.keyClicks(name_edit, name)
    qtbot.keyClicks(value_edit, value)


def set_sample_input(qtbot, dialog: AgentEditorDialog, text: str) -> None:
    """Replace the Try it box's sample input."""
    dialog.try_box.input_edit.selectAll()
    qtbot.keyClick(dialog.try_box.input_edit, Qt.Key.Key_Delete)
    qtbot.keyClicks(dialog.try_box.input_edit, text)


def click(qtbot, button) -> None:
    """Click a button, which must be enabled."""
    assert button.isEnabled(), button.toolTip()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)

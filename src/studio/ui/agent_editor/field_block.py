"""A field of the agent editor with its hint and, under it, what is wrong with it."""

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from studio.ui.panels.inline_message import InlineMessage


class FieldBlock(QWidget):
    """An editor, its error message and its hint (a quiet note), one under the other."""

    def __init__(self, editor: QWidget, hint: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.editor = editor
        self.message = InlineMessage(self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(editor)
        layout.addWidget(self.message)
        self.hint = QLabel(hint, self)
        self.hint.setTextFormat(Qt.TextFormat.PlainText)
        self.hint.setWordWrap(True)
        self.hint.setObjectName("fieldHint")
        self.hint.setStyleSheet("color: palette(placeholder-text);")
        self.hint.setVisible(bool(hint))
        layout.addWidget(self.hint)

    def show_problem(self, problem: str | None) -> None:
        """Show the problem under the editor, or hide it when there is none."""
        self.message.show_error(problem)

    def problem_text(self) -> str:
        """The problem shown now ("" when none)."""
        return self.message.text() if self.message.kind == "error" else ""

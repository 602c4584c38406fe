"""A titled group of form rows, so a long panel reads as a few clear sections."""

from collections.abc import Iterable

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QAbstractSpinBox,
    QComboBox,
    QFormLayout,
    QFrame,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

COMPACT_COMBO = QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
INPUTS = (QLineEdit, QComboBox, QAbstractItemView, QAbstractSpinBox, QPlainTextEdit, QTextEdit)
"""Widgets a screen reader announces by name: a row's label names those without one."""


class FormSection(QWidget):
    """A bold heading over a rule and a two-column form."""

    def __init__(self, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.column = outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 8, 0, 4)
        outer.setSpacing(6)
        heading = QLabel(title)
        font = QFont(heading.font())
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.15)
        heading.setFont(font)
        heading.setObjectName("sectionHeading")
        rule = QFrame()
        rule.setFrameShape(QFrame.Shape.HLine)
        rule.setFrameShadow(QFrame.Shadow.Sunken)
        self.form = QFormLayout()
        self.form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        outer.addWidget(heading)
        outer.addWidget(rule)
        outer.addLayout(self.form)
        outer.addStretch(1)  # spare height goes below the rows, never between them

    def add_row(self, label: str, field: QWidget) -> None:
        """Add a labelled row; an empty label lets the field span both columns."""
        combos = [field] if isinstance(field, QComboBox) else field.findChildren(QComboBox)
        for combo in combos:  # a long entry must not make the whole panel wide
            combo.setSizeAdjustPolicy(COMPACT_COMBO)
            combo.setMinimumContentsLength(12)
        if label:
            name_inputs(field, label.replace("&", "").rstrip(": "))
            self.form.addRow(label, field)
        else:
            self.form.addRow(field)

    def labels(self) -> list[QWidget]:
        """The label widgets of the form's rows."""
        role = QFormLayout.ItemRole.LabelRole
        items = (self.form.itemAt(row, role) for row in range(self.form.rowCount()))
        return [widget for item in items if item is not None and (widget := item.widget())]


def name_inputs(field: QWidget, name: str) -> None:
    """Give the inputs of a form row that have no accessible name the row's label, which a
    screen reader cannot find itself when the input sits inside a composite field."""
    inputs = [field] if isinstance(field, INPUTS) else field.findChildren(QWidget)
    for widget in inputs:
        if isinstance(widget, INPUTS) and not widget.accessibleName():
            widget.setAccessibleName(name)


def align_label_columns(sections: Iterable[FormSection]) -> None:
    """Give every section's labels the width of the widest, so the fields line up."""
    labels = [label for section in sections for label in section.labels()]
    width = max((label.sizeHint().width() for label in labels), default=0)
    for label in labels:
        label.setMinimumWidth(width)


def stacked_column(*widgets: QWidget) -> QWidget:
    """One form field made of widgets stacked tightly, focusing the first."""
    holder = QWidget()
    layout = QVBoxLayout(holder)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.setSpacing(2)
    for widget in widgets:
        layout.addWidget(widget)
    holder.setFocusProxy(widgets[0])
    return holder


def empty_state(text: str) -> QLabel:
    """A centred, muted sentence for a panel with nothing to show."""
    label = QLabel(text)
    label.setAlignment(Qt.AlignmentFlag.AlignCenter)
    label.setWordWrap(True)
    label.setEnabled(False)
    return label

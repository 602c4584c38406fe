"""The node drawer's sample data: an output pinned from a run, and the node's templates filled
in with it, so a person sees what they will produce before the next run."""

import json
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QLabel, QPushButton, QWidget

from studio.engine.rules.templates import TemplateError, render
from studio.model import Node
from studio.ui.panels.form_section import FormSection, stacked_column

NO_SAMPLE = "No sample data. Pin a step's output in the Runs panel to preview templates here."
NO_TEMPLATES = "Turn on compensation to preview its arguments with the sample."
SHOWN_CHARACTERS = 600


def shown_json(value: Any) -> str:
    """``value`` as indented JSON, cut short when it is long."""
    text = json.dumps(value, indent=2, ensure_ascii=False, default=str)
    return text if len(text) <= SHOWN_CHARACTERS else text[:SHOWN_CHARACTERS] + "\n…"


def _monospace_label(name: str) -> QLabel:
    label = QLabel()
    label.setObjectName(name)
    label.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    label.setWordWrap(True)
    return label


class NodeSampleSection(FormSection):
    """The pinned sample (with a way to clear it) and the compensation arguments rendered
    against it, as the engine would render them with this output."""

    edited = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Sample data", parent)
        self._sample: Any = None
        self._cleared = False
        self.sample_label = _monospace_label("sampleData")
        self.clear_button = QPushButton("Clear sample")
        self.clear_button.setToolTip("Forget the pinned output")
        self.clear_button.clicked.connect(self._clear)
        self.preview_label = _monospace_label("templatePreview")
        self.add_row("Output", stacked_column(self.sample_label, self.clear_button))
        self.add_row("Compensation preview", self.preview_label)

    def load(self, node: Node) -> None:
        """Show the node's pinned sample."""
        self._sample, self._cleared = node.sample_data, False
        pinned = node.sample_data is not None
        self.sample_label.setText(shown_json(node.sample_data) if pinned else NO_SAMPLE)
        self.sample_label.setEnabled(pinned)
        self.clear_button.setVisible(pinned)

    def preview(self, args: dict[str, Any] | None) -> None:
        """Show compensation ``args`` filled in from the sample (the node's output)."""
        self.preview_label.setEnabled(False)
        if self._sample is None:
            self.preview_label.setText("—")
        elif args is None:
            self.preview_label.setText(NO_TEMPLATES)
        else:
            self.preview_label.setText(rendered_text(args, self._sample))
            self.preview_label.setEnabled(True)

    def write(self, data: dict[str, Any]) -> None:
        """Drop the sample from a node's data once the person cleared it."""
        if self._cleared:
            data["sample_data"] = None

    def blocking_problem(self) -> str | None:
        """Nothing here can stop a node from being built."""
        return None

    def _clear(self) -> None:
        self._cleared = True
        self.edited.emit()


def rendered_text(args: dict[str, Any], output: Any) -> str:
    """Compensation arguments rendered with ``output``, or why they cannot be."""
    try:
        return shown_json(render(args, {"output": output}))
    except TemplateError as failure:
        return f"Cannot fill in: {failure}"

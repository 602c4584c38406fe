"""Use a blueprint in an app: choose the app (or name a new one), map each placeholder agent
slot to a real agent, and name the copy. The dialog only asks; the caller imports."""

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from studio.model import Workflow
from studio.model.agents import AgentDefinition
from studio.model.apps import App
from studio.model.blueprint_import import copy_name, placeholder_slots, suggested_agents

NEW_APP = "New app…"
SUGGESTED = 3
"""Agents offered first in a slot's chooser, the closest by name and description."""


@dataclass(frozen=True)
class UseInAppChoice:
    """What the person chose: an existing app or a new one's name, the agents for the
    placeholders, the copy's name (None: the catalog's "<blueprint> (Copy)")."""

    app_id: str | None
    new_app: str | None
    mapping: dict[str, str]
    name: str | None
    keep_placeholders: bool


class UseInAppDialog(QDialog):
    """Asks where a blueprint's copy goes and which agents fill its placeholder slots; it
    cannot finish while a slot is empty, unless the person keeps them and says so."""

    def __init__(
        self,
        blueprint: Workflow,
        apps: Sequence[App],
        agents: Sequence[AgentDefinition],
        taken_names: set[str],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Use “{blueprint.name}” in an app")
        self.blueprint, self.apps = blueprint, [app for app in apps if app.status == "ACTIVE"]
        self.agents = sorted(agents, key=lambda agent: agent.name.lower())
        self.app_combo = QComboBox()
        self.new_app_edit = QLineEdit(placeholderText="Name of the new app")
        self.name_edit = QLineEdit(placeholderText=copy_name(blueprint.name, taken_names))
        self.slot_combos = {slot: self._slot_combo(slot) for slot in placeholder_slots(blueprint)}
        self.keep_box = QCheckBox(
            "Keep the unmapped placeholders: the copy stays a draft that cannot be published "
            "until each is mapped"
        )
        self.missing = QLabel()
        self.missing.setObjectName("missing")
        self.missing.setStyleSheet("color: #b45309;")  # the amber of the catalog's mark
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.use_button = self.buttons.addButton(
            "Use in app", QDialogButtonBox.ButtonRole.AcceptRole
        )
        self._lay_out()
        self._connect()
        self._refresh()

    # What was chosen ---------------------------------------------------------------------

    def choice(self) -> UseInAppChoice:
        """The app, the mapping and the name as chosen now."""
        index = self.app_combo.currentIndex()
        existing = self.apps[index] if index < len(self.apps) else None
        mapping = {
            slot: combo.currentData()
            for slot, combo in self.slot_combos.items()
            if combo.currentData() is not None
        }
        return UseInAppChoice(
            app_id=existing.id if existing is not None else None,
            new_app=None if existing is not None else self.new_app_edit.text().strip(),
            mapping=mapping,
            name=self.name_edit.text().strip() or None,
            keep_placeholders=self.keep_box.isChecked(),
        )

    def unmapped(self) -> list[str]:
        """The placeholder slots no agent is chosen for yet."""
        return [slot for slot, combo in self.slot_combos.items() if combo.currentData() is None]

    def use_suggestions(self) -> None:
        """Fill every empty slot with its closest agent."""
        for combo in self.slot_combos.values():
            if combo.currentData() is None and combo.count() > 1:
                combo.setCurrentIndex(1)

    # Building ----------------------------------------------------------------------------

    def _slot_combo(self, slot: str) -> QComboBox:
        combo = QComboBox()
        combo.addItem("Choose an agent…", None)
        suggested = suggested_agents(slot, self.agents)[:SUGGESTED]
        by_id = {agent.id: agent for agent in self.agents}
        for agent_id in suggested:
            self._add_agent(combo, by_id[agent_id], "suggested: ")
        if suggested:
            combo.insertSeparator(combo.count())
        for agent in self.agents:
            self._add_agent(combo, agent, "")
        return combo

    @staticmethod
    def _add_agent(combo: QComboBox, agent: AgentDefinition, prefix: str) -> None:
        combo.addItem(f"{prefix}{agent.name} ({agent.id})", agent.id)
        combo.setItemData(combo.count() - 1, agent.description, Qt.ItemDataRole.ToolTipRole)

    def _lay_out(self) -> None:
        for app in self.apps:
            self.app_combo.addItem(app.name, app.id)
        self.app_combo.addItem(NEW_APP, None)
        form = QFormLayout()
        form.addRow("App", self.app_combo)
        form.addRow("", self.new_app_edit)
        form.addRow("Name of the copy", self.name_edit)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self._slots_box())
        layout.addWidget(self.missing)
        layout.addWidget(self.buttons)
        self.resize(560, self.sizeHint().height())

    def _slots_box(self) -> QGroupBox:
        box = QGroupBox("Agents for the placeholder slots")
        layout = QVBoxLayout(box)
        if not self.slot_combos:
            layout.addWidget(QLabel("This blueprint uses real agents only: nothing to map."))
            self.keep_box.hide()
            return box
        slots = QFormLayout()
        for slot, combo in self.slot_combos.items():
            slots.addRow(self._slot_label(slot), combo)
        layout.addLayout(slots)
        suggest = QPushButton("Use the suggestions")
        suggest.setToolTip("Fill each empty slot with the agent closest to it by name")
        suggest.clicked.connect(self.use_suggestions)
        layout.addWidget(suggest, alignment=Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.keep_box)
        return box

    def _slot_label(self, slot: str) -> QLabel:
        """The slot's id, and below it, small, the nodes that use it."""
        nodes = [node.name or node.id for node in self.blueprint.nodes if node.agent_id == slot]
        used_by = escape(", ".join(nodes))
        label = QLabel(f"{escape(slot)}<br><small>{used_by}</small>")
        label.setToolTip(f"Used by: {used_by}")
        return label

    def _connect(self) -> None:
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.app_combo.currentIndexChanged.connect(self._refresh)
        self.new_app_edit.textChanged.connect(self._refresh)
        self.keep_box.toggled.connect(self._refresh)
        for combo in self.slot_combos.values():
            combo.currentIndexChanged.connect(self._refresh)
        if not self.apps:
            self.new_app_edit.setFocus()

    def _refresh(self) -> None:
        new_app = self.app_combo.currentData() is None
        self.new_app_edit.setVisible(new_app)
        problem = self._problem(new_app)
        self.missing.setText(problem)
        self.missing.setVisible(bool(problem))
        self.use_button.setEnabled(not problem)

    def _problem(self, new_app: bool) -> str:
        """What keeps the dialog from finishing, in words; empty when nothing does."""
        if new_app and not self.new_app_edit.text().strip():
            return "Name the new app, or choose one."
        unmapped = self.unmapped()
        if unmapped and not self.keep_box.isChecked():
            slots = ", ".join(unmapped)
            return f"Choose an agent for {slots}, or keep the placeholders and say so."
        return ""

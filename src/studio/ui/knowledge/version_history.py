"""An artifact's versions, newest first: choose one to read it, or two to compare them."""

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from studio.model.knowledge import ArtifactVersion
from studio.ui.run.time_text import local_time_text

REF_ROLE = Qt.ItemDataRole.UserRole
LIST_HEIGHT = 120
"""Pixels the version list may take; a longer history scrolls."""


def newest_first(history: list[ArtifactVersion]) -> list[ArtifactVersion]:
    """The versions by creation moment, newest first; equal moments keep landing order reversed."""
    return sorted(reversed(history), key=lambda version: version.front.created_at, reverse=True)


def version_text(version: ArtifactVersion) -> str:
    """A version as one line of a list: when it was created and its title."""
    return f"{local_time_text(version.front.created_at)}   {version.front.title}"


class VersionHistory(QWidget):
    """The list of an artifact's versions and a "Compare … with …" row under it."""

    versionRequested = Signal(str)
    """A version other than the one shown was chosen: its ref."""
    compareRequested = Signal(str, str)
    """Compare was pressed: the older ref, then the newer."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._versions: list[ArtifactVersion] = []
        self._shown: str | None = None
        self.list = QListWidget(self)
        self.list.setObjectName("artifactVersions")
        self.list.setMaximumHeight(LIST_HEIGHT)
        self.list.currentItemChanged.connect(self._on_current)
        self.older = QComboBox(self)
        self.older.setObjectName("compareOlder")
        self.newer = QComboBox(self)
        self.newer.setObjectName("compareNewer")
        self.compare = QPushButton("Compare", self)
        self.compare.setObjectName("compareVersions")
        self.compare.setToolTip("Show the two chosen versions side by side")
        self.compare.clicked.connect(self._on_compare)
        for box in (self.older, self.newer):
            box.currentIndexChanged.connect(self._update_compare)
        row = QHBoxLayout()
        for widget in (QLabel("Compare"), self.older, QLabel("with"), self.newer, self.compare):
            row.addWidget(widget)
        row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 2, 6, 6)
        layout.addWidget(QLabel("Versions, newest first"))
        layout.addWidget(self.list, 1)
        layout.addLayout(row)

    def show_history(self, history: list[ArtifactVersion], shown_ref: str) -> None:
        """List ``history``, the shown version selected; the comparison proposed is the shown
        version with the one before it."""
        self._versions, self._shown = newest_first(history), shown_ref
        self.list.blockSignals(True)
        self.list.clear()
        for index, version in enumerate(self._versions):
            self.list.addItem(self._item(version, current=index == 0))
        self.list.blockSignals(False)
        self._fill_choices()
        self.show()

    def clear(self) -> None:
        """Forget the versions and hide."""
        self._versions, self._shown = [], None
        self.list.clear()
        self.hide()

    def _item(self, version: ArtifactVersion, current: bool) -> QListWidgetItem:
        text = version_text(version) + ("   (current)" if current else "")
        item = QListWidgetItem(text)
        item.setData(REF_ROLE, version.ref)
        item.setToolTip(f"{version.ref}\nlanded {local_time_text(version.landed_at)}")
        if version.ref == self._shown:
            font = item.font()
            font.setBold(True)
            item.setFont(font)
        return item

    def _fill_choices(self) -> None:
        refs = [version.ref for version in self._versions]
        shown = refs.index(self._shown) if self._shown in refs else 0
        older = shown + 1 if shown + 1 < len(refs) else max(shown - 1, 0)
        for box, chosen in ((self.older, max(older, shown)), (self.newer, min(older, shown))):
            box.blockSignals(True)
            box.clear()
            for version in self._versions:
                box.addItem(local_time_text(version.front.created_at), version.ref)
            box.setCurrentIndex(chosen)
            box.blockSignals(False)
        self._select_shown()
        self._update_compare()

    def _select_shown(self) -> None:
        self.list.blockSignals(True)
        for row in range(self.list.count()):
            if self.list.item(row).data(REF_ROLE) == self._shown:
                self.list.setCurrentRow(row)
        self.list.blockSignals(False)

    def _update_compare(self) -> None:
        two = len(self._versions) > 1
        self.older.setEnabled(two)
        self.newer.setEnabled(two)
        self.compare.setEnabled(two and self.older.currentData() != self.newer.currentData())

    def _on_current(self, item: QListWidgetItem | None) -> None:
        if item is not None and item.data(REF_ROLE) != self._shown:
            self.versionRequested.emit(item.data(REF_ROLE))

    def _on_compare(self) -> None:
        """Emit the two refs, older first, whichever box each was chosen in."""
        first, second = self.older.currentIndex(), self.newer.currentIndex()
        older, newer = (first, second) if first > second else (second, first)
        self.compareRequested.emit(self._versions[older].ref, self._versions[newer].ref)

"""A work item's card on the board: its subject, what the Order asks, the artifact and the
capability, and who holds its lease with the time left, in the colour of its status."""

from datetime import datetime

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFocusEvent, QKeyEvent, QMouseEvent
from PySide6.QtWidgets import QFrame, QLabel, QSizePolicy, QVBoxLayout, QWidget

from studio.model.work_items import WorkItem
from studio.ui.icon_label import IconLabel
from studio.ui.work.work_look import dark_window, last_moment, lease_text, work_look

CARD_WIDTH = 168


class WorkCard(QFrame):
    """One item on the board; a click (or Space) selects it."""

    picked = Signal(str)  # the item's id

    def __init__(self, item: WorkItem, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.item = item
        self.selected = False
        self.setObjectName(f"workCard-{item.id}")
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.title = IconLabel()
        self.title.setStyleSheet("font-weight: bold;")
        self.title.setWordWrap(True)
        self.subject = QLabel()
        self.ordered = QLabel()
        self.ordered.setStyleSheet("color: palette(placeholder-text);")
        self.lease = QLabel()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 6, 8, 6)
        layout.setSpacing(2)
        for label in (self.title, self.subject, self.ordered, self.lease):
            label.setTextInteractionFlags(Qt.TextInteractionFlag.NoTextInteraction)
            layout.addWidget(label)
        self.show_item(item)

    def show_item(self, item: WorkItem, now: datetime | None = None) -> None:
        """Show the item as it is now (its status, lease and words may have changed)."""
        self.item = item
        look = work_look(item.status)
        self.title.setText(_shortened(item.title))
        self.title.set_icon(look.icon, look.colour(dark_window()))
        self.title.setToolTip(f"{look.label} · {item.id}\n{item.title}")
        self.subject.setText(item.subject)
        self.ordered.setText(f"{item.artifact} · {item.capability}")
        self.setAccessibleName(f"{item.subject}: {item.title} ({look.label})")
        self._style()
        self.tick(now)

    def tick(self, now: datetime | None) -> None:
        """Count the lease down to ``now``; a closed item says how it ended, and when."""
        if self.item.terminal:
            text = f"{work_look(self.item.status).label} · {_when(last_moment(self.item))}"
        else:
            text = lease_text(self.item, now) if now is not None else ""
        self.lease.setText(text)
        self.lease.setVisible(bool(text))

    def set_selected(self, selected: bool) -> None:
        if selected != self.selected:
            self.selected = selected
            self._style()

    def _style(self) -> None:
        colour = work_look(self.item.status).colour(dark_window()).name()
        edge = "palette(highlight)" if self.selected else "palette(mid)"
        width = 2 if self.selected else 1
        self.setStyleSheet(
            f"WorkCard {{ background: palette(base); border: {width}px solid {edge};"
            f" border-left: 4px solid {colour}; border-radius: 4px; }}"
            " WorkCard QLabel { border: none; background: transparent; }"
        )

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self.setFocus(Qt.FocusReason.MouseFocusReason)
            self.picked.emit(self.item.id)
        super().mousePressEvent(event)

    def focusInEvent(self, event: QFocusEvent) -> None:
        super().focusInEvent(event)
        if event.reason() in (Qt.FocusReason.TabFocusReason, Qt.FocusReason.BacktabFocusReason):
            self.picked.emit(self.item.id)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Space, Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.picked.emit(self.item.id)
            return
        super().keyPressEvent(event)


def _when(moment: datetime) -> str:
    return moment.astimezone().strftime("%d %b %H:%M")


def _shortened(text: str, longest: int = 90) -> str:
    return text if len(text) <= longest else text[: longest - 1].rstrip() + "…"

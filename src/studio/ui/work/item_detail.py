"""The selected work item in full: a summary of its front matter, then its four sections
(Order, Resolved-context snapshot, Work log, Artifacts) and the front matter as written.

It is shown again on every read of the queue; only what changed is redrawn, and the work log
grows at its end without jumping back to the top."""

from datetime import datetime

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QFormLayout,
    QLabel,
    QListWidget,
    QPlainTextEdit,
    QStackedWidget,
    QTabWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from studio.model.work_items import ORDER, SNAPSHOT, WORK_LOG, WorkItem, render_work_item
from studio.ui.icon_label import IconLabel
from studio.ui.work.work_look import counted, dark_window, lease_text, work_look

FRONT_MATTER = "Front matter"
NOTHING_YET = {SNAPSHOT: "Nothing resolved yet: the snapshot is written at build time."}


class ItemDetail(QStackedWidget):
    """What the Item dock shows: a hint until an item is selected, then the item."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("workItemDetail")
        self.item: WorkItem | None = None
        self.hint = QLabel("Select a work item to see its order, snapshot, work log and artifacts.")
        self.hint.setWordWrap(True)
        self.hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.hint.setMargin(24)
        self.addWidget(self.hint)
        self.addWidget(self._build_page())

    def _build_page(self) -> QWidget:
        page = QWidget()
        self.status = IconLabel()
        self.status.setStyleSheet("font-weight: bold;")
        self.heading = QLabel()
        self.heading.setWordWrap(True)
        self.heading.setStyleSheet("font-size: 14px; font-weight: bold;")
        self.heading.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.summary = QFormLayout()
        self.summary.setContentsMargins(0, 4, 0, 4)
        self.fields: dict[str, QLabel] = {}
        for name in ("Id", "Subject", "Ordered", "Requested by", "Lease", "Loops"):
            label = QLabel()
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            label.setWordWrap(True)
            self.fields[name] = label
            self.summary.addRow(f"{name}:", label)
        self.order = _browser("workItemOrder", ORDER)
        self.snapshot = _browser("workItemSnapshot", SNAPSHOT)
        self.log = QListWidget()
        self.log.setObjectName("workItemLog")
        self.log.setAccessibleName(WORK_LOG)
        self.log.setWordWrap(True)
        self.artifacts = QListWidget()
        self.artifacts.setObjectName("workItemArtifacts")
        self.artifacts.setAccessibleName("Artifacts")
        self.front = QPlainTextEdit()
        self.front.setObjectName("workItemFrontMatter")
        self.front.setAccessibleName(FRONT_MATTER)
        self.front.setReadOnly(True)
        self.front.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.tabs = QTabWidget()
        self.tabs.setObjectName("workItemSections")
        for widget, title in (
            (self.order, ORDER),
            (self.snapshot, "Snapshot"),
            (self.log, WORK_LOG),
            (self.artifacts, "Artifacts"),
            (self.front, FRONT_MATTER),
        ):
            self.tabs.addTab(widget, title)
        self.tabs.setTabToolTip(1, SNAPSHOT)
        layout = QVBoxLayout(page)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addWidget(self.status)
        layout.addWidget(self.heading)
        layout.addLayout(self.summary)
        layout.addWidget(self.tabs, 1)
        return page

    def show_item(self, item: WorkItem | None, now: datetime) -> None:
        """Show ``item`` as last read (None: nothing selected)."""
        if item is None:
            self.item = None
            self.setCurrentWidget(self.hint)
            return
        same_item = self.item is not None and self.item.id == item.id
        if not same_item or item != self.item:
            self._fill(item, keep_log=same_item)
        self.item = item
        self.setCurrentIndex(1)
        self.tick(now)

    def tick(self, now: datetime) -> None:
        """Count the lease down to ``now``."""
        if self.item is not None:
            self.fields["Lease"].setText(lease_text(self.item, now) or "none")

    def _fill(self, item: WorkItem, keep_log: bool) -> None:
        look = work_look(item.status)
        self.status.setText(look.label)
        self.status.set_icon(look.icon, look.colour(dark_window()))
        self.status.setStyleSheet(f"font-weight: bold; color: {look.colour(dark_window()).name()};")
        self.heading.setText(item.title)
        self.fields["Id"].setText(item.id)
        self.fields["Subject"].setText(item.subject)
        self.fields["Ordered"].setText(f"{item.artifact} from {item.capability}")
        self.fields["Requested by"].setText(f"{item.requested_by} · {_when(item.created_at)}")
        self.fields["Loops"].setText(
            f"{counted(item.context_bounces, 'context bounce')} · "
            f"{counted(item.build_rounds, 'build round')}"
        )
        _set_markdown(self.order, item.order)
        _set_markdown(self.snapshot, "\n\n".join(item.snapshot) or NOTHING_YET[SNAPSHOT])
        _grow(self.log, item.work_log, keep_log)
        _grow(self.artifacts, item.artifacts, keep_log)
        self.front.setPlainText(front_matter(item))
        self.tabs.setTabText(2, f"{WORK_LOG} ({len(item.work_log)})")
        self.tabs.setTabText(3, f"Artifacts ({len(item.artifacts)})")

    def log_lines(self) -> list[str]:
        """The work log as shown, one line an entry."""
        return [self.log.item(row).text() for row in range(self.log.count())]


def front_matter(item: WorkItem) -> str:
    """The item's front matter as its document writes it (between the ``---`` lines)."""
    text = render_work_item(item)
    return text.split("---\n", 2)[1]


def _browser(name: str, title: str) -> QTextBrowser:
    browser = QTextBrowser()
    browser.setObjectName(name)
    browser.setAccessibleName(title)
    browser.setOpenExternalLinks(True)
    return browser


def _set_markdown(browser: QTextBrowser, text: str) -> None:
    """Show ``text``; the same text again keeps where the reader had scrolled to."""
    if browser.property("shownText") != text:
        browser.setProperty("shownText", text)
        browser.setMarkdown(text)


def _grow(rows: QListWidget, lines: tuple[str, ...], keep: bool) -> None:
    """Show ``lines``: only the new ones are added when the list grew (the sections only
    grow); the view follows the end when it was there."""
    shown = [rows.item(row).text() for row in range(rows.count())]
    if keep and shown == list(lines[: len(shown)]):
        at_end = rows.verticalScrollBar().value() >= rows.verticalScrollBar().maximum()
        rows.addItems(list(lines[len(shown) :]))
        if at_end:
            rows.scrollToBottom()
        return
    rows.clear()
    rows.addItems(list(lines))


def _when(moment: datetime) -> str:
    return moment.astimezone().strftime("%Y-%m-%d %H:%M")

"""The artifact pane: one artifact version rendered from its Markdown, who produced it, and
its version history with a side-by-side comparison of any two versions.

The pane reads nothing itself: the Knowledge view hands it a version, its text (or why the text
cannot be shown) and the artifact's history, and turns what a person clicks into intents —
a node to move the graph to, a run to open, a version to show, two versions to compare.
"""

import html
from collections.abc import Mapping
from typing import Any

from PySide6.QtCore import QEvent, Qt, QUrl, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QLabel, QTextBrowser, QVBoxLayout, QWidget

from studio.knowledge.artifact_html import (
    NODE_SCHEME,
    VERSION_SCHEME,
    NodeHref,
    message_html,
    plain_node_href,
    render_artifact,
    target_of,
)
from studio.model.knowledge import ArtifactVersion
from studio.ui.knowledge.version_diff import VersionDiff
from studio.ui.knowledge.version_history import VersionHistory
from studio.ui.panels.inline_message import window_is_dark
from studio.ui.run.time_text import local_time_text

EMPTY_TEXT = "No artifact selected. Select an artifact in the graph to read it here."
SHORT_EXECUTION = 12
"""Execution ids longer than this are shortened to their first eight characters."""
_PROVENANCE_LINK = "provenance"


def provenance_text(produced_by: Mapping[str, Any], workflow_names: Mapping[str, str]) -> str:
    """Who produced an artifact, in words: "produced by run 4f1c2a3b… of Checkout flow v3,
    node write-design, attempt 1"; without a run, what the front matter names."""
    execution = produced_by.get("execution")
    if execution is None:
        capability = produced_by.get("capability")
        return f"produced by {capability}, no run recorded" if capability else "no run recorded"
    run = str(execution)
    parts = [f"produced by run {run[:8] + '…' if len(run) > SHORT_EXECUTION else run}"]
    workflow = produced_by.get("workflow")
    if workflow is not None:
        name = workflow_names.get(str(workflow), str(workflow))
        version = produced_by.get("workflow_version")
        parts[0] += f" of {name}" + (f" v{version}" if version is not None else "")
    for key in ("node", "attempt"):
        if produced_by.get(key) is not None:
            parts.append(f"{key} {produced_by[key]}")
    return ", ".join(parts)


class _Header(QWidget):
    """Title, kind, subject and dates of the version shown, and its provenance link."""

    provenanceClicked = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = QLabel()
        self.title.setObjectName("artifactTitle")
        font = self.title.font()
        font.setPointSizeF(font.pointSizeF() * 1.3)
        font.setBold(True)
        self.title.setFont(font)
        self.details = QLabel()
        self.details.setObjectName("artifactDetails")
        self.provenance = QLabel()
        self.provenance.setObjectName("artifactProvenance")
        self.provenance.linkActivated.connect(lambda _link: self.provenanceClicked.emit())
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 2)
        for label in (self.title, self.details, self.provenance):
            label.setWordWrap(True)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
            layout.addWidget(label)

    def show_version(self, version: ArtifactVersion, provenance: str, linked: bool) -> None:
        """Show a version's title and details; ``linked``: provenance names a run to open."""
        front = version.front
        self.title.setText(front.title)
        self.details.setText(
            f"{front.kind} · {front.subject} · created {local_time_text(front.created_at)}"
            f" · landed {local_time_text(version.landed_at)}"
        )
        self.details.setToolTip(version.ref)
        if linked:
            self.provenance.setTextFormat(Qt.TextFormat.RichText)
            self.provenance.setText(f'<a href="{_PROVENANCE_LINK}">{html.escape(provenance)}</a>')
        else:
            self.provenance.setTextFormat(Qt.TextFormat.PlainText)
            self.provenance.setText(provenance)
        self.show()


class ArtifactPane(QWidget):
    """One artifact version, rendered, with its provenance and its version history."""

    nodeRequested = Signal(str)
    """A link to a graph node was clicked: the node id the caller's ``node_href`` named."""
    provenanceRequested = Signal(dict)
    """The provenance link was clicked: the version's ``produced_by`` mapping."""
    versionRequested = Signal(str)
    """Another version was chosen in the history (or a ``supersedes`` link): its ref."""
    compareRequested = Signal(str, str)
    """Two versions were chosen for comparison: the older ref, then the newer."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._node_href: NodeHref = plain_node_href
        self._workflow_names: dict[str, str] = {}
        self._version: ArtifactVersion | None = None
        self._text: str | None = None
        self._message: tuple[str, list[str]] | None = None
        self._diff: VersionDiff | None = None
        self.header = _Header(self)
        self.header.provenanceClicked.connect(self._on_provenance)
        self.browser = QTextBrowser(self)
        self.browser.setObjectName("artifactText")
        self.browser.setOpenLinks(False)
        self.browser.anchorClicked.connect(self._on_anchor)
        self.history = VersionHistory(self)
        self.history.versionRequested.connect(self.versionRequested)
        self.history.compareRequested.connect(self.compareRequested)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.header)
        layout.addWidget(self.browser, 1)
        layout.addWidget(self.history)
        self.clear()

    # What the caller sets ------------------------------------------------------------------

    def set_node_href(self, node_href: NodeHref) -> None:
        """How links to graph nodes are addressed (see ``artifact_html``); shown again."""
        self._node_href = node_href
        self._render()

    def set_workflow_names(self, names: Mapping[str, str]) -> None:
        """Workflow names by id, so provenance names the workflow rather than its id."""
        self._workflow_names = dict(names)
        if self._version is not None:
            self._show_header(self._version)

    # What the pane shows -------------------------------------------------------------------

    def show_artifact(
        self,
        version: ArtifactVersion,
        text: str | None,
        error: str | None,
        history: list[ArtifactVersion],
    ) -> None:
        """Show one version: its text rendered, or, when the text could not be read, why."""
        self._version, self._text = version, text
        self._message = None
        if text is None:
            reason = error or "Its text could not be read."
            self._message = ("This version cannot be shown", [reason, f"Version: {version.ref}"])
        self._show_header(version)
        self.history.show_history(history, version.ref)
        self._render()

    def show_error(self, message: str) -> None:
        """Show why no artifact can be shown (a damaged stored text names its ref)."""
        self._version, self._text = None, None
        self._message = ("The artifact cannot be shown", [message])
        self.header.hide()
        self.history.clear()
        self._render()

    def clear(self) -> None:
        """Show nothing, with a hint on how to choose an artifact."""
        self._version, self._text, self._message = None, None, None
        self.header.hide()
        self.history.clear()
        self._render()

    def show_comparison(self, old_ref: str, old_text: str, new_ref: str, new_text: str) -> None:
        """Open the side-by-side comparison of two versions' texts."""
        if self._diff is not None:
            self._diff.close()
        self._diff = VersionDiff(old_ref, old_text, new_ref, new_text, self)
        self._diff.show()

    def comparison(self) -> VersionDiff | None:
        """The comparison window last opened, if any."""
        return self._diff

    def shown_ref(self) -> str | None:
        """The ref of the version shown, if any."""
        return None if self._version is None else self._version.ref

    def shown_text(self) -> str:
        """What the text view shows, as plain text."""
        return self.browser.toPlainText()

    # Internals -----------------------------------------------------------------------------

    def _show_header(self, version: ArtifactVersion) -> None:
        produced_by = version.front.produced_by
        text = provenance_text(produced_by, self._workflow_names)
        self.header.show_version(version, text, "execution" in produced_by)

    def _render(self) -> None:
        dark = window_is_dark()
        if self._text is not None:
            page = render_artifact(self._text, self._node_href, dark)
        elif self._message is not None:
            page = message_html(*self._message, dark=dark)
        else:
            muted = self.palette().color(QPalette.ColorRole.PlaceholderText).name()
            page = f'<p align="center" style="color: {muted}"><br><br>{EMPTY_TEXT}</p>'
        self.browser.setHtml(page)

    def _on_anchor(self, url: QUrl) -> None:
        href = url.toString(QUrl.ComponentFormattingOption.FullyEncoded)
        node = target_of(href, NODE_SCHEME)
        if node is not None:
            self.nodeRequested.emit(node)
            return
        ref = target_of(href, VERSION_SCHEME)
        if ref is not None:
            self.versionRequested.emit(ref)
        elif href.startswith("#"):
            self.browser.scrollToAnchor(url.fragment())

    def _on_provenance(self) -> None:
        if self._version is not None:
            self.provenanceRequested.emit(dict(self._version.front.produced_by))

    def changeEvent(self, event: QEvent) -> None:
        """Render again in the new colours when the theme changes."""
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            self._render()

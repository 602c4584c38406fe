"""Feeds the artifact pane: the text of the version a person picked, read and checked on the
store thread, with the artifact's history; two versions' texts for a comparison; the workflow
names its provenance line shows."""

from typing import Any

from PySide6.QtCore import QObject

from studio.knowledge.artifact_html import node_link
from studio.knowledge.knowledge_history import KnowledgeHistory
from studio.knowledge.projection import KIND_PREFIX
from studio.model.knowledge import ArtifactVersion
from studio.ui.knowledge.artifact_pane import ArtifactPane
from studio.ui.store_calls import StoreCalls
from studio.workspace import Workspace


class ArtifactReads(QObject):
    """Reads what the artifact pane shows, off the UI thread."""

    def __init__(self, workspace: Workspace, pane: ArtifactPane, parent: QObject) -> None:
        super().__init__(parent)
        self.workspace, self.pane = workspace, pane
        self.store = StoreCalls(parent=self)
        self.history = KnowledgeHistory()
        self._asked = ""
        pane.versionRequested.connect(self.show_ref)
        pane.compareRequested.connect(self.compare)

    def set_history(self, history: KnowledgeHistory, one_subject: bool) -> None:
        """The history versions are looked up in; how links name nodes."""
        self.history = history
        kinds = history.current_kinds  # worked out with the history, off the UI thread

        def node_href(subject: str, key: str) -> str | None:
            if key.startswith(KIND_PREFIX):  # a [[kind]] citation: that kind's current artifact
                found = kinds.get((subject, key.removeprefix(KIND_PREFIX)))
                if found is None:
                    return None
                key = found
            return node_link(key if one_subject else f"{subject}/{key}")

        self.pane.set_node_href(node_href)

    def load_workflow_names(self) -> None:
        """Read the workflow names provenance lines show."""
        workflows = self.workspace.workflows

        def names() -> dict[str, str]:
            return {w.stored_id: w.name for w in workflows.find()}

        self.store.call(names, self.pane.set_workflow_names)

    def show_node(self, attributes: dict[str, Any], history: KnowledgeHistory) -> None:
        """Show the artifact a graph node comes from (an item's, a unit's, a run's artifact)."""
        self.history = history
        self.show_ref(attributes["ref"])

    def show_ref(self, ref: str) -> None:
        """Show one version, its text read and checked first."""
        version = self.history.version(ref)
        if version is None:
            self.pane.show_error(f"No version {ref} is stored")
            return
        self._asked = ref
        knowledge = self.workspace.knowledge
        self.store.call(
            lambda: knowledge.resolve(ref),
            lambda text: self._show(version, text, None),
            lambda error: self._show(version, None, str(error)),
        )

    def compare(self, old_ref: str, new_ref: str) -> None:
        """Open the side-by-side comparison of two versions."""
        knowledge = self.workspace.knowledge
        self.store.call(
            lambda: (knowledge.resolve(old_ref), knowledge.resolve(new_ref)),
            lambda texts: self.pane.show_comparison(old_ref, texts[0], new_ref, texts[1]),
            lambda error: self.pane.show_error(f"Cannot compare: {error}"),
        )

    def _show(self, version: ArtifactVersion, text: str | None, error: str | None) -> None:
        if version.ref != self._asked:
            return  # a later pick is on its way
        lineage = self.history.lineage_of(version.subject, version.artifact_id)
        self.pane.show_artifact(version, text, error, lineage)

"""The Agents dock kept in step with the agent library: the library is read when the dock
first shows (not at start-up) and after a fork; a chosen agent's versions are read on the
store thread; forking a built-in adds it to the agents the palette offers."""

from concurrent.futures import Future

from PySide6.QtCore import QObject

from studio.model.agent_library import AgentLibrary, AgentVersion, LibraryAgents
from studio.ui.catalog.agents_panel import AgentsPanel, LibraryEntry
from studio.ui.store_calls import StoreCalls
from studio.ui.window.answers import after_store, refused
from studio.ui.window.status_sink import StatusSink
from studio.workspace import Workspace


def library_entries(library: AgentLibrary) -> list[LibraryEntry]:
    """Every agent of the library as the panel lists it, by id."""
    return [LibraryEntry(entry, library.shadowed(entry.agent_id)) for entry in library.entries()]


class AgentLibraryView(QObject):
    """Reads the agent library for the Agents panel and forks built-ins into the user's."""

    def __init__(self, workspace: Workspace, status: StatusSink, panel: AgentsPanel) -> None:
        super().__init__(panel)
        self.workspace, self.status, self.panel = workspace, status, panel
        self.store = StoreCalls(parent=self)
        self.read_once = False
        panel.agentChosen.connect(self.show_versions)
        panel.forkRequested.connect(self.fork)

    def refresh(self) -> "Future[int | None]":
        """Read the library into the panel; the answer is how many agents it lists."""
        self.read_once = True
        library = self.workspace.agent_library

        def show(entries: list[LibraryEntry]) -> int:
            self.panel.show_entries(entries)
            return len(entries)

        return after_store(
            self.store,
            lambda: library_entries(library.library()),
            show,
            lambda failure: refused(self.status, "Cannot read the agent library", failure, None),
        )

    def refresh_once(self) -> None:
        """Read the library the first time the dock shows."""
        if not self.read_once:
            self.refresh()

    def show_versions(self, agent_id: str) -> "Future[None]":
        """Read one agent's versions into the panel."""
        library = self.workspace.agent_library
        return after_store(
            self.store,
            lambda: library.versions(agent_id),
            lambda versions: self.panel.show_versions(agent_id, versions),
            lambda failure: refused(self.status, "Cannot read the versions", failure, None),
        )

    def fork(self, agent_id: str) -> "Future[AgentVersion | None]":
        """Copy a built-in definition into the user's, as its version 1."""
        library = self.workspace.agent_library
        return after_store(
            self.store,
            lambda: library.fork(agent_id),
            self._forked,
            lambda failure: refused(self.status, "Cannot fork the agent", failure, None),
        )

    def _forked(self, entry: AgentVersion) -> AgentVersion:
        agents = self.workspace.agents
        if isinstance(agents, LibraryAgents):
            agents.add_version(entry)  # the palette and validation see it at once
        self.status.show(f"'{entry.agent_id}' is yours now (version 1); the built-in stays")
        self.refresh()
        return entry

"""The composition root for everything that is not UI: data folder, database, agents,
blueprints and the step runner."""

import os
from collections.abc import Callable, Sequence
from datetime import datetime
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

import platformdirs
from pydantic import ValidationError

from studio.bundled import blueprints_dir, builtin_agents_dir
from studio.engine.agent_kinds.artifact import ArtifactKind
from studio.engine.agent_kinds.registry import KindRegistry, default_kind_registry
from studio.engine.events import EventBus
from studio.engine.runner import RunnerSettings, StepRunner
from studio.model import (
    AgentRegistry,
    Blueprint,
    Problem,
    Workflow,
    WorkflowFileError,
    has_errors,
    load_blueprint_folder,
    load_workflow,
    read_definition,
)
from studio.model.agent_library import DEFAULT, LibraryAgents
from studio.model.errors import NotFoundError
from studio.model.governance import GovernanceSettings
from studio.model.layout import laid_out_if_needed
from studio.model.work_items import ContextSource, WorkItem
from studio.store import (
    AgentIntegrityError,
    AgentLibraryRepository,
    AppRepository,
    Database,
    DatabaseError,
    ExecutionRepository,
    WorkflowRepository,
    open_database,
)
from studio.store.human_tasks import HumanTaskRepository

if TYPE_CHECKING:
    from studio.fabric.queue import WorkQueue
    from studio.knowledge.knowledge_base import KnowledgeBase
    from studio.store.knowledge import KnowledgeRepository, Landing

# The knowledge store (its repository and its graph, networkx) and the work queue load when
# first asked for: a run, a validation or any other command that needs neither starts
# without them.

DATA_DIR_VARIABLE = "STUDIO_DATA_DIR"
DATABASE_VARIABLE = "STUDIO_DB"
APP_NAME = "Studio"
DATABASE_FILE = "studio.db"
LOCAL_ORG_ID = "local"
"""The organisation everything in a local workspace belongs to."""


class PublishRefusedError(Exception):
    """A workflow that does not pass publish validation; ``problems`` says why."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("; ".join(problem.describe() for problem in problems))
        self.problems = problems


def library_agents(
    library: AgentLibraryRepository, own_folder: Path, extra_folders: Sequence[Path]
) -> LibraryAgents:
    """The agents registry over the library: built-ins recorded in SYSTEM first, files of
    ``own_folder`` written or changed since their latest ``default`` version taken in."""
    builtins = AgentRegistry.from_folders([builtin_agents_dir()])
    library.record_system(builtins)
    own = AgentRegistry.from_folders([own_folder])
    known = library.library()
    for definition in own:
        latest, source = known.latest(DEFAULT, definition.id), own.source_of(definition.id)
        if latest is None or (source is not None and _newer(source, latest.created_at)):
            library.save(definition)
    registry = LibraryAgents.of_library(
        library.library(), extra_folders, home=own_folder, keeper=library.save
    )
    registry.problems[:0] = [*builtins.problems, *own.problems]
    return registry


def _newer(path: Path, moment: datetime | None) -> bool:
    """Whether a file was changed after ``moment``."""
    return moment is None or path.stat().st_mtime > moment.timestamp()


class WorkspaceWorld:
    """What the work queue asks of a workspace: sources resolved against its knowledge store
    and folder, and closed items filed to that store."""

    def __init__(self, knowledge: "KnowledgeRepository", folder: Path) -> None:
        from studio.fabric.sources import SourceResolver

        self.knowledge = knowledge
        self.sources: SourceResolver = SourceResolver(self._artifact_text, folder)

    def resolves(self, source: ContextSource) -> bool:
        return self.sources.resolves(source)

    def filing(self, item: WorkItem, head: str | None) -> "Landing":
        from studio.knowledge.filing import filing_landing

        runs = []
        for ref in item.artifacts:
            version = self.knowledge.version(ref)
            execution = None if version is None else version.front.produced_by.get("execution")
            if execution is not None and str(execution) not in runs:
                runs.append(str(execution))
        return filing_landing(item, runs, head)

    def _artifact_text(self, ref: str) -> str | None:
        try:
            return self.knowledge.body(ref)
        except NotFoundError:
            return None


def default_data_dir() -> Path:
    """Where Studio keeps the user's data: ``$STUDIO_DATA_DIR`` or the platform's data folder."""
    override = os.environ.get(DATA_DIR_VARIABLE)
    if override:
        return Path(override).expanduser()
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


class Workspace:
    """One user's Studio: where data lives, which agents exist, which blueprints ship."""

    def __init__(
        self,
        data_dir: Path | None = None,
        agent_dirs: Sequence[Path] = (),
        database: str | None = None,
    ) -> None:
        self.data_dir = data_dir if data_dir is not None else default_data_dir()
        self.extra_agent_dirs = [Path(folder) for folder in agent_dirs]
        chosen = database or os.environ.get(DATABASE_VARIABLE)
        self.database_chosen = chosen is not None
        """Whether a database was named (``--db`` or ``$STUDIO_DB``) rather than defaulted."""
        self.database_target = chosen or str(self.data_dir / DATABASE_FILE)
        self.org_id = LOCAL_ORG_ID
        self.bus = EventBus()
        self._landing_watchers: list[Callable[[str], object]] = []

    @property
    def agent_dirs(self) -> list[Path]:
        """Folders of agent definitions, lowest precedence first: built-in, user, ``--agents``."""
        return [builtin_agents_dir(), self.own_agents_dir, *self.extra_agent_dirs]

    @property
    def own_agents_dir(self) -> Path:
        """The workspace's own agent definitions: where agents made in the app are written."""
        return self.data_dir / "agents"

    @property
    def log_file(self) -> Path:
        """The structured JSON log of this workspace."""
        return self.data_dir / "logs" / "studio.log"

    @property
    def settings_file(self) -> Path:
        """Workspace settings (YAML): the governance policy for every workflow."""
        return self.data_dir / "settings.yaml"

    @cached_property
    def policy(self) -> GovernanceSettings:
        """The workspace's governance policy; a workflow's own policy is added to it per run."""
        if not self.settings_file.is_file():
            return GovernanceSettings()
        data = read_definition(self.settings_file) or {}
        if not isinstance(data, dict):
            raise WorkflowFileError(str(self.settings_file), "expected a mapping at the top")
        try:
            return GovernanceSettings.model_validate(data.get("governance") or {})
        except ValidationError as invalid:
            raise WorkflowFileError(
                str(self.settings_file), f"invalid governance settings: {invalid}"
            ) from invalid

    @cached_property
    def agent_library(self) -> AgentLibraryRepository:
        """The versioned agent library: SYSTEM (built-in), default (the user's) and folder
        (``--agents`` definitions that runs used)."""
        return AgentLibraryRepository(self.database)

    @cached_property
    def agents(self) -> AgentRegistry:
        """The current agents, loaded once: the library's (``default`` shadowing SYSTEM), then
        the ``--agents`` folders'. Opening it records changed built-ins as SYSTEM versions and
        takes files changed in ``own_agents_dir`` into ``default``; a definition made in the
        app is written there and saved as a new version. A database that cannot be read
        leaves the folders alone to say what exists (the command reports the database)."""
        try:
            return library_agents(self.agent_library, self.own_agents_dir, self.extra_agent_dirs)
        except AgentIntegrityError:
            raise  # damage to report, not a database to do without
        except DatabaseError:
            return AgentRegistry.from_folders(self.agent_dirs, home=self.own_agents_dir)

    @cached_property
    def kinds(self) -> KindRegistry:
        """The agent kinds this Studio can run: built-in, installed, and ``artifact``, which
        lands Markdown in this workspace's knowledge store."""
        registry = default_kind_registry()
        registry.provide(ArtifactKind(self._land_for_a_run))
        return registry

    @cached_property
    def knowledge(self) -> "KnowledgeBase":
        """The knowledge store: landed artifacts and the graph derived from them."""
        from studio.knowledge.knowledge_base import KnowledgeBase
        from studio.store.knowledge import KnowledgeRepository

        return KnowledgeBase(KnowledgeRepository(self.database))

    def _land_for_a_run(self, text: str, produced_by: dict) -> str:
        ref = self.knowledge.land(text, {"produced_by": produced_by}, source="the run's artifact")
        for watcher in list(self._landing_watchers):
            watcher(ref)
        return ref

    def watch_landings(self, watcher: Callable[[str], object]) -> Callable[[], None]:
        """Call ``watcher(ref)`` each time a run lands an artifact, on the thread that landed
        it; returns the function that stops the watching."""
        self._landing_watchers.append(watcher)
        return lambda: (
            self._landing_watchers.remove(watcher) if watcher in self._landing_watchers else None
        )

    @cached_property
    def _blueprint_catalog(self) -> tuple[list[Blueprint], list[str]]:
        return load_blueprint_folder(blueprints_dir())

    @property
    def blueprints(self) -> list[Blueprint]:
        """The seed blueprints, sorted by name."""
        return self._blueprint_catalog[0]

    @property
    def blueprint_failures(self) -> list[str]:
        """Messages for blueprint files that could not be loaded."""
        return self._blueprint_catalog[1]

    @cached_property
    def database(self) -> Database:
        """The database, opened (and migrated) on first use."""
        return open_database(self.database_target)

    @cached_property
    def workflows(self) -> WorkflowRepository:
        """Stored workflows."""
        return WorkflowRepository(self.database)

    @cached_property
    def apps(self) -> AppRepository:
        """The apps of this workspace's organisation."""
        return AppRepository(self.database, self.org_id)

    @cached_property
    def executions(self) -> ExecutionRepository:
        """Stored executions."""
        return ExecutionRepository(self.database)

    def runner(self, settings: RunnerSettings | None = None) -> StepRunner:
        """A step runner over this workspace's store, agents and event bus."""
        return StepRunner(
            self.workflows,
            self.executions,
            self.agents,
            self.kinds,
            self.bus,
            settings,
            policy=self.policy,
        )

    @cached_property
    def work_queue(self) -> "WorkQueue":
        """The Fabric work queue in this workspace's database; closed items file to its
        knowledge store."""
        return self.open_work_queue(self.database)

    def open_work_queue(self, database: Database, **settings: Any) -> "WorkQueue":
        """A work queue over ``database`` (this workspace's, or another server's), filing to
        the knowledge store in the same database; ``settings`` as WorkQueue takes them."""
        from studio.fabric.queue import WorkQueue
        from studio.store.knowledge import KnowledgeRepository
        from studio.store.work_queue import WorkQueueRepository

        repository = KnowledgeRepository(database)
        world = WorkspaceWorld(repository, self.data_dir)
        return WorkQueue(WorkQueueRepository(database), world, **settings)

    @cached_property
    def human_tasks(self) -> HumanTaskRepository:
        """Approval requests and decisions."""
        return HumanTaskRepository(self.database)

    def latest_blueprint(self, blueprint_id: str) -> Workflow | None:
        """A blueprint as it is now: a stored one's latest version, or a seed file's (by its
        slug); None when there is no such blueprint any more."""
        seed = next((b.workflow for b in self.blueprints if b.workflow.id == blueprint_id), None)
        if seed is not None:
            return seed
        try:
            stored = self.workflows.get(blueprint_id)
        except NotFoundError:
            return None
        return stored if stored.is_blueprint else None

    def blueprint_versions(self, blueprint_id: str, version: int) -> tuple[Workflow, Workflow]:
        """A blueprint at ``version`` (the one a workflow was copied from) and as it is now;
        NotFoundError when it is gone."""
        latest = self.latest_blueprint(blueprint_id)
        if latest is None:
            raise NotFoundError(f"The blueprint {blueprint_id} is no longer in the catalog")
        if latest.version == version:
            return latest, latest
        return self.workflows.get_version(blueprint_id, version), latest

    def import_and_publish(self, path: Path) -> Workflow:
        """Load a workflow file and store it published, reusing an identical stored copy.

        Nothing is stored when the file is malformed or fails publish validation.
        """
        workflow = load_workflow(path).model_copy(update={"is_blueprint": False})
        workflow = laid_out_if_needed(workflow)  # a file without positions is laid out
        published, problems = self.workflows.publish_once(workflow, self.agents)
        if has_errors(problems):
            raise PublishRefusedError(problems)
        return published

    def close(self) -> None:
        """Release the database, if it was opened."""
        if "database" in self.__dict__:
            self.database.close()

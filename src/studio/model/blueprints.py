"""The blueprint catalog on disk: one workflow file per blueprint."""

from dataclasses import dataclass
from pathlib import Path

from studio.model.identifiers import is_identifier
from studio.model.structure import DefinitionError
from studio.model.workflow import Workflow
from studio.model.workflow_files import WorkflowFileError, load_workflow

BLUEPRINT_FILE_PATTERNS = ("*.yaml", "*.yml", "*.json")
MAX_SLUG_ID_CHARS = 64
"""A slug longer than this cannot name the blueprint a stored workflow was imported from."""


@dataclass(frozen=True)
class Blueprint:
    """A blueprint loaded from a file; ``slug`` is its file name without the extension.

    A seed file is a published blueprint at version 1 whose id is its slug (when the slug is
    a valid id), so it imports like one saved to the catalog."""

    slug: str
    path: Path
    workflow: Workflow

    def summary(self) -> dict:
        """The catalog card: what a person needs to choose a blueprint."""
        agents = sorted({node.agent_id for node in self.workflow.nodes})
        return {
            "slug": self.slug,
            "name": self.workflow.name,
            "category": self.workflow.category,
            "description": self.workflow.description,
            "nodes": len(self.workflow.nodes),
            "agents": agents,
            "file": str(self.path),
        }


def load_blueprint_folder(folder: Path) -> tuple[list[Blueprint], list[str]]:
    """Every blueprint in a folder, by name, plus a message for each file that failed to load."""
    blueprints: list[Blueprint] = []
    failures: list[str] = []
    files = sorted(path for pattern in BLUEPRINT_FILE_PATTERNS for path in folder.glob(pattern))
    for path in files:
        try:
            workflow = load_workflow(path)
        except (WorkflowFileError, DefinitionError) as failure:
            failures.append(
                f"{path}: {failure}" if isinstance(failure, DefinitionError) else str(failure)
            )
            continue
        workflow = workflow.model_copy(update=_seed_fields(path.stem))
        blueprints.append(Blueprint(path.stem, path, workflow))
    blueprints.sort(key=lambda blueprint: blueprint.workflow.name.lower())
    return blueprints, failures


def _seed_fields(slug: str) -> dict[str, object]:
    """What makes a seed file's workflow a published blueprint named by its slug."""
    fields: dict[str, object] = {"is_blueprint": True, "status": "PUBLISHED", "version": 1}
    if is_identifier(slug) and len(slug) <= MAX_SLUG_ID_CHARS:
        fields["id"] = slug
    return fields

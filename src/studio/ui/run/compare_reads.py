"""What comparing two runs reads from the store, done on the store thread: both executions,
the workflow versions they ran (for the node order and names) and the workflow's name; or why
the two cannot be compared."""

from dataclasses import dataclass, field

from studio.model import Workflow
from studio.model.errors import StudioError
from studio.model.run_compare import RunComparison, compare_runs
from studio.workspace import Workspace


@dataclass(frozen=True)
class ComparedRuns:
    """Two runs compared, or the reason they cannot be."""

    comparison: RunComparison | None = None
    refusal: str = ""
    labels: dict[str, str] = field(default_factory=dict)
    """Node names by id, the right run's version winning."""
    workflow_name: str = ""


def read_compared_runs(workspace: Workspace, left_id: str, right_id: str) -> ComparedRuns:
    """Read and compare two runs (on the store thread)."""
    try:
        left = workspace.executions.get(left_id)
        right = workspace.executions.get(right_id)
    except StudioError as failure:
        return ComparedRuns(refusal=str(failure))
    if left.workflow_id != right.workflow_id:
        return ComparedRuns(
            refusal="These runs are of different workflows: "
            f"{_workflow_name(workspace, left.workflow_id)} and "
            f"{_workflow_name(workspace, right.workflow_id)}. Pick two runs of one workflow."
        )
    versions = [_version(workspace, left.workflow_id, r.workflow_version) for r in (left, right)]
    order = [node.id for version in versions if version for node in version.nodes]
    labels = {
        node.id: node.label
        for version in reversed(versions)  # the right run's names win
        if version
        for node in version.nodes
    }
    return ComparedRuns(
        comparison=compare_runs(left, right, list(dict.fromkeys(order))),
        labels=labels,
        workflow_name=_workflow_name(workspace, left.workflow_id),
    )


def _workflow_name(workspace: Workspace, workflow_id: str) -> str:
    try:
        return f"'{workspace.workflows.get(workflow_id).name}'"
    except StudioError:
        return workflow_id


def _version(workspace: Workspace, workflow_id: str, version: int) -> Workflow | None:
    try:
        return workspace.workflows.get_version(workflow_id, version)
    except StudioError:
        return None

"""The rows of an execution's Steps, Decisions and Compensations lists, and the compensation
entries they show (the unwind summary brought up to date by the ``#comp`` rows)."""

from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QTreeWidgetItem

from studio.model import Workflow
from studio.model.execution import COMPENSATION_SUFFIX, ExecutionRecord, NodeResult
from studio.model.run_words import UPSTREAM_FAILED
from studio.store.human_tasks import HumanTask
from studio.ui.run.status_look import (
    NOT_STARTED,
    StatusLook,
    decision_look,
    node_look,
    status_look,
)
from studio.ui.run.time_text import NO_VALUE, duration_text, local_time_text

KEY_ROLE = Qt.ItemDataRole.UserRole
"""Item data: ("step", node id) or ("compensation", node id)."""
STEP_COLUMNS = ("Step", "Status", "Duration", "Attempts")
DECISION_COLUMNS = ("Step", "Decision", "By", "When", "Comment")
COMPENSATION_COLUMNS = ("Step", "Tool", "Status")
STATUS_COLUMN = {"step": 1, "compensation": 2}


@dataclass(frozen=True)
class CompensationEntry:
    """One planned compensation: whose, which tool, how it went, and why it failed."""

    node_id: str
    tool: str
    status: str
    error: dict[str, Any] | None = None
    failure_class: str | None = None
    recommended_action: str | None = None
    result: NodeResult | None = None
    """The ``#comp`` row: the arguments sent and what came back."""


def compensation_entries(record: ExecutionRecord) -> list[CompensationEntry]:
    """The run's compensations in unwind order; a ``#comp`` row is newer than the summary."""
    planned = (record.compensation_summary or {}).get("entries") or []
    entries = [_entry(record, data) for data in planned if isinstance(data, dict)]
    listed = {entry.node_id for entry in entries}
    for result_id in record.node_results:
        node_id = result_id.removesuffix(COMPENSATION_SUFFIX)
        if result_id.endswith(COMPENSATION_SUFFIX) and node_id not in listed:
            entries.append(_entry(record, {"nodeId": node_id}))
    return entries


def _entry(record: ExecutionRecord, data: dict[str, Any]) -> CompensationEntry:
    node_id = str(data.get("nodeId", ""))
    result = record.node_results.get(node_id + COMPENSATION_SUFFIX)
    error = data.get("error") or (result.error if result else None)
    return CompensationEntry(
        node_id=node_id,
        tool=str(data.get("tool", "")),
        status=result.status if result else str(data.get("status", NOT_STARTED)),
        error=error,
        failure_class=data.get("failureClass") or (error or {}).get("failureClass"),
        recommended_action=data.get("recommendedAction") or (error or {}).get("recommendedAction"),
        result=result,
    )


def real_node_ids(record: ExecutionRecord, workflow: Workflow | None) -> list[str]:
    """The run's real nodes (no ``#comp`` rows), in the workflow's order."""
    ordered = [node.id for node in workflow.nodes] if workflow else []
    stored = [n for n in record.node_results if not n.endswith(COMPENSATION_SUFFIX)]
    return [n for n in ordered if n in record.node_results] + [
        n for n in stored if n not in ordered
    ]


def node_label(workflow: Workflow | None, node_id: str) -> str:
    """The name a person gave the node, or its id."""
    node = workflow.node(node_id) if workflow else None
    return node.label if node else node_id


def error_lines(
    error: dict[str, Any] | None,
    failure_class: str | None = None,
    recommended_action: str | None = None,
) -> list[str]:
    """An error record as lines: "Error: type — message", failure class, recommended action."""
    error = error or {}
    failure_class = failure_class or error.get("failureClass")
    recommended_action = recommended_action or error.get("recommendedAction")
    kind, message = error.get("type"), error.get("message")
    lines = []
    if kind or message:
        lines.append(f"Error: {' — '.join(str(part) for part in (kind, message) if part)}")
    if failure_class:
        lines.append(f"Failure class: {failure_class}")
    if recommended_action:
        lines.append(f"Recommended action: {recommended_action}")
    return lines


def attempts_text(result: NodeResult) -> str:
    """Tries made so far (retries plus one) once the node started, else a dash."""
    return str(result.retry_count + 1) if result.started_at is not None else NO_VALUE


def step_item(label: str, result: NodeResult, dark: bool) -> QTreeWidgetItem:
    """A Steps row; a failed step unfolds into its error's lines."""
    look = node_look(result.status, result.error)
    duration = duration_text(result.started_at, result.completed_at)
    item = QTreeWidgetItem([label, look.text, duration, attempts_text(result)])
    item.setData(0, KEY_ROLE, ("step", result.node_id))
    item.setToolTip(0, result.node_id)
    _paint_status(item, STATUS_COLUMN["step"], look, dark)
    if look.status == UPSTREAM_FAILED:
        item.setToolTip(STATUS_COLUMN["step"], str((result.error or {}).get("message", "")))
    elif result.status == "failed":
        _add_error_children(item, error_lines(result.error))
    return item


def compensation_item(label: str, entry: CompensationEntry, dark: bool) -> QTreeWidgetItem:
    """A Compensations row with the status's icon and words; a failed one unfolds
    into its raw error, failure class and recommended action."""
    look = status_look(entry.status)
    item = QTreeWidgetItem([label, entry.tool, look.text])
    item.setData(0, KEY_ROLE, ("compensation", entry.node_id))
    column = STATUS_COLUMN["compensation"]
    _paint_status(item, column, look, dark)
    if entry.status == "compensation_failed":
        lines = error_lines(entry.error, entry.failure_class, entry.recommended_action)
        _add_error_children(item, lines)
    return item


def decision_item(label: str, task: HumanTask, dark: bool) -> QTreeWidgetItem:
    """A Decisions row: the step, approved or rejected, by whom, when and why."""
    look = decision_look(task.status)
    when = local_time_text(task.decided_at) if task.is_decided else NO_VALUE
    item = QTreeWidgetItem(
        [label, look.text, task.decided_by or NO_VALUE, when, task.comment or ""]
    )
    item.setData(0, KEY_ROLE, ("step", task.node_id))
    item.setToolTip(4, task.comment or "")
    _paint_status(item, 1, look, dark)
    return item


def span_children(item: QTreeWidgetItem) -> None:
    """Let an error line use the whole row (only possible once the item is in a tree)."""
    for index in range(item.childCount()):
        child = item.child(index)
        if child is not None:
            child.setFirstColumnSpanned(True)


def _paint_status(item: QTreeWidgetItem, column: int, look: StatusLook, dark: bool) -> None:
    """A status cell: the look's icon, and its words in its colour."""
    item.setIcon(column, look.qicon(dark))
    item.setForeground(column, look.colour(dark))
    item.setData(column, Qt.ItemDataRole.AccessibleTextRole, look.label)


def _add_error_children(item: QTreeWidgetItem, lines: list[str]) -> None:
    for line in lines:
        child = QTreeWidgetItem([line])
        child.setData(0, KEY_ROLE, item.data(0, KEY_ROLE))
        child.setToolTip(0, line)
        item.addChild(child)

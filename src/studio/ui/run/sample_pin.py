"""Pinning a step's output as its node's sample data: one undoable edit of the open workflow,
saved with it like any other change."""

from typing import Any

from studio.ui.canvas.commands import ReplaceNode
from studio.ui.workflow_tab import WorkflowTab


def pin_sample(tab: WorkflowTab | None, node_id: str, output: Any) -> str:
    """Keep ``output`` as the sample data of node ``node_id`` in the workflow open in ``tab``;
    the answer says what happened, for the status bar."""
    document = tab.editor.document if tab is not None else None
    node = document.node(node_id) if document is not None else None
    if tab is None or document is None or node is None:
        return f"Open the workflow with node '{node_id}' to pin its output."
    if node.sample_data == output:
        return f"The output of {node.label} is already its sample data."
    pinned = node.model_copy(update={"sample_data": output})
    text = f"Pin sample data of {node.label}"
    tab.editor.undo_stack.push(ReplaceNode(document, node, pinned, text))
    return f"Pinned the output of {node.label} as its sample data."

"""Copy and paste in the export format, so a selection can go to another workflow or to a
text editor and back."""

from studio.model import Edge, Node, Position, Workflow, export_text, import_text
from studio.model.document import WorkflowDocument
from studio.model.identifiers import free_id
from studio.model.structure import DefinitionError
from studio.model.workflow_files import WorkflowFileError

PASTE_OFFSET = 40.0


def selection_text(document: WorkflowDocument, node_ids: list[str]) -> str:
    """The selected nodes and the edges between them, as an exported YAML workflow."""
    chosen = set(node_ids)
    nodes = [node for node in document.nodes if node.id in chosen]
    edges = [edge for edge in document.edges if edge.source in chosen and edge.target in chosen]
    return export_text(Workflow(name="Copied nodes", nodes=nodes, edges=edges), "yaml")


def pasted_elements(document: WorkflowDocument, text: str) -> tuple[list[Node], list[Edge]]:
    """Nodes and edges from clipboard text, with fresh ids where the document's are taken
    and positions shifted so the copy does not hide the original.

    Raises ValueError when the text is not a workflow."""
    workflow = _parse(text)
    renamed: dict[str, str] = {}
    taken = {node.id for node in document.nodes}
    nodes = []
    for node in workflow.nodes:
        new_id = free_id(node.id, taken)
        taken.add(new_id)
        renamed[node.id] = new_id
        position = Position(x=node.position.x + PASTE_OFFSET, y=node.position.y + PASTE_OFFSET)
        nodes.append(node.model_copy(update={"id": new_id, "position": position}))
    edges = []
    taken_edges = {edge.id for edge in document.edges}
    for edge in workflow.edges:
        source, target = renamed[edge.source], renamed[edge.target]
        edge_id = free_id(f"{source}->{target}", taken_edges, limit=None)
        taken_edges.add(edge_id)
        edges.append(edge.model_copy(update={"id": edge_id, "source": source, "target": target}))
    return nodes, edges


def _parse(text: str) -> Workflow:
    for fmt in ("yaml", "json"):
        try:
            return import_text(text, fmt, "clipboard")
        except (WorkflowFileError, DefinitionError):
            continue
    raise ValueError("the clipboard does not hold workflow nodes")

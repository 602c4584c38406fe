"""Where a node a blueprint update adds goes on a canvas the designer has arranged."""

from collections.abc import Iterable

from studio.model.geometry import Position
from studio.model.workflow import Node, Workflow

NODE_FOOTPRINT = (200.0, 64.0)
"""A node's width and height on the canvas: an added node is placed clear of the others."""
PLACEMENT_STEP = 96.0
"""How far down an added node moves at a time until it overlaps no other node."""


def placed_nodes(added: list[Node], theirs: Workflow, present: list[Node]) -> list[Node]:
    """The blueprint's new nodes, each moved by how far its neighbours moved locally from where
    the blueprint has them (or left where the blueprint put it), then clear of other nodes."""
    their_positions = {node.id: node.position for node in theirs.nodes}
    placed = {node.id: node.position for node in present}
    result = []
    for node in added:
        shift = _neighbour_shift(node.id, theirs, their_positions, placed)
        spot = Position(x=node.position.x + shift[0], y=node.position.y + shift[1])
        spot = _clear_spot(spot, placed.values())
        placed[node.id] = spot
        result.append(node.model_copy(update={"position": spot}))
    return result


def _neighbour_shift(
    node_id: str,
    theirs: Workflow,
    their_positions: dict[str, Position],
    placed: dict[str, Position],
) -> tuple[float, float]:
    neighbours = {edge.target for edge in theirs.edges if edge.source == node_id}
    neighbours |= {edge.source for edge in theirs.edges if edge.target == node_id}
    moves = [
        (placed[other].x - their_positions[other].x, placed[other].y - their_positions[other].y)
        for other in sorted(neighbours)
        if other in placed and other in their_positions
    ]
    if not moves:
        return 0.0, 0.0
    return sum(move[0] for move in moves) / len(moves), sum(move[1] for move in moves) / len(moves)


def _clear_spot(spot: Position, taken: Iterable[Position]) -> Position:
    width, height = NODE_FOOTPRINT
    others = list(taken)
    while any(abs(other.x - spot.x) < width and abs(other.y - spot.y) < height for other in others):
        spot = Position(x=spot.x, y=spot.y + PLACEMENT_STEP)
    return spot

"""Pure graph rules over node ids and (source, target) pairs: order, cycles, isolation."""

from collections import defaultdict, deque
from collections.abc import Iterable, Sequence

Link = tuple[str, str]


def successors_of(node_ids: Sequence[str], links: Iterable[Link]) -> dict[str, list[str]]:
    """Map every node id to the ids its outgoing links point at, in link order."""
    successors: dict[str, list[str]] = {node_id: [] for node_id in node_ids}
    for source, target in links:
        successors.setdefault(source, []).append(target)
    return successors


def topological_order(
    node_ids: Sequence[str], links: Iterable[Link]
) -> tuple[list[str], list[str]]:
    """Kahn's algorithm. Returns (ordered ids, ids left over because they sit on or behind a cycle).

    Ties are broken by the order of ``node_ids`` so the result is deterministic.
    """
    successors = successors_of(node_ids, links)
    in_degree: dict[str, int] = defaultdict(int)
    for targets in successors.values():
        for target in targets:
            in_degree[target] += 1
    ready = deque(node_id for node_id in node_ids if in_degree[node_id] == 0)
    order: list[str] = []
    while ready:
        node_id = ready.popleft()
        order.append(node_id)
        for target in successors.get(node_id, []):
            in_degree[target] -= 1
            if in_degree[target] == 0:
                ready.append(target)
    placed = set(order)
    return order, [node_id for node_id in node_ids if node_id not in placed]


def find_cycle(node_ids: Sequence[str], links: Iterable[Link]) -> list[str]:
    """One cycle as a list of ids where the last links back to the first; empty if acyclic."""
    successors = successors_of(node_ids, links)
    state: dict[str, int] = {}  # 1 = on the current path, 2 = finished
    for start in node_ids:
        if start in state:
            continue
        path, stack = [start], [iter(successors.get(start, []))]
        state[start] = 1
        while stack:
            target = next(stack[-1], None)
            if target is None:
                state[path.pop()] = 2
                stack.pop()
            elif state.get(target) == 1:
                return path[path.index(target) :]
            elif target not in state:
                state[target] = 1
                path.append(target)
                stack.append(iter(successors.get(target, [])))
    return []


def would_close_cycle(links: Iterable[Link], source: str, target: str) -> bool:
    """Whether adding the link source → target would make the graph cyclic."""
    if source == target:
        return True
    successors = successors_of([], links)
    seen, frontier = {target}, [target]
    while frontier:
        for following in successors.get(frontier.pop(), []):
            if following == source:
                return True
            if following not in seen:
                seen.add(following)
                frontier.append(following)
    return False


def isolated_nodes(node_ids: Sequence[str], links: Iterable[Link]) -> list[str]:
    """Ids of nodes that no link touches, when the graph has more than one node."""
    if len(node_ids) < 2:
        return []
    touched = {end for link in links for end in link}
    return [node_id for node_id in node_ids if node_id not in touched]

"""Ordering and spacing of nodes in columns: the two steps every column layout of the graph shares.

Columns are lists of node ids, left to right. Ordering moves each node towards the mean place
of its neighbours in the columns already ordered (barycenter sweeps, Sugiyama's heuristic),
left to right and then right to left, and keeps the ordering with the fewest crossings seen,
so the result never has more crossings than the order it started from. A place is a fraction
of its column's length, so a column of three runs is compared fairly with one of 3,000
artifacts. Ties go by node id, which makes the result depend on the graph only.

Spacing gives each node of an ordered column a height: one column (the anchor) is stacked
tightly, and the others, outwards from it, are pulled towards the mean height of their placed
neighbours while keeping their order and a fixed pitch between boxes.
"""

import math
from bisect import bisect_left, bisect_right, insort
from collections.abc import Sequence
from itertools import chain

import networkx as nx

SWEEP_ROUNDS = 2
"""Rounds of a left-to-right and a right-to-left pass; more rarely pay for their time."""

REACH = 32
"""How many boxes a search for a free height passes before it settles for a column's end."""

Adjacency = dict[str, tuple[str, ...]]
"""Each node's neighbours, whichever way the edges point, without repeats or the node itself."""
Links = list[list[tuple[str, str]]]
"""Edges between columns, one list per pair of columns, each edge from its left end."""


def adjacency(graph: nx.MultiDiGraph) -> Adjacency:
    """The neighbours of every node of a directed graph, whichever way the edges point."""
    # Sorted, so the layout does not depend on the order the graph was built in; tuples of
    # strings hold nothing the garbage collector must follow, unlike lists.
    return {
        node: tuple(sorted(set(chain(graph.successors(node), graph.predecessors(node))) - {node}))
        for node in graph.nodes
    }


def order_columns(columns: Sequence[Sequence[str]], around: Adjacency) -> list[list[str]]:
    """The columns reordered by barycenter sweeps; never more crossings than the given order."""
    layers = [list(column) for column in columns]
    column_of = {node: number for number, layer in enumerate(layers) for node in layer}
    links = _links(layers, around, column_of)
    before, after = _sides(layers, around, column_of)
    place = _fractions(layers)
    best, fewest = [list(layer) for layer in layers], _crossings(links, layers)
    rightwards, leftwards = range(1, len(layers)), range(len(layers) - 2, -1, -1)
    for _ in range(SWEEP_ROUNDS):
        for sweep, side in ((rightwards, before), (leftwards, after)):
            if fewest == 0:
                return best
            for number in sweep:
                _sort_by_barycenter(layers[number], side, place)
            crossings = _crossings(links, layers)
            if crossings < fewest:
                best, fewest = [list(layer) for layer in layers], crossings
    return best


def count_crossings(columns: Sequence[Sequence[str]], around: Adjacency) -> int:
    """Crossings among edges that join two different columns, counted per pair of columns.

    Two edges between the same pair of columns cross when their ends come in opposite orders;
    edges within one column, and pairs of edges joining different pairs of columns, are not
    counted.
    """
    column_of = {node: number for number, column in enumerate(columns) for node in column}
    return _crossings(_links(columns, around, column_of), columns)


def spread(desired: Sequence[float | None], pitch: float) -> list[float]:
    """Heights for an ordered column: each near its wish, in order, at least ``pitch`` apart.

    A node without a wish (None) follows its neighbours in the column. The heights are the mean
    of pushing every clash downwards and pushing it upwards, so a group that wants one height
    is centred on it; both pushes keep the pitch, so their mean does too.
    """
    wishes = _filled(desired, pitch)
    down = list(wishes)
    for index in range(1, len(down)):
        down[index] = max(down[index], down[index - 1] + pitch)
    up = list(wishes)
    for index in range(len(up) - 2, -1, -1):
        up[index] = min(up[index], up[index + 1] - pitch)
    return [(low + high) / 2 for low, high in zip(down, up, strict=True)]


def column_heights(
    columns: Sequence[Sequence[str]], around: Adjacency, anchor: int, pitch: float
) -> dict[str, float]:
    """Heights for ordered columns: the anchor column stacked from 0, the others pulled outwards.

    Columns right of the anchor are placed left to right, those left of it right to left; each
    node wishes for the mean height of its neighbours placed so far.
    """
    heights = {node: index * pitch for index, node in enumerate(columns[anchor])}
    outwards = [*range(anchor + 1, len(columns)), *range(anchor - 1, -1, -1)]
    for number in outwards:
        column = columns[number]
        wishes = [_mean_height(around[node], heights) for node in column]
        heights.update(zip(column, spread(wishes, pitch), strict=True))
    return heights


def _links(columns: Sequence[Sequence[str]], around: Adjacency, column_of: dict[str, int]) -> Links:
    pairs: dict[tuple[int, int], list[tuple[str, str]]] = {}
    for number, column in enumerate(columns):
        for node in column:
            for other in around.get(node, ()):
                there = column_of.get(other, -1)
                if there > number:
                    pairs.setdefault((number, there), []).append((node, other))
    return [pairs[key] for key in sorted(pairs)]


def _crossings(links: Links, columns: Sequence[Sequence[str]]) -> int:
    row = {node: index for column in columns for index, node in enumerate(column)}
    total = 0
    for edges in links:
        ends = sorted((row[node], row[other]) for node, other in edges)
        total += _inversions([end for _, end in ends])
    return total


def _fractions(layers: list[list[str]]) -> dict[str, float]:
    """Where each node sits in its column, as a fraction of the column's length."""
    return {
        node: (index + 0.5) / len(layer) for layer in layers for index, node in enumerate(layer)
    }


def _sides(
    layers: list[list[str]], around: Adjacency, column_of: dict[str, int]
) -> tuple[Adjacency, Adjacency]:
    """Each node's neighbours in the columns left of it, and in those right of it."""
    before: Adjacency = {}
    after: Adjacency = {}
    for number, layer in enumerate(layers):
        for node in layer:
            there = [(other, column_of.get(other, number)) for other in around[node]]
            before[node] = tuple(other for other, column in there if column < number)
            after[node] = tuple(other for other, column in there if column > number)
    return before, after


def _sort_by_barycenter(layer: list[str], side: Adjacency, place: dict[str, float]) -> None:
    """Order a column by the mean place of its nodes' neighbours on one side, in place.

    A node without neighbours on that side keeps its own place; ties go by id.
    """
    keys: dict[str, tuple[float, str]] = {}
    for node in layer:
        others = side[node]
        mean = sum(map(place.__getitem__, others)) / len(others) if others else place[node]
        keys[node] = (mean, node)
    layer.sort(key=keys.__getitem__)
    size = len(layer)
    place.update((node, (index + 0.5) / size) for index, node in enumerate(layer))


def _mean_height(neighbours: Sequence[str], heights: dict[str, float]) -> float | None:
    placed = [heights[n] for n in neighbours if n in heights]
    return sum(placed) / len(placed) if placed else None


def _filled(desired: Sequence[float | None], pitch: float) -> list[float]:
    """Wishes with the gaps filled: a pitch after the wish before, or before the first wish."""
    known = [(index, wish) for index, wish in enumerate(desired) if wish is not None]
    if not known:
        return [index * pitch for index in range(len(desired))]
    first, start = known[0]
    filled: list[float] = []
    for index, wish in enumerate(desired):
        if wish is not None:
            filled.append(wish)
        elif index < first:
            filled.append(start - (first - index) * pitch)
        else:
            filled.append(filled[-1] + pitch)
    return filled


def _inversions(values: list[int]) -> int:
    """Pairs i < j with values[i] > values[j]."""
    seen: list[int] = []
    count = 0
    for value in values:
        count += len(seen) - bisect_right(seen, value)
        insort(seen, value)
    return count


def free_height(taken: Sequence[float], wish: float, pitch: float, reach: int = REACH) -> float:
    """The height nearest ``wish`` at least ``pitch`` from every sorted height in ``taken``.

    Of two equally near heights the smaller wins. The search looks at most ``reach`` boxes
    either way from the wish; past them, the free height is just beyond the column's first or
    last box, so a packed column costs no more than that.
    """
    start = bisect_left(taken, wish)
    lower = _first_free_gap(taken, start, pitch, reach, step=1)
    upper = _first_free_gap(taken, start, pitch, reach, step=-1)
    candidates = [max(low, min(wish, high)) for low, high in (lower, upper)]
    return min(candidates, key=lambda height: (abs(height - wish), height))


def _first_free_gap(
    taken: Sequence[float], gap: int, pitch: float, reach: int, *, step: int
) -> tuple[float, float]:
    """The free range of the first gap, from ``gap`` on in ``step`` direction, that has room.

    Gap ``g`` lies between ``taken[g - 1]`` and ``taken[g]``; the first and the last are open,
    and the walk jumps to the open one after ``reach`` full gaps.
    """
    for _ in range(reach):
        low = taken[gap - 1] + pitch if gap > 0 else -math.inf
        high = taken[gap] - pitch if gap < len(taken) else math.inf
        if low <= high:
            return low, high
        gap += step
    if step > 0:
        return (taken[-1] + pitch if taken else -math.inf), math.inf
    return -math.inf, (taken[0] - pitch if taken else math.inf)

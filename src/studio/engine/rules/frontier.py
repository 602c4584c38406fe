"""The runner's incremental readiness: which pending nodes to decide after each change.

``find_ready_nodes`` and ``find_root_nodes`` in :mod:`studio.engine.rules.dag` say the same
thing by looking at every node; the frontier only looks at the successors of what just finished,
so a step costs O(successors). A property test holds the two to the same answer."""

from collections import deque
from collections.abc import Callable, Mapping
from typing import Any

from studio.engine.rules.dag import DagPlan, Decision, decide
from studio.model.execution import COMPLETED, NODE_TERMINAL, PENDING

Close = Callable[[str, Decision], None]
"""Records a node that cannot run ("skip" or "fail"); it must update the statuses it was given."""


class Frontier:
    """The nodes waiting to be decided and those decided to run, in topological order."""

    def __init__(self, plan: DagPlan, statuses: Mapping[str, str]) -> None:
        self.plan = plan
        self.order = {node_id: index for index, node_id in enumerate(plan.topological_order)}
        self.unfinished_predecessors = {
            nid: sum(statuses[p] not in NODE_TERMINAL for p in plan.predecessors[nid])
            for nid in plan.node_ids
        }
        self.candidates = {
            nid
            for nid, count in self.unfinished_predecessors.items()
            if count == 0 and statuses[nid] != COMPLETED
        }
        self.ready: dict[str, None] = {}  # an ordered set, in topological order

    def reopen(self, node_id: str) -> None:
        """Look at ``node_id`` again at the next settle (a person decided it)."""
        self.candidates.add(node_id)

    def finished(self, node_id: str) -> None:
        """``node_id`` reached a terminal status: successors with nothing left become candidates."""
        self.candidates.update(self._count_off(node_id))

    def take(self) -> str:
        """The first node decided to run, removed from the ready set."""
        node_id = next(iter(self.ready))
        del self.ready[node_id]
        return node_id

    def settle(self, statuses: Mapping[str, str], outputs: Mapping[str, Any], close: Close) -> None:
        """Decide the candidates: queue the runnable, close (skip or fail) those that cannot run,
        and follow closed nodes to their successors."""
        queue = deque(sorted(self.candidates, key=self.order.__getitem__))
        self.candidates.clear()
        while queue:
            node_id = queue.popleft()
            if statuses[node_id] != PENDING or node_id in self.ready:
                continue
            verdict = decide(self.plan, node_id, statuses, outputs)
            if verdict == "run":
                self.ready[node_id] = None
            elif verdict in ("skip", "fail"):
                close(node_id, verdict)
                queue.extend(self._count_off(node_id))

    def _count_off(self, node_id: str) -> list[str]:
        decidable = []
        for successor in self.plan.successors[node_id]:
            self.unfinished_predecessors[successor] -= 1
            if self.unfinished_predecessors[successor] == 0:
                decidable.append(successor)
        return decidable

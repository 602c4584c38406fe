"""A seeded random DAG of side-effecting shell nodes, each appending its id to a ledger file.

Every node runs ``sh -c``: a short sleep, then one ``printf`` of ``<node id>\\n`` to the
ledger opened with O_APPEND (one write, so concurrent nodes never interleave a line), then
``{}`` on stdout as its output. ``constraints: {sideEffecting: true}`` tells the engine that
running a node twice would repeat its change, so a call cut short by a kill is reported as
interrupted on resume, never made again. The ledger is what the outside world saw.
"""

import json
import random
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import yaml

AGENT_ID = "ledger-append"
SCRIPT = 'sleep "$PAUSE"; printf \'%s\\n\' "$NODE" >> "$LEDGER"; printf \'{}\''
IN_DEGREE_WEIGHTS = {0: 0.25, 1: 0.5, 2: 0.25}
"""How many predecessors a node has: about one on average, so a failure's cone stays small."""
WINDOW = 40
"""Predecessors are picked among the previous WINDOW nodes, so the graph is deep and wide."""
PAUSE_MS = (2, 12)


@dataclass(frozen=True)
class RandomDag:
    """The nodes (in a topological order) and edges of one seeded random DAG."""

    node_ids: tuple[str, ...]
    edges: tuple[tuple[str, str], ...]
    pauses: dict[str, float]

    @classmethod
    def generate(cls, rng: random.Random, size: int) -> "RandomDag":
        """``size`` nodes; each takes 0 to 2 predecessors among the nodes just before it."""
        node_ids = tuple(f"n{index:03d}" for index in range(size))
        edges: list[tuple[str, str]] = []
        for index, node_id in enumerate(node_ids):
            earlier = node_ids[max(0, index - WINDOW) : index]
            wanted = rng.choices(list(IN_DEGREE_WEIGHTS), list(IN_DEGREE_WEIGHTS.values()))[0]
            edges.extend((source, node_id) for source in rng.sample(earlier, min(wanted, index)))
        edges.extend(_edges_for_isolated_nodes(node_ids, edges, rng))
        pauses = {node_id: rng.randint(*PAUSE_MS) / 1000 for node_id in node_ids}
        return cls(node_ids, tuple(edges), pauses)

    def workflow_document(self, name: str, ledger: Path, rng: random.Random) -> dict:
        """The workflow file's content; nodes listed in a shuffled order (the engine sorts)."""
        listed = list(self.node_ids)
        rng.shuffle(listed)
        nodes = [
            {
                "id": node_id,
                "agentId": AGENT_ID,
                "configuration": {
                    "parameters": {
                        "node": node_id,
                        "ledger": str(ledger),
                        "pause": f"{self.pauses[node_id]:.3f}",
                    }
                },
                "constraints": {"sideEffecting": True},
            }
            for node_id in listed
        ]
        edges = [{"source": source, "target": target} for source, target in self.edges]
        return {"name": name, "nodes": nodes, "edges": edges}


def _edges_for_isolated_nodes(
    node_ids: tuple[str, ...], edges: list[tuple[str, str]], rng: random.Random
) -> list[tuple[str, str]]:
    """An edge from an earlier node (or to a later one, for the first) for every node that
    has none: publishing refuses a node connected to nothing."""
    connected = {node_id for edge in edges for node_id in edge}
    added = []
    for index, node_id in enumerate(node_ids):
        if node_id in connected:
            continue
        if index == 0:
            added.append((node_id, rng.choice(node_ids[1 : WINDOW + 1])))
        else:
            added.append((rng.choice(node_ids[max(0, index - WINDOW) : index]), node_id))
        connected.update(added[-1])
    return added


def write_agent(folder: Path) -> Path:
    """An ``--agents`` folder holding the ledger-appending shell agent."""
    folder.mkdir(parents=True, exist_ok=True)
    definition = {
        "id": AGENT_ID,
        "name": "Ledger append",
        "kind": "shell",
        "settings": {
            "argv": ["sh", "-c", SCRIPT],
            "env": {
                "NODE": "${parameters.node}",
                "LEDGER": "${parameters.ledger}",
                "PAUSE": "${parameters.pause}",
            },
        },
    }
    (folder / f"{AGENT_ID}.yaml").write_text(yaml.safe_dump(definition), encoding="utf-8")
    return folder


def write_workflow(dag: RandomDag, path: Path, ledger: Path, rng: random.Random) -> Path:
    """A workflow file whose nodes append to ``ledger``."""
    document = dag.workflow_document(f"random kill dag {path.stem}", ledger, rng)
    path.write_text(json.dumps(document, indent=1), encoding="utf-8")
    return path


def ledger_counts(ledger: Path) -> Counter[str]:
    """How many times each node's side effect happened."""
    if not ledger.exists():
        return Counter()
    return Counter(ledger.read_text(encoding="utf-8").split())

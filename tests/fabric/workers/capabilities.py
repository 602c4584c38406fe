"""Capability definition folders for worker tests, and the commands that drive real workers.

- ``design_capability``: ``design-studio`` (the fixture manifest) whose workflow lands a
  design artifact for the ordered subject; ``sleep`` puts a shell node that waits that long
  before it, to catch a worker mid-build.
- ``ledger_capability``: ``ledger``, whose workflow lands one ledger artifact per item naming
  the worker and the lease token it built under: a second build of an item would show as a
  second version of its entry.
"""

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml

from tests.cli_runner import REPO_ROOT

FIXTURES = Path(__file__).resolve().parent / "fixtures"
ORDER = FIXTURES / "order-checkout-design.md"
MANIFEST = FIXTURES / "capability-design-studio.md"
CORPUS = REPO_ROOT / "tests" / "knowledge" / "fixtures" / "checkout-redesign"

DESIGN = """\
---
id: design-${input.item.id}
kind: design
subject: ${input.item.subject}
title: Checkout design for ${input.item.id}
produced_by: {capability: design-studio}
created_at: 2026-09-12T10:00:00Z
---
# Checkout design

Built by ${input.item.lease.worker} (lease token ${input.item.lease.token}) for the order:
${input.order}

## Components

```yaml component
id: C-ONE-PAGE
name: One-page checkout
```
"""

LEDGER_MANIFEST = """\
---
id: ledger
kind: capability-manifest
subject: ledger
title: Ledger — what it offers
created_at: 2026-09-01T08:00:00Z
produced_by: {capability: ledger}
---

# Ledger

## entry

**Status:** live

One ledger entry per item.
"""

LEDGER_ENTRY = """\
---
id: entry-${input.item.id}
kind: ledger-entry
subject: ledger
title: Ledger entry ${input.item.id}
produced_by: {capability: ledger}
created_at: 2026-09-12T10:00:00Z
---
# Ledger entry

worker=${input.item.lease.worker} token=${input.item.lease.token}
"""


def write_yaml(path: Path, data: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(data, sort_keys=False, width=100), encoding="utf-8")
    return path


def design_capability(folder: Path, sleep: float = 0, **definition: Any) -> Path:
    """The design-studio definition; ``definition`` overrides fields of capability.yaml."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "manifest.md").write_text(MANIFEST.read_text(encoding="utf-8"), encoding="utf-8")
    _agents(folder, "design-writer", DESIGN, sleep)
    nodes = [{"id": "design", "name": "Design", "agentId": "design-writer"}]
    _workflow(folder, "design-studio-build", nodes, sleep)
    fields = {
        "name": "design-studio",
        "manifest": "manifest.md",
        "workflow": "workflow.yaml",
        "gate": {"rule": "clear-order"},
        "budgets": {"build_rounds": 2},
    }
    write_yaml(folder / "capability.yaml", fields | definition)
    return folder


def ledger_capability(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "manifest.md").write_text(LEDGER_MANIFEST, encoding="utf-8")
    _agents(folder, "ledger-writer", LEDGER_ENTRY)
    _workflow(
        folder, "ledger-build", [{"id": "entry", "name": "Entry", "agentId": "ledger-writer"}]
    )
    fields = {
        "name": "ledger",
        "manifest": "manifest.md",
        "workflow": "workflow.yaml",
        "gate": {"rule": "resolved-context"},
    }
    write_yaml(folder / "capability.yaml", fields)
    return folder


def _agents(folder: Path, agent_id: str, template: str, sleep: float = 0) -> None:
    write_yaml(
        folder / "agents" / f"{agent_id}.yaml",
        {"id": agent_id, "name": agent_id, "kind": "artifact", "settings": {"template": template}},
    )
    write_yaml(
        folder / "agents" / "waiter.yaml",
        {
            "id": "waiter",
            "name": "Waiter",
            "kind": "shell",
            "settings": {"argv": ["sh", "-c", f"sleep {sleep}; cat"]},
        },
    )


def _workflow(folder: Path, name: str, nodes: list[dict], sleep: float = 0) -> None:
    edges = []
    if sleep:
        nodes = [{"id": "wait", "name": "Wait", "agentId": "waiter"}, *nodes]
        edges = [{"id": "wait-then-build", "source": "wait", "target": nodes[1]["id"]}]
    data = {"name": name, "nodes": nodes, "edges": edges}
    write_yaml(folder / "workflow.yaml", data)


def ledger_order(number: int, rules: Path) -> str:
    """A ledger item whose one eager source is the file ``rules``."""
    return f"""\
---
id: item-{number:05d}
artifact: entry
capability: ledger
subject: ledger
status: queued
lease: null
requested_by: bench
created_at: 2026-09-12T09:00:00Z
context:
  - {{id: rules, type: file, ref: "{rules}", when: always}}
---

## Order

Write ledger entry {number}. Done when it lands.

## Resolved-context snapshot

## Work log

## Artifacts
"""


def studio(*args: str, data_dir: Path, **options: Any) -> subprocess.CompletedProcess:
    """``studio ARGS`` as a child process over the data folder, captured."""
    return subprocess.run(
        [sys.executable, "-m", "studio", *args],
        capture_output=True,
        text=True,
        env=environment(data_dir),
        cwd=REPO_ROOT,
        timeout=options.get("timeout", 120),
    )


def start_worker(
    *args: str, data_dir: Path, log: Path, new_session: bool = False
) -> subprocess.Popen:
    """``studio worker ARGS`` started in the background: stdout to ``log``, stderr beside it
    (``.err``); ``new_session`` makes it lead a process group, to kill with its children."""
    with log.open("w") as output, log.with_suffix(".err").open("w") as errors:
        return subprocess.Popen(
            [sys.executable, "-m", "studio", "worker", *args],
            stdout=output,
            stderr=errors,
            env=environment(data_dir),
            cwd=REPO_ROOT,
            start_new_session=new_session,
        )


def environment(data_dir: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["STUDIO_DATA_DIR"] = str(data_dir)
    env.pop("STUDIO_DB", None)
    return env


def shell_agent(folder: Path, agent_id: str, script: str) -> None:
    """An agent of the definition folder running ``sh -c script`` (stdin: the node input)."""
    write_yaml(
        folder / "agents" / f"{agent_id}.yaml",
        {
            "id": agent_id,
            "name": agent_id,
            "kind": "shell",
            "settings": {"argv": ["sh", "-c", script]},
        },
    )


def write_workflow(folder: Path, nodes: list[tuple[str, str]], edges: list[dict]) -> None:
    """Replace the definition's workflow: nodes as (id, agent id), edges as written."""
    data = {
        "name": f"{folder.name}-build",
        "nodes": [{"id": node, "name": node, "agentId": agent} for node, agent in nodes],
        "edges": edges,
    }
    write_yaml(folder / "workflow.yaml", data)

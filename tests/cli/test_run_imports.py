"""``studio run`` of a workflow of echo nodes loads what the run needs and no more: not the HTTP
client, the HTTP and LLM kinds, the system keyring, the knowledge store or the PostgreSQL
dialect. A real run in a fresh interpreter, as ``python -m studio`` would run it, which then
lists every module it imported."""

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.cli.test_startup_imports import LISTING_IMPORTS
from tests.cli_runner import REPO_ROOT

NOT_FOR_AN_ECHO_RUN = (
    "httpx",
    "keyring",
    "studio.engine.agent_kinds.http",
    "studio.engine.agent_kinds.http_transport",
    "studio.engine.agent_kinds.llm",
    "studio.store.knowledge",
    "studio.store.knowledge_writes",
    "studio.store.work_queue",
    "studio.knowledge",
    "sqlalchemy.dialects.postgresql",
)


def modules_loaded_by_studio(*arguments: str, data_dir: Path) -> tuple[str, list[str]]:
    """What ``python -m studio ARGUMENTS`` prints on stdout with ``data_dir`` as its data
    folder, and the modules it imported."""
    environment = {name: value for name, value in os.environ.items() if name != "STUDIO_DB"}
    run = subprocess.run(
        [sys.executable, "-c", LISTING_IMPORTS, *arguments],
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        env={**environment, "STUDIO_DATA_DIR": str(data_dir)},
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    return run.stdout, json.loads(run.stderr.splitlines()[-1])


def test_an_echo_run_loads_no_http_llm_keyring_or_knowledge_store(tmp_path: Path) -> None:
    workflow = tmp_path / "one.json"
    node = {"id": "n0", "agentId": "demo-echo-agent"}
    workflow.write_text(json.dumps({"name": "one", "nodes": [node], "edges": []}))
    printed, modules = modules_loaded_by_studio(
        "run", str(workflow), "--json", data_dir=tmp_path / "data"
    )
    execution = json.loads(printed)
    assert execution["status"] == "completed"
    assert execution["nodeResults"]["n0"]["status"] == "completed"
    assert "studio.engine.agent_kinds.echo" in modules  # the listing is of the run
    loaded = [
        name
        for name in modules
        if any(
            name == unneeded or name.startswith(f"{unneeded}.") for unneeded in NOT_FOR_AN_ECHO_RUN
        )
    ]
    assert loaded == []

"""A compensation tool's own credential is hidden from what its call leaves behind.

An ``llm`` agent resolves its ``apiKeyRef`` itself. When such an agent only ever runs as a
compensation tool, the runner must still learn that value, so that an answer echoing the key
is stored redacted like any node's. The chat server here answers with the Authorization
header it received, as a misbehaving or hostile endpoint could.
"""

import json
import threading
import uuid
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from studio.engine.credentials import REDACTED
from studio.model import AgentDefinition
from studio.model.execution import COMPENSATION_SUFFIX
from tests.engine.runner_harness import make_harness
from tests.security.local_server import PROXY_VARIABLES

CANARY_VARIABLE = "STUDIO_CANARY_KEY"


class EchoingChatHandler(BaseHTTPRequestHandler):
    """A chat-completions endpoint whose answer repeats the Authorization header."""

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        content = f"you called with {self.headers.get('Authorization')}"
        answer = {"model": "m", "choices": [{"message": {"content": content}}]}
        data = json.dumps(answer).encode("utf-8")
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        """Keep test output quiet."""


@pytest.fixture
def chat_url() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), EchoingChatHandler)
    thread = threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@pytest.fixture
def canary(monkeypatch: pytest.MonkeyPatch) -> str:
    value = f"canary-{uuid.uuid4().hex}"
    monkeypatch.setenv(CANARY_VARIABLE, value)
    for variable in PROXY_VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    return value


def test_a_compensation_tools_own_key_is_redacted_from_its_output(
    tmp_path: Path, chat_url: str, canary: str
) -> None:
    harness = make_harness(tmp_path)
    harness.agents.add(
        AgentDefinition(
            id="undo-llm",
            name="undo llm",
            kind="llm",
            settings={"baseUrl": chat_url, "model": "m", "apiKeyRef": f"env:{CANARY_VARIABLE}"},
        )
    )
    workflow = harness.publish(
        {
            "name": "compensated by an llm",
            "configuration": {"compensation": {"enabled": True}},
            "nodes": [
                {"id": "act", "agentId": "echo", "compensation": {"tool": "undo-llm"}},
                {"id": "boom", "agentId": "failing"},
            ],
            "edges": [{"source": "act", "target": "boom"}],
        }
    )

    record = harness.execute(workflow, {"order": 1})

    stored = harness.executions.get(record.execution_id)
    assert stored.compensation_status == "completed", stored.compensation_summary
    undo = stored.node_results["act" + COMPENSATION_SUFFIX]
    assert undo.output["text"] == f"you called with Bearer {REDACTED}"
    database = Path(harness.target)
    files = [Path(f"{database}{suffix}") for suffix in ("", "-wal", "-shm")]
    assert [path for path in files if path.exists() and canary.encode() in path.read_bytes()] == []

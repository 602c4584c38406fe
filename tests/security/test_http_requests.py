"""An http agent sends its request only where its URL setting literally says, and never a
header that could split the request.

Each test runs a published workflow on a real runner (a SQLite file) against a real server on
127.0.0.1 that records what it receives. A value substituted into the URL's path is one path
segment however many ``/``, ``?``, ``#`` or ``..`` it holds; a value in the query is one query
value; the scheme, host and port are never taken from a substitution. A header whose rendered
name or value holds a line break or NUL is an invalid setting, refused before any connection.
"""

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from studio.model import AgentDefinition
from studio.model.execution import ExecutionRecord
from tests.engine.runner_harness import Harness, make_harness
from tests.security.local_server import PROXY_VARIABLES, RecordingServer, recording_server

TRAVERSAL = "../../admin?role=root#frag"
"""The value of the issue: unencoded, ``/files/${input.name}`` becomes ``GET /admin``."""


@pytest.fixture(autouse=True)
def no_proxies(monkeypatch: pytest.MonkeyPatch) -> None:
    for variable in PROXY_VARIABLES:
        monkeypatch.delenv(variable, raising=False)


@pytest.fixture
def harness(tmp_path: Path) -> Harness:
    return make_harness(tmp_path)


@pytest.fixture
def server() -> Iterator[RecordingServer]:
    with recording_server() as running:
        yield running


def run_http(harness: Harness, settings: dict[str, Any], run_input: Any) -> ExecutionRecord:
    """Run ``start`` (echo) → ``call`` (an http agent with these settings); the stored record."""
    harness.agents.add(AgentDefinition(id="caller", name="caller", kind="http", settings=settings))
    workflow = harness.publish(
        {
            "name": "http request",
            "nodes": [{"id": "start", "agentId": "echo"}, {"id": "call", "agentId": "caller"}],
            "edges": [{"source": "start", "target": "call"}],
        }
    )
    record = harness.execute(workflow, run_input)
    return harness.executions.get(record.execution_id)


def received_path(harness: Harness, server: RecordingServer, url: str, name: str) -> str:
    """The path the server saw for a GET of ``url`` with ``input.name`` = ``name``."""
    record = run_http(harness, {"method": "GET", "url": url}, {"name": name})
    assert record.status == "completed", record.node_results["call"].error
    assert len(server.requests) == 1
    return server.requests[0].path


# --- the path ---------------------------------------------------------------------------------


def test_a_traversal_in_a_path_substitution_stays_one_segment(
    harness: Harness, server: RecordingServer
) -> None:
    path = received_path(harness, server, f"{server.url}/files/${{input.name}}", TRAVERSAL)

    assert path == "/files/..%2F..%2Fadmin%3Frole%3Droot%23frag"
    assert server.requests[0].query == {}
    assert not any(request.path.startswith("/admin") for request in server.requests)


@pytest.mark.parametrize(
    ("template", "name", "expected"),
    [
        ("/files/${input.name}", "..", "/files/%2E%2E"),
        ("/files/${input.name}/meta", ".", "/files/%2E/meta"),
        ("/files/.${input.name}", ".", "/files/%2E%2E"),
        ("/files/${input.name}.json", "..", "/files/...json"),
        ("/files/${input.name}", "a b/c%2F", "/files/a%20b%2Fc%252F"),
    ],
    ids=["parent", "current", "parent-by-joining", "dots-in-a-longer-segment", "escapes"],
)
def test_a_dot_segment_made_by_a_substitution_is_not_resolved(
    harness: Harness, server: RecordingServer, template: str, name: str, expected: str
) -> None:
    assert received_path(harness, server, f"{server.url}{template}", name) == expected


def test_the_literal_path_is_sent_as_written(harness: Harness, server: RecordingServer) -> None:
    url = f"{server.url}/api/v1/files/${{input.name}}/raw"
    assert received_path(harness, server, url, "report.txt") == "/api/v1/files/report.txt/raw"


# --- the query and the fragment ----------------------------------------------------------------


def test_a_query_substitution_is_one_query_value(harness: Harness, server: RecordingServer) -> None:
    settings = {
        "method": "GET",
        "url": f"{server.url}/search?q=${{input.name}}&page=2#${{input.name}}",
        "params": {"sort": "${input.name}"},
    }

    record = run_http(harness, settings, {"name": "x&page=99&admin=1#frag"})

    assert record.status == "completed", record.node_results["call"].error
    (request,) = server.requests
    assert request.path == "/search"
    assert request.query == {
        "q": ["x&page=99&admin=1#frag"],
        "page": ["2"],
        "sort": ["x&page=99&admin=1#frag"],
    }


# --- the scheme, host and port ------------------------------------------------------------------


@pytest.mark.parametrize(
    "template",
    [
        "${input.base}/files",
        "http://${input.host}/files",
        "http://127.0.0.1:${input.port}/files",
        "http://${input.user}@127.0.0.1:PORT/files",
        "http://127.0.0.1:PORT${input.path}",
        "${input.scheme}://127.0.0.1:PORT/files",
    ],
    ids=["whole-origin", "host", "port", "user-info", "right-after-the-port", "scheme"],
)
def test_a_substitution_in_the_scheme_host_or_port_is_an_invalid_setting(
    harness: Harness, server: RecordingServer, template: str
) -> None:
    port = server.url.rsplit(":", 1)[1]
    url = template.replace("PORT", port)
    run_input = {
        "base": server.url,
        "host": f"127.0.0.1:{port}",
        "port": port,
        "user": "someone",
        "path": "/files",
        "scheme": "http",
    }
    record = run_http_unchecked(harness, {"method": "GET", "url": url}, run_input)

    error = record.node_results["call"].error
    assert record.status == "failed"
    assert error["type"] == "InvalidAgent"
    assert "settings.url" in error["message"]
    assert "scheme, host and port" in error["message"]
    assert error["failureClass"] == "AGENT_ERROR"
    assert server.requests == []


def run_http_unchecked(
    harness: Harness, settings: dict[str, Any], run_input: Any
) -> ExecutionRecord:
    """Like ``run_http``, for an agent changed after the workflow was published (publishing
    refuses a URL whose origin is a substitution, so the run-time check is the last line)."""
    harness.agents.add(
        AgentDefinition(
            id="caller", name="caller", kind="http", settings={"url": "http://127.0.0.1/"}
        )
    )
    workflow = harness.publish(
        {
            "name": "http request",
            "nodes": [{"id": "start", "agentId": "echo"}, {"id": "call", "agentId": "caller"}],
            "edges": [{"source": "start", "target": "call"}],
        }
    )
    harness.agents.add(AgentDefinition(id="caller", name="caller", kind="http", settings=settings))
    record = harness.execute(workflow, run_input)
    return harness.executions.get(record.execution_id)


# --- headers ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value",
    ["ok\r\nX-Injected: 1", "ok\nX-Injected: 1", "ok\rX-Injected: 1", "ok\x00"],
    ids=["crlf", "lf", "cr", "nul"],
)
def test_a_line_break_in_a_rendered_header_is_an_invalid_setting(
    harness: Harness, server: RecordingServer, value: str
) -> None:
    settings = {
        "method": "GET",
        "url": f"{server.url}/echo",
        "headers": {"X-Name": "${input.name}"},
    }

    record = run_http(harness, settings, {"name": value})

    error = record.node_results["call"].error
    assert record.status == "failed"
    assert error["type"] == "InvalidAgent"
    assert "settings.headers.X-Name" in error["message"]
    assert "X-Injected" not in error["message"]  # the value is not repeated
    assert error["failureClass"] == "AGENT_ERROR"  # not TARGET_UNAVAILABLE
    assert server.requests == []


@pytest.mark.parametrize(
    "name", ["X-A\r\nX-B", "X-A\n", "X A"], ids=["crlf", "trailing-lf", "space"]
)
def test_a_line_break_in_a_header_name_is_an_invalid_setting(
    harness: Harness, server: RecordingServer, name: str
) -> None:
    settings = {"method": "GET", "url": f"{server.url}/echo", "headers": {name: "1"}}

    record = run_http(harness, settings, {})

    error = record.node_results["call"].error
    assert error["type"] == "InvalidAgent"
    assert "settings.headers" in error["message"] and "name" in error["message"]
    assert server.requests == []

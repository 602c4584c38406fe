"""The http kind against a real HTTP server on 127.0.0.1 (an ephemeral port, in a thread)."""

import contextlib
import json
import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from studio.engine.agent_kinds.base import AgentError
from studio.engine.agent_kinds.http import HttpKind
from tests.engine.agent_kinds.calls import make_call, run

PROXY_VARIABLES = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy")


class Handler(BaseHTTPRequestHandler):
    """Answers by path: /json echoes the request, /text, /unavailable, /slow, /empty."""

    def do_GET(self) -> None:
        self._answer()

    def do_POST(self) -> None:
        self._answer()

    def do_PUT(self) -> None:
        self._answer()

    def log_message(self, format: str, *args: Any) -> None:
        """Keep test output quiet."""

    def _answer(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode("utf-8") if length else None
        url = urlsplit(self.path)
        if url.path.startswith("/json"):
            self._send(200, "application/json", json.dumps(self._described(url, body)))
        elif url.path == "/text":
            self._send(200, "text/plain", "plain words")
        elif url.path == "/unavailable":
            self._send(503, "text/plain", "try again later")
        elif url.path == "/slow":
            time.sleep(1)
            self._send(200, "application/json", "{}")
        elif url.path == "/empty":
            self._send(204, "text/plain", "")
        else:
            self._send(404, "text/plain", "")

    def _described(self, url: Any, body: str | None) -> dict[str, Any]:
        return {
            "method": self.command,
            "path": url.path,
            "query": parse_qs(url.query),
            "token": self.headers.get("X-Token"),
            "body": json.loads(body) if body else None,
        }

    def _send(self, status: int, content_type: str, text: str) -> None:
        data = text.encode("utf-8")
        # The timeout test's client is gone by the time /slow answers.
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)


@pytest.fixture(autouse=True)
def no_proxies(monkeypatch: pytest.MonkeyPatch) -> None:
    """Requests go straight to 127.0.0.1 whatever proxy the machine has configured."""
    for variable in PROXY_VARIABLES:
        monkeypatch.delenv(variable, raising=False)


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """The base URL of a server that lives for this module's tests."""
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join()


def request(settings: dict[str, Any], node_input: Any = None, **options: Any) -> Any:
    """Run the http kind once."""
    return run(HttpKind(), make_call("http", settings, node_input, **options))


def failure_of(settings: dict[str, Any], **options: Any) -> AgentError:
    """The AgentError an http call raises."""
    with pytest.raises(AgentError) as failure:
        request(settings, **options)
    return failure.value


def test_a_json_response_is_the_output_and_the_input_is_the_default_body(server: str) -> None:
    output = request({"url": f"{server}/json"}, {"question": "why"})
    assert output == {
        "method": "POST",
        "path": "/json",
        "query": {},
        "token": None,
        "body": {"question": "why"},
    }


def test_url_headers_params_and_body_are_templates(server: str) -> None:
    settings = {
        "method": "put",
        "url": f"{server}/json/${{input.id}}",
        "headers": {"X-Token": "token-${parameters.user}"},
        "params": {"page": "${input.page}", "tags": ["a", "${parameters.user}"]},
        "body": {"id": "${input.id}", "note": "from ${parameters.user}"},
    }
    output = request(
        settings,
        {"id": 42, "page": 2},
        parameters={"user": "ada"},
    )
    assert output == {
        "method": "PUT",
        "path": "/json/42",
        "query": {"page": ["2"], "tags": ["a", "ada"]},
        "token": "token-ada",
        "body": {"id": 42, "note": "from ada"},
    }


def test_get_sends_no_body(server: str) -> None:
    assert request({"method": "GET", "url": f"{server}/json"}, {"x": 1})["body"] is None


def test_a_text_response_gives_status_and_text(server: str) -> None:
    assert request({"method": "GET", "url": f"{server}/text"}) == {
        "status": 200,
        "text": "plain words",
    }
    assert request({"method": "GET", "url": f"{server}/empty"}) == {"status": 204, "text": ""}


def test_an_error_status_is_an_http_error_with_the_status(server: str) -> None:
    failure = failure_of({"method": "GET", "url": f"{server}/unavailable"})
    assert failure.error_type == "HTTPError"
    assert failure.details == {"status": 503}
    assert "503" in failure.message and "try again later" in failure.message


def test_a_refused_connection_is_a_connection_error() -> None:
    # A bound socket that does not listen: the port is ours and connecting is refused.
    with socket.socket() as closed_port:
        closed_port.bind(("127.0.0.1", 0))
        port = closed_port.getsockname()[1]
        failure = failure_of({"url": f"http://127.0.0.1:{port}/json"})
    assert failure.error_type == "ConnectionError"
    assert f"127.0.0.1:{port}" in failure.message


def test_a_slow_server_is_a_timeout(server: str) -> None:
    failure = failure_of({"method": "GET", "url": f"{server}/slow"}, timeout=0.2)
    assert failure.error_type == "Timeout"


def test_a_missing_value_in_the_url_is_a_template_error(server: str) -> None:
    failure = failure_of({"url": f"{server}/json/${{input.id}}"}, node_input={})
    assert failure.error_type == "TemplateError"
    assert "settings.url" in failure.message and "input.id" in failure.message


@pytest.mark.parametrize(
    "settings",
    [
        {},
        {"url": "ftp://example.invalid/x"},
        {"url": "http://x", "params": {"a": {"b": 1}}},
        {"url": "${config.base}/json"},
        {"url": "http://x", "method": "GET /admin HTTP/1.1\r\nX:"},
        {"url": "http://x", "headers": {"X-Name": "café"}},
    ],
)
def test_bad_settings_are_an_invalid_agent(settings: dict[str, Any]) -> None:
    assert failure_of(settings, configuration={"base": "http://x"}).error_type == "InvalidAgent"


def test_params_are_added_to_the_query_the_url_writes(server: str) -> None:
    settings = {"method": "GET", "url": f"{server}/json?page=2", "params": {"sort": "name"}}
    assert request(settings)["query"] == {"page": ["2"], "sort": ["name"]}

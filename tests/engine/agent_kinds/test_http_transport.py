"""The ``http`` and ``llm`` kinds share one transport: a failure means the same in both, and
both reach the outside through the environment's proxy. Real servers on 127.0.0.1."""

import contextlib
import json
import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, ClassVar

import pytest

from studio.engine.agent_kinds.base import AgentError
from studio.engine.agent_kinds.http import HttpKind
from studio.engine.agent_kinds.llm import LlmKind
from tests.engine.agent_kinds.calls import make_call, run
from tests.security.local_server import PROXY_VARIABLES

ANSWER = {"choices": [{"message": {"content": "hello"}, "finish_reason": "stop"}]}


class Handler(BaseHTTPRequestHandler):
    """Answers by the first path segment: /429, /503, /slow, /ok; records what it was asked."""

    seen: ClassVar[list[str]] = []

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        Handler.seen.append(self.path)
        first = self.path.split("/")[3] if "://" in self.path else self.path.split("/")[1]
        if first == "429":
            self._send(429, {"error": {"message": "slow down", "type": "rate_limit"}})
        elif first == "503":
            self._send(503, {"error": "the model is loading"})
        elif first == "slow":
            time.sleep(1)
            self._send(200, ANSWER)
        else:
            self._send(200, ANSWER)

    def log_message(self, format: str, *args: Any) -> None:
        """Keep test output quiet."""

    def _send(self, status: int, data: Any) -> None:
        body = json.dumps(data).encode()
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)


@pytest.fixture(autouse=True)
def no_proxies(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever proxy the machine has is not the one these tests mean."""
    for variable in PROXY_VARIABLES:
        monkeypatch.delenv(variable, raising=False)


@pytest.fixture
def server() -> Iterator[str]:
    """The base URL of a server living for one test."""
    Handler.seen = []
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


def both_kinds(base: str, timeout: float = 10.0) -> dict[str, Any]:
    """What each kind gives (output or AgentError) for a POST to ``base``/chat/completions."""
    http = make_call("http", {"url": f"{base}/chat/completions"}, {"q": 1}, timeout=timeout)
    llm = make_call("llm", {"baseUrl": base, "model": "m"}, timeout=timeout)
    results: dict[str, Any] = {}
    for name, kind, call in (("http", HttpKind(), http), ("llm", LlmKind(), llm)):
        try:
            results[name] = run(kind, call)
        except AgentError as failure:
            results[name] = failure
    return results


@pytest.mark.parametrize(
    ("path", "error_type", "details", "said"),
    [
        ("429", "RateLimited", {"status": 429}, "slow down"),
        ("503", "HTTPError", {"status": 503}, "the model is loading"),
        ("slow", "Timeout", {}, "timed out"),
    ],
)
def test_both_kinds_map_a_failing_answer_alike(
    server: str, path: str, error_type: str, details: dict[str, int], said: str
) -> None:
    results = both_kinds(f"{server}/{path}", timeout=0.3)
    for failure in results.values():
        assert isinstance(failure, AgentError)
        assert (failure.error_type, failure.details) == (error_type, details)
        assert said in failure.message
        assert f"POST {server}/{path}/chat/completions" in failure.message


def test_both_kinds_map_a_refused_connection_alike() -> None:
    with socket.socket() as closed_port:
        closed_port.bind(("127.0.0.1", 0))
        base = f"http://127.0.0.1:{closed_port.getsockname()[1]}/v1"
        results = both_kinds(base)
    assert {name: failure.error_type for name, failure in results.items()} == {
        "http": "ConnectionError",
        "llm": "ConnectionError",
    }


def test_both_kinds_go_through_the_proxy_the_environment_names(
    server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HTTP_PROXY", server)
    results = both_kinds("http://models.studio-upstream.test/ok")
    assert results["http"] == ANSWER
    assert results["llm"]["text"] == "hello"
    assert Handler.seen == ["http://models.studio-upstream.test/ok/chat/completions"] * 2


def test_no_proxy_sends_straight_to_the_host(server: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HTTP_PROXY", "http://127.0.0.1:9")  # nothing listens on the discard port
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    results = both_kinds(f"{server}/ok")
    assert results["http"] == ANSWER and results["llm"]["text"] == "hello"
    assert Handler.seen == ["/ok/chat/completions"] * 2

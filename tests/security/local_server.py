"""A real HTTP server on 127.0.0.1 (an ephemeral port, in a thread) that records every request
and answers with a JSON echo of it: method, request target as sent (path and query, still
percent-encoded), path, decoded query, headers and body. The path
``/status/NNN`` answers status NNN with the request body as it came, instead."""

import contextlib
import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

PROXY_VARIABLES = (
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "ALL_PROXY",
    "NO_PROXY",
    "http_proxy",
    "https_proxy",
    "all_proxy",
    "no_proxy",
)
"""Requests must go straight to 127.0.0.1 whatever proxy the machine has configured."""


@dataclass(frozen=True)
class Received:
    """One request as the server saw it, the body as raw text."""

    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]
    body: str


@dataclass
class RecordingServer:
    """The base URL of the running server and what it has received so far."""

    url: str
    requests: list[Received] = field(default_factory=list)


class _Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self._answer()

    def do_POST(self) -> None:
        self._answer()

    def log_message(self, format: str, *args: Any) -> None:
        """Keep test output quiet."""

    def _answer(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode("utf-8") if length else ""
        url = urlsplit(self.path)
        received = Received(
            method=self.command,
            path=url.path,
            query=parse_qs(url.query),
            headers=dict(self.headers.items()),
            body=body,
        )
        self.server.recorded.append(received)  # type: ignore[attr-defined]
        echo = {
            "method": received.method,
            "target": self.path,
            "path": received.path,
            "query": received.query,
            "headers": received.headers,
            "body": json.loads(body) if body else None,
        }
        data = json.dumps(echo).encode("utf-8")
        status = 200
        if url.path.startswith("/status/"):
            status, data = int(url.path.removeprefix("/status/")), body.encode("utf-8")
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)


@contextlib.contextmanager
def recording_server() -> Iterator[RecordingServer]:
    """Serve on 127.0.0.1 until the block ends."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    recorded: list[Received] = []
    server.recorded = recorded  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    try:
        host, port = server.server_address[:2]
        yield RecordingServer(f"http://{host}:{port}", recorded)
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)

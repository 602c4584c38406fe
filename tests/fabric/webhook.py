"""A local webhook receiver for delivery tests: a real HTTP server on a free port."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest


@dataclass
class Hook:
    """A local webhook receiver: what it was sent, and the status it answers with."""

    url: str
    status: int = 200
    delay_s: float = 0.0
    received: list[bytes] = field(default_factory=list)


@pytest.fixture
def hook() -> Iterator[Hook]:
    """A real HTTP server in a thread, on a free local port."""
    state = Hook("")

    class Receiver(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers["Content-Length"]))
            time.sleep(state.delay_s)
            state.received.append(body)
            self.send_response(state.status)
            self.end_headers()
            self.wfile.write(b"{}")

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    state.url = f"http://127.0.0.1:{server.server_address[1]}/deliveries"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()

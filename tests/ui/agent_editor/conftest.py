"""A real HTTP server on 127.0.0.1 for the agents made in these tests to call."""

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

ORDERS = {
    "orders": [{"id": 1, "item": "tea", "price": 3.5}, {"id": 2, "item": "cake", "price": 4}],
    "count": 2,
}


class OrdersServer(ThreadingHTTPServer):
    """Answers GET /orders with ORDERS as JSON; ``paths`` lists what was asked for."""

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), OrdersHandler)
        self.paths: list[str] = []

    @property
    def url(self) -> str:
        """The server's base URL."""
        return f"http://127.0.0.1:{self.server_address[1]}"


ROUTES = {"/orders": ORDERS, "/orders/list": ORDERS["orders"]}
"""What each path answers: the orders with their count, or the list of orders alone."""


class OrdersHandler(BaseHTTPRequestHandler):
    """GET /orders gives ORDERS, /orders/list the orders alone, anything else a 404 with a
    JSON error."""

    def do_GET(self) -> None:
        if isinstance(self.server, OrdersServer):
            self.server.paths.append(self.path)
        answer = ROUTES.get(self.path.split("?")[0])
        found = answer is not None
        body = json.dumps(answer if found else {"error": "no such thing"}).encode()
        self.send_response(200 if found else 404)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_args: object) -> None:
        pass


@pytest.fixture
def orders_server() -> Iterator[OrdersServer]:
    """A server answering GET /orders, serving on its own thread."""
    server = OrdersServer()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()

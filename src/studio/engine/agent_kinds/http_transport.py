"""The one HTTP transport of the ``http`` and ``llm`` kinds.

Both kinds build their client here, send through :func:`send` and check the answer's status
with :func:`raise_for_status`, so a failure means the same thing whichever kind met it:

- the call's timeout expiring (connecting, sending or reading) is a ``Timeout``;
- a URL httpx cannot use (unknown scheme, malformed host) is an ``InvalidAgent``;
- a refused, reset or otherwise broken connection is a ``ConnectionError``;
- status 429 is ``RateLimited`` and any other status of 400 and above an ``HTTPError``, both
  with ``{"status": code}`` in their details and the server's own words (secrets hidden, at
  most 500 characters) in the message.

Proxies are decided here and nowhere else: the client follows the environment's
``HTTP_PROXY``, ``HTTPS_PROXY``, ``ALL_PROXY`` and ``NO_PROXY`` (see :data:`TRUST_ENVIRONMENT`).
"""

from collections.abc import Callable
from typing import Any

import httpx

from studio.engine.agent_kinds.base import AgentError
from studio.model.input_limits import parse_json_text

TRUST_ENVIRONMENT = True
"""Whether clients take proxies (and ``NO_PROXY``) from the environment: a machine that reaches
the outside through a proxy reaches it the same way from every kind."""
ERROR_TEXT_CHARS = 500
"""How much of a server's error text a failure message keeps."""

Hide = Callable[[str], str]
"""Replaces the call's secrets in a text before it goes into an error."""


def build_client(timeout: float) -> httpx.AsyncClient:
    """A client for one call: kinds are shared and concurrent, and nothing outlives the call."""
    return httpx.AsyncClient(timeout=timeout, trust_env=TRUST_ENVIRONMENT)


async def send(timeout: float, method: str, url: str, where: str, **options: Any) -> httpx.Response:
    """Send one request; transport failures become the AgentErrors listed above.

    ``where`` names the request in messages (``"POST https://…"``); ``options`` are httpx's
    (``json``, ``headers``)."""
    try:
        async with build_client(timeout) as client:
            return await client.request(method, url, **options)
    except httpx.TimeoutException as failure:
        raise AgentError("Timeout", f"{where} timed out: {_reason(failure)}") from None
    except (httpx.UnsupportedProtocol, httpx.InvalidURL) as failure:
        raise AgentError("InvalidAgent", f"{where}: {_reason(failure)}") from None
    except httpx.TransportError as failure:
        raise AgentError("ConnectionError", f"{where} failed: {_reason(failure)}") from None


def raise_for_status(response: httpx.Response, where: str, hide: Hide) -> None:
    """Raise ``RateLimited`` for 429 and ``HTTPError`` for any other status of 400 and above."""
    status = response.status_code
    if status < 400:
        return
    error_type = "RateLimited" if status == 429 else "HTTPError"
    reason = hide(server_error_text(response))[:ERROR_TEXT_CHARS]
    message = f"{where} returned HTTP {status}" + (f": {reason}" if reason else "")
    raise AgentError(error_type, message, {"status": status})


def server_error_text(response: httpx.Response) -> str:
    """The server's own error message: ``error.message`` (OpenAI), ``error`` (Ollama) or text."""
    try:
        error = parse_json_text(response.text).get("error")
    except (ValueError, AttributeError):
        error = None
    if isinstance(error, dict) and isinstance(error.get("message"), str):
        return error["message"]
    if isinstance(error, str):
        return error
    return response.text


def invalid_url_reason(failure: httpx.InvalidURL) -> str:
    """What was wrong with a URL httpx refused, for an InvalidAgent message."""
    return _reason(failure)


def _reason(failure: Exception) -> str:
    return str(failure) or type(failure).__name__

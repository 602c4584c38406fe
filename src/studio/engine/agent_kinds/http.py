"""The ``http`` kind: one HTTP request per node run.

Settings (all templates):
    url: required.
    method: default ``POST``.
    headers: optional mapping of header names to text.
    params: optional mapping of query parameters.
    body: optional JSON template sent as the JSON body. Without it the node input is sent,
        except for GET and HEAD, which send no body.

A JSON response is the output; any other response is ``{"status": code, "text": body}``.
Status 400 and above is an ``HTTPError`` (status in the message and in details), a refused or
broken connection a ``ConnectionError``, and an httpx timeout (the call's timeout) a ``Timeout``.
"""

from typing import Any, ClassVar

import httpx

from studio.engine.agent_kinds.base import AgentCall, AgentError, AgentKind
from studio.engine.agent_kinds.settings import (
    invalid_agent,
    rendered,
    rendered_text,
    setting,
    string_mapping,
)

_BODYLESS_METHODS = frozenset({"GET", "HEAD"})
_ERROR_TEXT_CHARS = 500
_QUERY_SCALARS = (str, int, float, bool, type(None))


class HttpKind(AgentKind):
    """Sends one request and returns the response's JSON (or its status and text)."""

    name: ClassVar[str] = "http"

    async def run(self, call: AgentCall) -> Any:
        """Send the request built from the settings and return the decoded response."""
        request = _request_arguments(call)
        where = f"{request['method']} {request['url']}"
        # A client per call: kinds are shared and concurrent, and nothing outlives the call.
        try:
            async with httpx.AsyncClient(timeout=call.timeout) as client:
                response = await client.request(**request)
        except httpx.TimeoutException as failure:
            raise AgentError("Timeout", f"{where} timed out: {_reason(failure)}") from None
        except (httpx.UnsupportedProtocol, httpx.InvalidURL) as failure:
            raise AgentError("InvalidAgent", f"{where}: {_reason(failure)}") from None
        except httpx.TransportError as failure:
            raise AgentError("ConnectionError", f"{where} failed: {_reason(failure)}") from None
        return _output(response, where, call)


def _request_arguments(call: AgentCall) -> dict[str, Any]:
    method = rendered_text(call, "method", setting(call, "method", "POST")).upper()
    arguments: dict[str, Any] = {
        "method": method,
        "url": rendered_text(call, "url", setting(call, "url")),
        "headers": {
            name: rendered_text(call, f"headers.{name}", value)
            for name, value in string_mapping(call, "headers").items()
        },
        "params": _query_parameters(call),
    }
    if "body" in call.agent.settings:
        arguments["json"] = rendered(call, "body", call.agent.settings["body"])
    elif method not in _BODYLESS_METHODS:
        arguments["json"] = call.input
    return arguments


def _query_parameters(call: AgentCall) -> dict[str, Any]:
    params = rendered(call, "params", string_mapping(call, "params"))
    for name, value in params.items():
        values = value if isinstance(value, list) else [value]
        if not all(isinstance(item, _QUERY_SCALARS) for item in values):
            raise invalid_agent(call, f"params.{name}", "must render to a scalar or a list of them")
    return params


def _output(response: httpx.Response, where: str, call: AgentCall) -> Any:
    status = response.status_code
    if status >= 400:
        text = call.hide_secrets(response.text)[:_ERROR_TEXT_CHARS]
        message = f"{where} returned HTTP {status}" + (f": {text}" if text else "")
        raise AgentError("HTTPError", message, {"status": status})
    try:
        return response.json()
    except ValueError:
        return {"status": status, "text": response.text}


def _reason(failure: Exception) -> str:
    return str(failure) or type(failure).__name__

"""The ``http`` kind: one HTTP request per node run.

Settings (all templates):
    url: required; the scheme, host and port are written out, values substituted into the
        path or query are percent-encoded where they stand (see :mod:`http_url`).
    method: default ``POST``.
    headers: optional mapping of header names to text; a rendered value holding CR, LF, NUL
        or another control character (or non-ASCII text) is an InvalidAgent, before connecting.
    params: optional mapping of query parameters.
    body: optional JSON template sent as the JSON body. Without it the node input is sent,
        except for GET and HEAD, which send no body.

A JSON response is the output; any other response is ``{"status": code, "text": body}``.
Failures (status 400 and above, refused connections, timeouts) are mapped by
:mod:`http_transport`, alike for this kind and the ``llm`` kind.
"""

import re
from typing import Any, ClassVar

import httpx

from studio.engine.agent_kinds.base import AgentCall, AgentKind, output_json
from studio.engine.agent_kinds.http_transport import invalid_url_reason, raise_for_status, send
from studio.engine.agent_kinds.http_url import request_url
from studio.engine.agent_kinds.settings import (
    invalid_agent,
    rendered,
    rendered_text,
    setting,
    string_mapping,
)

_BODYLESS_METHODS = frozenset({"GET", "HEAD"})
_QUERY_SCALARS = (str, int, float, bool, type(None))
_TOKEN = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
"""An HTTP token (RFC 9110): what a method or a header name may be."""
_BREAKING = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")
"""Control characters other than tab: CR and LF would start a new header or request."""


class HttpKind(AgentKind):
    """Sends one request and returns the response's JSON (or its status and text)."""

    name: ClassVar[str] = "http"

    async def run(self, call: AgentCall) -> Any:
        """Send the request built from the settings and return the decoded response."""
        request = _request_arguments(call)
        where = f"{request['method']} {request['url']}"
        response = await send(call.timeout, where=where, **request)
        raise_for_status(response, where, call.hide_secrets)
        try:
            return output_json(response.text)
        except ValueError:
            return {"status": response.status_code, "text": response.text}


def _request_arguments(call: AgentCall) -> dict[str, Any]:
    method = rendered_text(call, "method", setting(call, "method", "POST")).upper()
    if not _TOKEN.fullmatch(method):
        raise invalid_agent(call, "method", "must render to an HTTP method such as GET or POST")
    arguments: dict[str, Any] = {
        "method": method,
        "url": _with_parameters(call, request_url(call, setting(call, "url"))),
        "headers": _headers(call),
    }
    if "body" in call.agent.settings:
        arguments["json"] = rendered(call, "body", call.agent.settings["body"])
    elif method not in _BODYLESS_METHODS:
        arguments["json"] = call.input
    return arguments


def _headers(call: AgentCall) -> dict[str, str]:
    """The rendered headers; one that would split the request is refused before connecting."""
    headers: dict[str, str] = {}
    for name, template in string_mapping(call, "headers").items():
        if not _TOKEN.fullmatch(name):
            raise invalid_agent(call, "headers", f"has the header name {name!r}, not a valid name")
        value = rendered_text(call, f"headers.{name}", template)
        if _BREAKING.search(value):
            raise invalid_agent(
                call,
                f"headers.{name}",
                "renders to a value with a line break, NUL or other control character, "
                "which could split the request (the value is not shown)",
            )
        if not value.isascii():
            raise invalid_agent(call, f"headers.{name}", "must render to ASCII text")
        headers[name] = value
    return headers


def _with_parameters(call: AgentCall, url: str) -> str:
    """The URL with ``params`` added after the query its template writes (not instead of it)."""
    params = _query_parameters(call)
    if not params:
        return url
    try:
        return str(httpx.URL(url).copy_merge_params(params))
    except httpx.InvalidURL as failure:
        reason = invalid_url_reason(failure)
        raise invalid_agent(call, "url", f"is not a valid URL: {reason}") from None


def _query_parameters(call: AgentCall) -> dict[str, Any]:
    params = rendered(call, "params", string_mapping(call, "params"))
    for name, value in params.items():
        values = value if isinstance(value, list) else [value]
        if not all(isinstance(item, _QUERY_SCALARS) for item in values):
            raise invalid_agent(call, f"params.{name}", "must render to a scalar or a list of them")
    return params

"""The ``llm`` kind: one chat completion from an OpenAI-compatible server per node run.

Settings:
    baseUrl: required template, e.g. ``http://localhost:11434/v1``; the request goes to
        ``{baseUrl}/chat/completions``.
    model: the model name (a template); required unless the node sets ``modelOverride``.
    systemPrompt: optional template. A ``systemPromptAddition`` in the node's configuration
        is appended after a blank line (the engine has already dropped over-cap values).
    prompt: optional template for the user message; by default the node input as text.
    temperature, maxTokens: optional numbers (or templates giving numbers).
    apiKey: optional template, typically ``${credentials.NAME}``; or
    apiKeyRef: a credential reference (``env:NAME``, ``keyring:SERVICE/NAME``) resolved at
        call time. Without either, no Authorization header is sent.

The output is ``{text, model, usage, finishReason}``. Failures of the request (status 400 and
above, refused connections, timeouts) are mapped by :mod:`http_transport`, alike for this kind
and the ``http`` kind; an answer without ``choices[0].message.content`` is an
``InvalidOutput``. The key and the call's other secrets are redacted from every error message.
"""

from typing import Any, ClassVar

import httpx

from studio.engine.agent_kinds.base import AgentCall, AgentError, AgentKind
from studio.engine.agent_kinds.http_transport import (
    ERROR_TEXT_CHARS,
    Hide,
    raise_for_status,
    send,
)
from studio.engine.agent_kinds.settings import invalid_agent, rendered, rendered_text, setting
from studio.engine.credentials import CredentialError, Redactor, resolve_reference
from studio.engine.overrides import MODEL_OVERRIDE, SYSTEM_PROMPT_ADDITION
from studio.engine.rules.templates import as_text
from studio.model.input_limits import parse_json_text


class LlmKind(AgentKind):
    """Sends the node's prompt to a chat-completions endpoint and returns the answer."""

    name: ClassVar[str] = "llm"

    async def run(self, call: AgentCall) -> Any:
        """Build the request from the settings, send it and read the assistant's message."""
        api_key = _api_key(call)
        redactor = Redactor([*call.secrets.values(), *([api_key] if api_key else [])])
        try:
            return await _complete(call, api_key, redactor.redact_text)
        except AgentError as failure:
            raise AgentError(
                failure.error_type, redactor.redact_text(failure.message), failure.details
            ) from None


async def _complete(call: AgentCall, api_key: str | None, hide: Hide) -> dict[str, Any]:
    url = rendered_text(call, "baseUrl", setting(call, "baseUrl")).rstrip("/") + "/chat/completions"
    body = _request_body(call)
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    where = f"POST {url}"
    response = await send(call.timeout, "POST", url, where, json=body, headers=headers)
    raise_for_status(response, where, hide)
    return _output(response, where, body["model"], hide)


def _api_key(call: AgentCall) -> str | None:
    settings = call.agent.settings
    if "apiKey" in settings and "apiKeyRef" in settings:
        raise invalid_agent(call, "apiKey", "and settings.apiKeyRef cannot both be set")
    if "apiKey" in settings:
        return rendered_text(call, "apiKey", settings["apiKey"]) or None
    if "apiKeyRef" not in settings:
        return None
    reference = settings["apiKeyRef"]
    if not isinstance(reference, str):
        raise invalid_agent(call, "apiKeyRef", "must be a credential reference such as env:NAME")
    try:
        return resolve_reference(reference)
    except CredentialError as failure:
        message = f"agent '{call.agent.id}': settings.apiKeyRef: {failure}"
        raise AgentError("CredentialError", message) from None


def _request_body(call: AgentCall) -> dict[str, Any]:
    body: dict[str, Any] = {"model": _model(call), "messages": _messages(call)}
    temperature = _number(call, "temperature")
    if temperature is not None:
        body["temperature"] = temperature
    max_tokens = _number(call, "maxTokens")
    if max_tokens is not None:
        if isinstance(max_tokens, float) or max_tokens < 1:
            raise invalid_agent(call, "maxTokens", "must be a whole number of at least 1")
        body["max_tokens"] = max_tokens
    return body


def _model(call: AgentCall) -> str:
    override = call.configuration.get(MODEL_OVERRIDE)
    if isinstance(override, str) and override:
        return override
    model = rendered_text(call, "model", setting(call, "model"))
    if not model:
        raise invalid_agent(call, "model", "must not be empty")
    return model


def _messages(call: AgentCall) -> list[dict[str, str]]:
    parts = []
    if "systemPrompt" in call.agent.settings:
        parts.append(rendered_text(call, "systemPrompt", call.agent.settings["systemPrompt"]))
    addition = call.configuration.get(SYSTEM_PROMPT_ADDITION)
    if isinstance(addition, str) and addition:
        parts.append(addition)
    system = "\n\n".join(part for part in parts if part)
    if "prompt" in call.agent.settings:
        prompt = rendered_text(call, "prompt", call.agent.settings["prompt"])
    else:
        prompt = as_text(call.input)
    messages = [{"role": "system", "content": system}] if system else []
    return [*messages, {"role": "user", "content": prompt}]


def _number(call: AgentCall, name: str) -> int | float | None:
    if name not in call.agent.settings:
        return None
    value = rendered(call, name, call.agent.settings[name])
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise invalid_agent(call, name, f"must be a number, not {type(value).__name__}")
    return value


def _output(response: httpx.Response, where: str, model: str, hide: Hide) -> dict[str, Any]:
    """The answer, or an InvalidOutput whose text has secrets hidden before it is cut short."""
    status = response.status_code
    try:
        answer = parse_json_text(response.text)
        choice = answer["choices"][0]
        text = choice["message"]["content"]
    except (ValueError, KeyError, IndexError, TypeError):
        text = None
    if not isinstance(text, str):
        shown = hide(response.text)[:ERROR_TEXT_CHARS]
        message = f"{where}: the answer has no choices[0].message.content: {shown}"
        raise AgentError("InvalidOutput", message, {"status": status})
    return {
        "text": text,
        "model": answer.get("model") or model,
        "usage": answer.get("usage") or {},
        "finishReason": choice.get("finish_reason"),
    }

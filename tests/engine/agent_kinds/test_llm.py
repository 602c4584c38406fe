"""The llm kind against a real OpenAI-compatible server on 127.0.0.1 (an ephemeral port).

The server answers ``POST /v1/chat/completions`` and records every request. The requested
model chooses the answer: ``fail-500``, ``rate-limited``, ``unauthorized`` (which echoes the
key back, as some servers do), ``missing`` (an Ollama-style error), ``not-json``,
``no-choices``, ``null-content``, ``slow``; any other model gets a normal reply.
"""

import dataclasses
import json
import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from studio.engine.agent_kinds.base import AgentError
from studio.engine.agent_kinds.llm import LlmKind
from studio.engine.agent_kinds.registry import default_kind_registry
from tests.engine.agent_kinds.calls import make_call, run

KEY = "sk-test-0123456789abcdef"
USAGE = {"prompt_tokens": 7, "completion_tokens": 3, "total_tokens": 10}


class ChatServer(ThreadingHTTPServer):
    """An HTTP server that keeps the requests it received."""

    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), ChatHandler)
        self.received: list[dict[str, Any]] = []


class ChatHandler(BaseHTTPRequestHandler):
    """A small chat-completions endpoint whose behaviour the requested model picks."""

    server: ChatServer

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(length) or b"null")
        authorization = self.headers.get("Authorization")
        self.server.received.append({"path": self.path, "auth": authorization, "body": body})
        if self.path != "/v1/chat/completions":
            self._send(404, {"error": {"message": f"no route {self.path}"}})
            return
        self._answer(body, authorization)

    def log_message(self, format: str, *args: Any) -> None:
        """Keep test output quiet."""

    def _answer(self, body: dict[str, Any], authorization: str | None) -> None:
        model = body["model"]
        if model == "fail-500":
            self._send(500, {"error": {"message": f"upstream broke ({authorization})"}})
        elif model == "rate-limited":
            self._send(429, {"error": {"message": "slow down", "type": "rate_limit"}})
        elif model == "unauthorized":
            self._send(401, {"error": {"message": f"Incorrect API key provided: {authorization}"}})
        elif model == "missing":
            self._send(404, {"error": "model 'missing' not found, try pulling it first"})
        elif model == "not-json":
            self._send(200, "<html>a proxy page</html>")
        elif model == "no-choices":
            self._send(200, {"model": model, "choices": []})
        elif model == "null-content":
            message = {"role": "assistant", "content": None, "tool_calls": []}
            self._send(200, {"model": model, "choices": [{"message": message}]})
        elif model == "slow":
            time.sleep(1)
            self._send(200, {})
        else:
            self._send(200, _reply(body))

    def _send(self, status: int, payload: Any) -> None:
        text = payload if isinstance(payload, str) else json.dumps(payload)
        data = text.encode("utf-8")
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):  # the timeout test's client left
            pass


def _reply(body: dict[str, Any]) -> dict[str, Any]:
    question = body["messages"][-1]["content"]
    message = {"role": "assistant", "content": f"you said: {question}"}
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "model": f"{body['model']}-served",
        "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
        "usage": USAGE,
    }


@pytest.fixture(scope="module")
def server() -> Iterator[ChatServer]:
    """A chat server that lives for this module's tests."""
    httpd = ChatServer()
    thread = threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield httpd
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join()


@pytest.fixture
def base_url(server: ChatServer) -> str:
    """The server's ``/v1`` URL, with the record of earlier tests' requests cleared."""
    server.received.clear()
    return f"http://127.0.0.1:{server.server_address[1]}/v1"


def complete(
    settings: dict[str, Any],
    node_input: Any = "hello",
    secrets: dict[str, str] | None = None,
    **options: Any,
) -> Any:
    """Run the llm kind once."""
    call = make_call("llm", settings, node_input, **options)
    if secrets is not None:
        call = dataclasses.replace(call, secrets=secrets)
    return run(LlmKind(), call)


def failure_of(settings: dict[str, Any], **options: Any) -> AgentError:
    """The AgentError an llm call raises."""
    with pytest.raises(AgentError) as failure:
        complete(settings, **options)
    return failure.value


def last_request(server: ChatServer) -> dict[str, Any]:
    """The one request the server received in this test."""
    [request] = server.received
    return request


def test_a_reply_is_text_model_usage_and_finish_reason(server: ChatServer, base_url: str) -> None:
    output = complete({"baseUrl": base_url, "model": "llama3"}, "hello there")
    assert output == {
        "text": "you said: hello there",
        "model": "llama3-served",
        "usage": USAGE,
        "finishReason": "stop",
    }
    request = last_request(server)
    assert request["path"] == "/v1/chat/completions"
    assert request["auth"] is None
    assert request["body"] == {
        "model": "llama3",
        "messages": [{"role": "user", "content": "hello there"}],
    }


def test_a_trailing_slash_in_the_base_url_is_fine(server: ChatServer, base_url: str) -> None:
    complete({"baseUrl": f"{base_url}/", "model": "llama3"})
    assert last_request(server)["path"] == "/v1/chat/completions"


def test_the_model_override_wins_over_the_setting(server: ChatServer, base_url: str) -> None:
    settings = {"baseUrl": base_url, "model": "llama3"}
    output = complete(settings, configuration={"modelOverride": "qwen2"})
    assert last_request(server)["body"]["model"] == "qwen2"
    assert output["model"] == "qwen2-served"


def test_a_model_override_stands_in_for_a_missing_model(server: ChatServer, base_url: str) -> None:
    complete({"baseUrl": base_url}, configuration={"modelOverride": "qwen2"})
    assert last_request(server)["body"]["model"] == "qwen2"


@pytest.mark.parametrize(
    ("settings", "configuration", "system"),
    [
        ({"systemPrompt": "Be brief."}, {}, "Be brief."),
        (
            {"systemPrompt": "Be brief, ${parameters.name}."},
            {"systemPromptAddition": "Answer in French."},
            "Be brief, Ada.\n\nAnswer in French.",
        ),
        ({}, {"systemPromptAddition": "Answer in French."}, "Answer in French."),
    ],
)
def test_the_system_message_gets_the_addition_after_a_blank_line(
    server: ChatServer,
    base_url: str,
    settings: dict[str, Any],
    configuration: dict[str, Any],
    system: str,
) -> None:
    complete(
        {"baseUrl": base_url, "model": "llama3", **settings},
        parameters={"name": "Ada"},
        configuration=configuration,
    )
    messages = last_request(server)["body"]["messages"]
    assert messages == [
        {"role": "system", "content": system},
        {"role": "user", "content": "hello"},
    ]


def test_the_prompt_template_makes_the_user_message(server: ChatServer, base_url: str) -> None:
    settings = {"baseUrl": base_url, "model": "llama3", "prompt": "Summarise: ${input.text}"}
    output = complete(settings, {"text": "a long story"})
    assert last_request(server)["body"]["messages"] == [
        {"role": "user", "content": "Summarise: a long story"}
    ]
    assert output["text"] == "you said: Summarise: a long story"


def test_by_default_other_input_is_compact_json(server: ChatServer, base_url: str) -> None:
    complete({"baseUrl": base_url, "model": "llama3"}, {"a": [1, 2], "b": "é"})
    content = last_request(server)["body"]["messages"][-1]["content"]
    assert content == '{"a":[1,2],"b":"é"}'


def test_the_key_can_come_from_a_credential_template(server: ChatServer, base_url: str) -> None:
    settings = {"baseUrl": base_url, "model": "llama3", "apiKey": "${credentials.openai}"}
    output = complete(settings, secrets={"openai": KEY})
    assert last_request(server)["auth"] == f"Bearer {KEY}"
    assert KEY not in json.dumps(output)


def test_the_key_can_come_from_a_reference(
    server: ChatServer, base_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("STUDIO_TEST_LLM_KEY", KEY)
    complete({"baseUrl": base_url, "model": "llama3", "apiKeyRef": "env:STUDIO_TEST_LLM_KEY"})
    assert last_request(server)["auth"] == f"Bearer {KEY}"


def test_an_unresolvable_reference_is_a_credential_error(
    server: ChatServer, base_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("STUDIO_TEST_LLM_KEY", raising=False)
    settings = {"baseUrl": base_url, "model": "llama3", "apiKeyRef": "env:STUDIO_TEST_LLM_KEY"}
    failure = failure_of(settings)
    assert failure.error_type == "CredentialError"
    assert "settings.apiKeyRef" in failure.message and "STUDIO_TEST_LLM_KEY" in failure.message
    assert server.received == []


def test_temperature_and_max_tokens_are_passed(server: ChatServer, base_url: str) -> None:
    settings = {
        "baseUrl": base_url,
        "model": "llama3",
        "temperature": "${parameters.temperature}",
        "maxTokens": 64,
    }
    complete(settings, parameters={"temperature": 0.2})
    body = last_request(server)["body"]
    assert (body["temperature"], body["max_tokens"]) == (0.2, 64)


@pytest.mark.parametrize(
    ("model", "error_type", "status", "said"),
    [
        ("fail-500", "HTTPError", 500, "upstream broke"),
        ("rate-limited", "RateLimited", 429, "slow down"),
        ("unauthorized", "HTTPError", 401, "Incorrect API key provided"),
        ("missing", "HTTPError", 404, "model 'missing' not found"),
    ],
)
def test_an_error_status_carries_the_status_and_never_the_key(
    base_url: str, model: str, error_type: str, status: int, said: str
) -> None:
    settings = {"baseUrl": base_url, "model": model, "apiKey": "${credentials.openai}"}
    with pytest.raises(AgentError) as raised:
        complete(settings, secrets={"openai": KEY})
    failure = raised.value
    assert failure.error_type == error_type
    assert failure.details == {"status": status}
    assert str(status) in failure.message and said in failure.message
    assert KEY not in failure.message and KEY not in json.dumps(failure.to_data())


@pytest.mark.parametrize("model", ["not-json", "no-choices", "null-content"])
def test_an_answer_without_content_is_invalid_output(base_url: str, model: str) -> None:
    failure = failure_of({"baseUrl": base_url, "model": model})
    assert failure.error_type == "InvalidOutput"
    assert "choices[0].message.content" in failure.message


def test_a_refused_connection_is_a_connection_error() -> None:
    # A bound socket that does not listen: the port is ours and connecting is refused.
    with socket.socket() as closed_port:
        closed_port.bind(("127.0.0.1", 0))
        port = closed_port.getsockname()[1]
        failure = failure_of(
            {"baseUrl": f"http://127.0.0.1:{port}/v1", "model": "llama3", "apiKey": KEY}
        )
    assert failure.error_type == "ConnectionError"
    assert f"127.0.0.1:{port}" in failure.message and KEY not in failure.message


def test_a_slow_server_is_a_timeout(base_url: str) -> None:
    failure = failure_of({"baseUrl": base_url, "model": "slow"}, timeout=0.2)
    assert failure.error_type == "Timeout"


def test_secrets_in_the_url_are_redacted_from_errors(base_url: str) -> None:
    with_password = base_url.replace("http://", "http://ada:${credentials.proxy}@")
    failure = failure_of({"baseUrl": with_password, "model": "fail-500"}, secrets={"proxy": KEY})
    assert failure.details == {"status": 500}
    assert "ada:[redacted]@127.0.0.1" in failure.message and KEY not in failure.message


@pytest.mark.parametrize(
    "settings",
    [
        {"model": "llama3"},
        {"baseUrl": "http://127.0.0.1:9/v1"},
        {"baseUrl": "ftp://example.invalid/v1", "model": "llama3"},
        {"baseUrl": "http://127.0.0.1:9/v1", "model": "llama3", "apiKey": "k", "apiKeyRef": "x"},
        {"baseUrl": "http://127.0.0.1:9/v1", "model": "llama3", "temperature": "warm"},
        {"baseUrl": "http://127.0.0.1:9/v1", "model": "llama3", "maxTokens": 0},
        {"baseUrl": "http://127.0.0.1:9/v1", "model": "llama3", "maxTokens": 1.5},
        {"baseUrl": "http://127.0.0.1:9/v1", "model": "llama3", "apiKeyRef": ["env:X"]},
    ],
)
def test_bad_settings_are_an_invalid_agent(settings: dict[str, Any]) -> None:
    assert failure_of(settings).error_type == "InvalidAgent"


def test_the_kind_is_built_in() -> None:
    assert isinstance(default_kind_registry().get("llm"), LlmKind)

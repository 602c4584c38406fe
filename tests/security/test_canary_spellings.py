"""A credential is hidden however the text that carries it spells it.

Passwords hold quotes, backslashes, slashes, plus signs, spaces and letters beyond ASCII. On
the way back from an agent such a value is often re-spelled: percent-encoded in a URL a server
echoes, escaped inside a JSON document or a Python traceback. The canary below starts with a
unique run of hex digits that every one of those spellings keeps as it is, so finding that run
anywhere in what was stored means the credential leaked, whatever its spelling.
"""

import json
import sys
import uuid
from pathlib import Path
from urllib.parse import quote, quote_plus

import pytest
from hypothesis import given
from hypothesis import strategies as st

from studio.engine.credentials import MIN_SECRET_CHARS, REDACTED, Redactor
from studio.model import AgentDefinition
from studio.model.execution import ExecutionRecord
from tests.engine.runner_harness import Harness, make_harness
from tests.security.local_server import PROXY_VARIABLES, recording_server

CANARY_VARIABLE = "STUDIO_CANARY_KEY"


@pytest.fixture
def marker() -> str:
    """The unique part of the canary: no spelling changes hex digits."""
    return uuid.uuid4().hex


@pytest.fixture
def canary(monkeypatch: pytest.MonkeyPatch, marker: str) -> str:
    value = f'{marker}"quote\\back/slash+plus space-é'
    monkeypatch.setenv(CANARY_VARIABLE, value)
    for variable in PROXY_VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    return value


def run_one(tmp_path: Path, agent: AgentDefinition) -> tuple[Harness, ExecutionRecord]:
    """Run one node of ``agent`` with the ``api`` credential; the stored execution."""
    harness = make_harness(tmp_path)
    harness.agents.add(agent)
    workflow = harness.publish(
        {
            "name": "spelled secret",
            "configuration": {"credentials": {"api": f"env:{CANARY_VARIABLE}"}},
            "nodes": [{"id": "leaky", "agentId": agent.id}],
        }
    )
    record = harness.execute(workflow, {})
    return harness, harness.executions.get(record.execution_id)


def assert_not_stored(harness: Harness, record: ExecutionRecord, marker: str) -> None:
    """The marker is in no stored result or event, and nowhere in the database's files."""
    result = record.node_results["leaky"]
    stored = json.dumps({"output": result.output, "error": result.error, "input": result.input})
    assert REDACTED in stored
    assert marker not in stored
    events = json.dumps([event.payload for event in harness.executions.events(record.execution_id)])
    assert marker not in events
    database = Path(harness.target)
    files = [Path(f"{database}{suffix}") for suffix in ("", "-wal", "-shm")]
    assert [path for path in files if path.exists() and marker.encode() in path.read_bytes()] == []


def test_a_percent_encoded_secret_in_an_echoed_url_is_hidden(
    tmp_path: Path, canary: str, marker: str
) -> None:
    with recording_server() as server:
        agent = AgentDefinition(
            id="hook-caller",
            name="hook caller",
            kind="http",
            settings={
                "method": "GET",
                "url": f"{server.url}/hooks/${{credentials.api}}",
                "params": {"key": "${credentials.api}"},
            },
        )
        harness, record = run_one(tmp_path, agent)
        (request,) = server.requests
    assert record.status == "completed", record.node_results["leaky"].error
    assert request.query == {"key": [canary]}  # the server got the value itself
    assert record.node_results["leaky"].output["query"] == {"key": [REDACTED]}
    assert_not_stored(harness, record, marker)


def test_a_json_escaped_secret_in_an_http_error_body_is_hidden(
    tmp_path: Path, canary: str, marker: str
) -> None:
    with recording_server() as server:
        agent = AgentDefinition(
            id="poster",
            name="poster",
            kind="http",
            settings={"url": f"{server.url}/status/404", "body": {"token": "${credentials.api}"}},
        )
        harness, record = run_one(tmp_path, agent)
    error = record.node_results["leaky"].error
    assert error["type"] == "HTTPError"
    assert f'{{"token":"{REDACTED}"}}' in error["message"]
    assert_not_stored(harness, record, marker)


@pytest.mark.parametrize(
    "script",
    [
        'import json, os, sys; print(json.dumps({"token": os.environ["TOKEN"]}), file=sys.stderr)'
        "; sys.exit(1)",
        "import os; raise ValueError(f\"bad token {os.environ['TOKEN']!r}\")",
    ],
    ids=["json-on-stderr", "traceback-repr"],
)
def test_an_escaped_secret_in_a_program_error_is_hidden(
    tmp_path: Path, canary: str, marker: str, script: str
) -> None:
    agent = AgentDefinition(
        id="program",
        name="program",
        kind="shell",
        settings={"argv": [sys.executable, "-c", script], "env": {"TOKEN": "${credentials.api}"}},
    )
    harness, record = run_one(tmp_path, agent)
    assert record.node_results["leaky"].error["type"] in ("ProcessExit", "ValueError")
    assert_not_stored(harness, record, marker)


def spellings_of(value: str) -> list[str]:
    """Every spelling of ``value`` the tests above meet, and a few more."""
    return [
        value,
        quote(value, safe=""),
        quote(value, safe="/"),
        quote_plus(value, safe=""),
        quote(value, safe="").lower(),
        json.dumps(value)[1:-1],
        json.dumps(value, ensure_ascii=False)[1:-1],
        repr(value)[1:-1],
        value.encode("unicode_escape").decode("ascii"),
    ]


def test_the_redactor_hides_every_spelling(canary: str) -> None:
    redactor = Redactor([canary])
    for spelling in spellings_of(canary):
        hidden = redactor.redact_text(f"before {spelling} after")
        assert hidden == f"before {REDACTED} after", spelling


def test_spellings_of_other_text_are_left_alone(canary: str) -> None:
    redactor = Redactor([canary])
    text = "quote\\back/slash %22 plus+space \\u00e9 and the rest"
    assert redactor.redact_text(text) == text


SPELLERS = {
    "as-is": lambda value: value,
    "percent": lambda value: quote(value, safe=""),
    "percent-keeping-slashes": lambda value: quote(value, safe="/"),
    "form": lambda value: quote_plus(value, safe=""),
    "json": lambda value: json.dumps(value)[1:-1],
    "json-unicode": lambda value: json.dumps(value, ensure_ascii=False)[1:-1],
    "repr": lambda value: repr(value)[1:-1],
}


@given(
    st.text(
        st.characters(blacklist_characters="<>", blacklist_categories=["Cs"]),
        min_size=MIN_SECRET_CHARS,
        max_size=40,
    ),
    st.sampled_from(sorted(SPELLERS)),
)
def test_any_secret_in_any_spelling_is_hidden_whole(secret: str, speller: str) -> None:
    # The marks around it show that no piece of an escape is left on either side.
    spelled = SPELLERS[speller](secret)
    assert Redactor([secret]).redact_text(f"<{spelled}>") == f"<{REDACTED}>"

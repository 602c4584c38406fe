"""The echo kind: the input comes back, after an optional delay and with an optional prefix."""

import asyncio
import time

import pytest

from studio.engine.agent_kinds.base import AgentError
from studio.engine.agent_kinds.echo import EchoKind
from tests.engine.agent_kinds.calls import make_call, run


@pytest.mark.parametrize("node_input", [None, 3, "hi", [1, 2], {"a": {"b": [True]}}])
def test_the_input_comes_back_unchanged(node_input: object) -> None:
    assert run(EchoKind(), make_call("echo", node_input=node_input)) == node_input


def test_a_prefix_goes_before_a_string_input() -> None:
    call = make_call("echo", node_input="world", parameters={"prefix": "hello "})
    assert run(EchoKind(), call) == "hello world"


def test_a_prefix_goes_before_the_message_of_an_object() -> None:
    node_input = {"message": "world", "n": 1}
    call = make_call("echo", node_input=node_input, parameters={"prefix": "hello "})
    assert run(EchoKind(), call) == {"message": "hello world", "n": 1}
    assert node_input == {"message": "world", "n": 1}


@pytest.mark.parametrize("node_input", [5, {"message": 5}, {"text": "x"}, ["x"]])
def test_a_prefix_leaves_other_inputs_alone(node_input: object) -> None:
    call = make_call("echo", node_input=node_input, parameters={"prefix": ">"})
    assert run(EchoKind(), call) == node_input


def test_the_delay_is_waited() -> None:
    call = make_call("echo", node_input="x", parameters={"delaySeconds": 0.2})
    started = time.monotonic()
    assert run(EchoKind(), call) == "x"
    assert time.monotonic() - started >= 0.2


def test_a_delayed_echo_can_be_cancelled() -> None:
    call = make_call("echo", node_input="x", parameters={"delaySeconds": 30})
    started = time.monotonic()
    with pytest.raises(TimeoutError):
        asyncio.run(asyncio.wait_for(EchoKind().run(call), 0.1))
    assert time.monotonic() - started < 5


@pytest.mark.parametrize("parameters", [{"delaySeconds": -1}, {"delaySeconds": "1"}, {"prefix": 3}])
def test_bad_parameters_are_reported(parameters: dict) -> None:
    with pytest.raises(AgentError) as failure:
        run(EchoKind(), make_call("echo", node_input="x", parameters=parameters))
    assert failure.value.error_type == "InvalidParameters"
